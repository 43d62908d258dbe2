import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { configSchema } from '../helpers/net/config.js';
import { PACKAGE_ROOT } from '../helpers/spec/package-root.js';
import { splitOf, type Exchange, type Split } from './timeline.js';

/**
 * `npm run bench`: the wall time, request count, requests per second and peak resident memory of
 * `conformance run` against the reference in its own process, then again with a delay added to every
 * response (as a remote staging target adds latency), and finally of an embedded run (the reference
 * in the run's process). Each row is a fresh `conformance run` process, as a user starts it; its peak
 * is getrusage's maxRSS at exit (bench/peak-rss.mjs), the workers' threads included.
 * Then the split of each remote run's wall time (bench/timeline.ts), and start-up: a bare `node -e 0`,
 * `conformance --version` and the start of a run (up to its first test request), each as a ratio to
 * the bare Node measured in the same bench run.
 * Usage: npm run bench [-- DELAY_MS ...] [-- --repeat N] [-- --node PATH] (default: 0 and 50, once each;
 * --node: another Node.js binary for the measured processes, the reference staying on this one's).
 */
/** The hook's path (docs/provider-states.md); not imported from reference/, which would load the reference here. */
const STATES_PATH = '/__provider-states';
const BUDGET_MB = { remote: 300, embedded: 400 };

const args = process.argv.slice(2);
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt >= 0 ? Math.max(1, Number(args.splice(repeatAt, 2)[1]) || 1) : 1;
const nodeAt = args.indexOf('--node');
const node = nodeAt >= 0 ? args.splice(nodeAt, 2)[1]! : process.execPath;
const delays = args.map(Number).filter((n) => Number.isFinite(n) && n >= 0);
if (delays.length === 0) delays.push(0, 50);

/** The environment without the suite's configuration variables (.env.example). */
function withoutSuiteVariables(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !(name in configSchema.shape)));
}

/** One `conformance run` in a child process: its exit code, wall time and peak RSS in MB. */
async function conformanceRun(runArgs: string[], env: Record<string, string> = {}): Promise<{ exitCode: number; seconds: number; peakMb: number; tests: number | undefined; spawnedAt: number; exitedAt: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
  const peakFile = join(dir, 'peak');
  try {
    const started = performance.now();
    const exitCode = await new Promise<number>((done) => {
      const child = spawn(node, ['--import', pathToFileURL(join(PACKAGE_ROOT, 'bench', 'peak-rss.mjs')).href, join(PACKAGE_ROOT, 'bin', 'conformance.mjs'), 'run', ...runArgs, '--report-dir', dir], {
        // Only what the row sets: neither the shell's suite variables nor a .env (the child starts in the temporary folder).
        cwd: dir,
        env: { ...withoutSuiteVariables(process.env), ...env, CONFORMANCE_BENCH_PEAK_FILE: peakFile },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('exit', (code) => done(code ?? 1));
    });
    const exitedAt = performance.now();
    const seconds = (exitedAt - started) / 1000;
    const reportFile = join(dir, 'report.json');
    const report = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as { summary: { total: number }; tests: { name: string; outcome: string; reason: string | null }[] }) : undefined;
    const tests = report?.summary.total;
    // A failed run says why (a benchmark that only says "exit 1" cannot be judged).
    if (exitCode !== 0) for (const test of report?.tests.filter((t) => t.outcome === 'failed') ?? []) console.error(`failed: ${test.name}: ${test.reason}`);
    return { exitCode, seconds, spawnedAt: started, exitedAt, peakMb: existsSync(peakFile) ? Math.round(Number(readFileSync(peakFile, 'utf8')) / (1024 * 1024)) : Number.NaN, tests };
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

/** A loopback proxy that records every exchange (its timeline) and holds every response for `delayMs`. */
function delayingProxy(targetPort: number, delayMs: number): Promise<{ server: Server; port: number; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const server = createServer((incoming, outgoing) => {
    const exchange: Exchange = { path: incoming.url ?? '', start: performance.now(), end: Number.NaN, bytesIn: 0 };
    exchanges.push(exchange);
    incoming.on('data', (chunk: Buffer) => (exchange.bytesIn += chunk.length));
    outgoing.on('close', () => (exchange.end = performance.now()));
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
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, exchanges });
    }),
  );
}

/** The median wall time (s) of `times` runs of a command that must exit 0. */
async function medianSeconds(args: string[], times = 5): Promise<number> {
  const seconds: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const code = await new Promise<number>((done) => spawn(node, args, { stdio: 'ignore', env: withoutSuiteVariables(process.env) }).on('exit', (exit) => done(exit ?? 1)));
    if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}`);
    seconds.push((performance.now() - started) / 1000);
  }
  return seconds.sort((a, b) => a - b)[Math.floor(times / 2)]!;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One line of the table; a run over its memory budget, or one that failed, fails the benchmark. */
function row(label: string, run: Awaited<ReturnType<typeof conformanceRun>>, budgetMb: number, requests?: number): string {
  const overBudget = !(run.peakMb < budgetMb);
  if (overBudget || run.exitCode !== 0 || run.tests === undefined) process.exitCode = 1;
  const result = run.tests === undefined ? `no report.json (exit ${run.exitCode})` : run.exitCode !== 0 ? `exit ${run.exitCode}` : overBudget ? 'over budget' : 'ok';
  const perSecond = requests === undefined ? '-' : (requests / run.seconds).toFixed(0);
  return `${label.padStart(14)} ${run.seconds.toFixed(1).padStart(9)} s ${String(requests ?? '-').padStart(9)} ${perSecond.padStart(8)} ${`${run.peakMb} MB`.padStart(10)} ${`${budgetMb} MB`.padStart(8)} ${String(run.tests ?? '-').padStart(6)} ${result}`;
}

const rows: string[] = [];
const splits: { label: string; split: Split }[] = [];
const statesToken = 'bench-states-token';
for (let round = 0; round < repeat; round++) {
  for (const delayMs of delays) {
    const reference = await referenceProcess(statesToken);
    const proxy = await delayingProxy(Number(new URL(reference.baseUrl).port), delayMs);
    const base = `http://127.0.0.1:${proxy.port}`;
    const run = await conformanceRun(['--target', base, '--states', `${base}${STATES_PATH}`], { STATES_TOKEN: statesToken });
    const requests = proxy.exchanges.length;
    rows.push(row(`remote ${delayMs} ms`, run, BUDGET_MB.remote, requests));
    const split = splitOf(run.spawnedAt, run.exitedAt, proxy.exchanges, STATES_PATH);
    if (split) splits.push({ label: `remote ${delayMs} ms`, split });
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    reference.child.kill();
  }
  const run = await conformanceRun([]);
  rows.push(row('embedded', run, BUDGET_MB.embedded));
}
console.log('        target  wall time  requests    req/s   peak RSS   budget  tests result');
for (const line of rows) console.log(line);
console.log('(wall time and peak RSS of one `conformance run` process, its test workers included; the peak is getrusage\'s maxRSS, read as the process exits)');

const s = (seconds: number) => `${seconds.toFixed(2)} s`.padStart(9);
console.log('\nwhere the wall time of a remote run goes');
console.log('        target   start-up worker boot     tests  (no request in flight, uploads in flight)  wrap-up');
for (const { label, split } of splits) {
  console.log(`${label.padStart(14)} ${s(split.startUp)} ${s(split.workerBoot).padStart(11)} ${s(split.tests)}  (${s(split.idle)}, ${s(split.uploads)})${' '.repeat(20)}${s(split.wrapUp)}`);
}
console.log('(start-up: spawn to the end of the preflight; worker boot: to the first test request; tests: to the last answer; wrap-up: to the exit)');

const bare = await medianSeconds(['-e', '0']);
const version = await medianSeconds([join(PACKAGE_ROOT, 'bin', 'conformance.mjs'), '--version']);
const runStart = splits.length > 0 ? median(splits.map(({ split }) => split.startUp + split.workerBoot)) : Number.NaN;
const VERSION_GOAL = 4;
if (!(version / bare < VERSION_GOAL)) process.exitCode = 1;
console.log('\nstart-up                        wall time  x bare node');
console.log(`node -e 0 (median of 5)         ${s(bare)}  ${'1.0'.padStart(11)}`);
console.log(`conformance --version (median)  ${s(version)}  ${(version / bare).toFixed(1).padStart(11)}  goal under ${VERSION_GOAL}x`);
console.log(`run start, to its first test    ${s(runStart)}  ${(runStart / bare).toFixed(1).padStart(11)}  (median of the remote runs)`);
