import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { PACKAGE_ROOT, runSuite } from '../cli/run.js';
import { loadConfig } from '../helpers/config.js';

/**
 * `npm run bench`: the suite's wall time, request count, requests per second and peak resident
 * memory (RSS of this process, which runs the suite as `conformance run` does) against the
 * reference in its own process, then again with a delay added to every response (as a remote
 * staging target adds latency), and finally an embedded run (the reference in this process).
 * Usage: npm run bench [-- DELAY_MS ...] (default: 0 and 50).
 */
/** The hook's path (docs/provider-states.md); not imported from reference/, which would load the reference into the remote rows. */
const STATES_PATH = '/__provider-states';

const delays = process.argv.slice(2).map(Number).filter((n) => Number.isFinite(n) && n >= 0);
if (delays.length === 0) delays.push(0, 50);

/** Samples this process's resident memory until stopped; answers the peak in MB. */
function rssSampler(): () => number {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 25);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(peak, process.memoryUsage.rss()) / (1024 * 1024));
  };
}

/** The reference in a child process (so its memory is not the suite's), on a free loopback port. */
function referenceProcess(statesToken: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'reference.mjs')], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', STATES_TOKEN: statesToken }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve({ child, baseUrl: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`the reference exited with ${code}`)));
  });
}

/** A loopback proxy that counts requests and holds every response for `delayMs`. */
function delayingProxy(targetPort: number, delayMs: number): Promise<{ server: Server; port: number; requests: () => number }> {
  let count = 0;
  const server = createServer((incoming, outgoing) => {
    count++;
    const upstream = httpRequest({ host: '127.0.0.1', port: targetPort, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      setTimeout(() => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      }, delayMs);
    });
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, requests: () => count });
    }),
  );
}

const row = (label: string, seconds: number, requests: string, perSecond: string, peakMb: number, tests: number, exitCode: number) =>
  `${label.padStart(14)} ${seconds.toFixed(1).padStart(9)} s ${requests.padStart(9)} ${perSecond.padStart(8)} ${`${peakMb} MB`.padStart(10)} ${String(tests).padStart(6)} ${exitCode === 0 ? 'ok' : `exit ${exitCode}`}`;

const rows: string[] = [];
const statesToken = 'bench-states-token';
for (const delayMs of delays) {
  const reference = await referenceProcess(statesToken);
  const proxy = await delayingProxy(Number(new URL(reference.baseUrl).port), delayMs);
  const base = `http://127.0.0.1:${proxy.port}`;
  const peak = rssSampler();
  const started = performance.now();
  const result = await runSuite({
    config: loadConfig({ BASE_URL: base, STATES_URL: `${base}${STATES_PATH}`, STATES_TOKEN: statesToken }, {}, '/nonexistent/.env'),
    writeFiles: false,
    write: () => {},
  });
  const seconds = (performance.now() - started) / 1000;
  const requests = proxy.requests();
  rows.push(row(`remote ${delayMs} ms`, seconds, String(requests), (requests / seconds).toFixed(0), peak(), result.report.summary.total, result.exitCode));
  await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
  reference.child.kill();
}
{
  const peak = rssSampler();
  const started = performance.now();
  const result = await runSuite({ config: loadConfig({}, {}, '/nonexistent/.env'), writeFiles: false, write: () => {} });
  rows.push(row('embedded', (performance.now() - started) / 1000, '-', '-', peak(), result.report.summary.total, result.exitCode));
}
console.log('        target  wall time  requests    req/s   peak RSS  tests result');
for (const line of rows) console.log(line);
console.log('(peak RSS: resident memory of this process, the suite as `conformance run` runs it; budget 300 MB remote, 400 MB embedded)');
