import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configSchema } from '../helpers/net/config.js';

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `npm run bench`: the wall time, request count, requests per second and peak resident memory of
 * `conformance run` against the reference in its own process, then again with a delay added to every
 * response (as a remote staging target adds latency), and finally of an embedded run (the reference
 * in the run's process). Each row is a fresh `conformance run` process, as a user starts it; its peak
 * is getrusage's maxRSS at exit (bench/peak-rss.mjs), the workers' threads included.
 * Usage: npm run bench [-- DELAY_MS ...] [-- --repeat N] (default: 0 and 50, once each).
 */
/** The hook's path (docs/provider-states.md); not imported from reference/, which would load the reference here. */
const STATES_PATH = '/__provider-states';
const BUDGET_MB = { remote: 300, embedded: 400 };

const args = process.argv.slice(2);
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt >= 0 ? Math.max(1, Number(args.splice(repeatAt, 2)[1]) || 1) : 1;
const delays = args.map(Number).filter((n) => Number.isFinite(n) && n >= 0);
if (delays.length === 0) delays.push(0, 50);

/** The environment without the suite's configuration variables (.env.example). */
function withoutSuiteVariables(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !(name in configSchema.shape)));
}

/** One `conformance run` in a child process: its exit code, wall time and peak RSS in MB. */
async function conformanceRun(runArgs: string[], env: Record<string, string> = {}): Promise<{ exitCode: number; seconds: number; peakMb: number; tests: number | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
  const peakFile = join(dir, 'peak');
  try {
    const started = performance.now();
    const exitCode = await new Promise<number>((done) => {
      const child = spawn(process.execPath, ['--import', pathToFileURL(join(PACKAGE_ROOT, 'bench', 'peak-rss.mjs')).href, join(PACKAGE_ROOT, 'bin', 'conformance.mjs'), 'run', ...runArgs, '--report-dir', dir], {
        // Only what the row sets: neither the shell's suite variables nor a .env (the child starts in the temporary folder).
        cwd: dir,
        env: { ...withoutSuiteVariables(process.env), ...env, CONFORMANCE_BENCH_PEAK_FILE: peakFile },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('exit', (code) => done(code ?? 1));
    });
    const seconds = (performance.now() - started) / 1000;
    const reportFile = join(dir, 'report.json');
    const tests = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as { summary: { total: number } }).summary.total : undefined;
    return { exitCode, seconds, peakMb: existsSync(peakFile) ? Math.round(Number(readFileSync(peakFile, 'utf8')) / (1024 * 1024)) : Number.NaN, tests };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

/** One line of the table; a run over its memory budget, or one that failed, fails the benchmark. */
function row(label: string, run: Awaited<ReturnType<typeof conformanceRun>>, budgetMb: number, requests?: number): string {
  const overBudget = !(run.peakMb < budgetMb);
  if (overBudget || run.exitCode !== 0 || run.tests === undefined) process.exitCode = 1;
  const result = run.tests === undefined ? `no report.json (exit ${run.exitCode})` : run.exitCode !== 0 ? `exit ${run.exitCode}` : overBudget ? 'over budget' : 'ok';
  const perSecond = requests === undefined ? '-' : (requests / run.seconds).toFixed(0);
  return `${label.padStart(14)} ${run.seconds.toFixed(1).padStart(9)} s ${String(requests ?? '-').padStart(9)} ${perSecond.padStart(8)} ${`${run.peakMb} MB`.padStart(10)} ${`${budgetMb} MB`.padStart(8)} ${String(run.tests ?? '-').padStart(6)} ${result}`;
}

const rows: string[] = [];
const statesToken = 'bench-states-token';
for (let round = 0; round < repeat; round++) {
  for (const delayMs of delays) {
    const reference = await referenceProcess(statesToken);
    const proxy = await delayingProxy(Number(new URL(reference.baseUrl).port), delayMs);
    const base = `http://127.0.0.1:${proxy.port}`;
    const run = await conformanceRun(['--target', base, '--states', `${base}${STATES_PATH}`], { STATES_TOKEN: statesToken });
    const requests = proxy.requests();
    rows.push(row(`remote ${delayMs} ms`, run, BUDGET_MB.remote, requests));
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    reference.child.kill();
  }
  const run = await conformanceRun([]);
  rows.push(row('embedded', run, BUDGET_MB.embedded));
}
console.log('        target  wall time  requests    req/s   peak RSS   budget  tests result');
for (const line of rows) console.log(line);
console.log('(wall time and peak RSS of one `conformance run` process, its test workers included; the peak is getrusage\'s maxRSS, read as the process exits)');
