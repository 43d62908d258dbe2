import { createServer, request as httpRequest, type Server } from 'node:http';
import { runSuite } from '../cli/run.js';
import { loadConfig } from '../helpers/config.js';
import { startReference, STATES_PATH } from '../reference/app.js';

/**
 * `npm run bench`: the suite's wall time, request count and requests per second against the
 * embedded reference, then again with a delay added to every response (as a remote staging
 * target adds latency). Usage: npm run bench [-- DELAY_MS ...] (default: 0 and 50).
 */
const delays = process.argv.slice(2).map(Number).filter((n) => Number.isFinite(n) && n >= 0);
if (delays.length === 0) delays.push(0, 50);

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

const rows: string[] = [];
for (const delayMs of delays) {
  const statesToken = 'bench-states-token';
  const reference = await startReference({ states: true, statesToken });
  const port = Number(new URL(reference.baseUrl).port);
  const proxy = await delayingProxy(port, delayMs);
  const base = `http://127.0.0.1:${proxy.port}`;
  const started = performance.now();
  const log: string[] = [];
  const result = await runSuite({
    config: loadConfig({ BASE_URL: base, STATES_URL: `${base}${STATES_PATH}`, STATES_TOKEN: statesToken }, {}, '/nonexistent/.env'),
    writeFiles: false,
    write: (line) => log.push(line),
  });
  const seconds = (performance.now() - started) / 1000;
  const requests = proxy.requests();
  rows.push(`${String(delayMs).padStart(8)} ms ${seconds.toFixed(1).padStart(9)} s ${String(requests).padStart(9)} ${(requests / seconds).toFixed(0).padStart(8)} ${String(result.report.summary.total).padStart(6)} ${result.exitCode === 0 ? 'ok' : `exit ${result.exitCode}`}`);
  await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
  await reference.close();
}
console.log('   delay      wall time  requests    req/s  tests result');
for (const row of rows) console.log(row);
