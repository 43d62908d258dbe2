import { accessSync, constants, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type ConfigInput } from '../helpers/net/config.js';
import { withoutCredentials } from '../helpers/net/redact.js';
import { buildReport } from '../reporting/build.js';
import type { Report, TestRecord } from '../reporting/model.js';
import { summaryLines } from '../reporting/terminal.js';
import { writeReports } from '../reporting/write.js';
import { judgeExchange, unjudgedReason, type SeenExchange } from './proxy-judge.js';
import { startProxy } from './proxy-server.js';
import { suiteVersion } from './version.js';

export const PROXY_OPTIONS = {
  target: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'report-dir': { type: 'string' },
  timeout: { type: 'string' },
  strict: { type: 'boolean' },
  ca: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Default port: next to the reference's 8080. */
export const DEFAULT_PROXY_PORT = 8090;

/**
 * Exchanges held for the report: passed ones up to this many (later ones are counted, not listed),
 * failed and unjudged ones up to as many again. With bodies each at most MAX_RESPONSE_BYTES.
 */
export const MAX_LISTED_EXCHANGES = 1000;

/** Bytes of bodies the listed exchanges may hold in all: past it, exchanges are counted, not listed. */
export const MAX_LISTED_BODY_BYTES = 64 * 1024 * 1024;

/** Distinct reasons an exchange was not judged (each path outside the interface is one): past it, they share one line. */
export const MAX_UNJUDGED_REASONS = 50;
const OTHER_UNJUDGED = 'other reasons (more distinct paths outside the interface, or failures, than the report lists one by one)';

/** What the traffic showed so far, bounded in memory. */
export class TrafficLedger {
  readonly records: TestRecord[] = [];
  private listedPassed = 0;
  private listedOther = 0;
  passedNotListed = 0;
  otherNotListed = 0;
  judged = 0;
  readonly unjudged = new Map<string, number>();

  constructor(
    private readonly target: string,
    private readonly strict: boolean,
  ) {}

  private listedBodyBytes = 0;
  private readonly kinds = new Set<string>();

  add(seen: SeenExchange): TestRecord | undefined {
    const reason = unjudgedReason(seen);
    if (reason) {
      // Each path outside the interface is a reason of its own: their number is bounded too.
      const key = this.unjudged.has(reason) || this.unjudged.size < MAX_UNJUDGED_REASONS ? reason : OTHER_UNJUDGED;
      this.unjudged.set(key, (this.unjudged.get(key) ?? 0) + 1);
      return undefined;
    }
    const record = judgeExchange(seen, this.target, this.strict)!;
    this.judged++;
    const bodyBytes = (seen.requestBody?.length ?? 0) + (seen.responseBody?.length ?? 0);
    const overBudget = this.listedBodyBytes + bodyBytes > MAX_LISTED_BODY_BYTES;
    // The first exchange of each endpoint, status and outcome is always listed, past every bound: the
    // coverage and the verdict are computed from the listed ones, so a pair exercised late, or a
    // nonconformance seen after many passes, is never lost (their number is bounded by the catalogue).
    const kind = `${record.endpoint} ${seen.status} ${record.outcome}`;
    if (!this.kinds.has(kind)) {
      this.kinds.add(kind);
      if (record.outcome === 'passed') this.listedPassed++;
      else this.listedOther++;
      this.listedBodyBytes += bodyBytes;
      this.records.push(record);
      return record;
    }
    if (record.outcome === 'passed') {
      if (this.listedPassed >= MAX_LISTED_EXCHANGES || overBudget) {
        this.passedNotListed++;
        return record;
      }
      this.listedPassed++;
    } else {
      if (this.listedOther >= MAX_LISTED_EXCHANGES || overBudget) {
        this.otherNotListed++;
        return record;
      }
      this.listedOther++;
    }
    this.listedBodyBytes += bodyBytes;
    this.records.push(record);
    return record;
  }

  get total(): number {
    return this.judged + [...this.unjudged.values()].reduce((n, c) => n + c, 0);
  }

  warnings(): string[] {
    const out = [`conformance proxy judged the answers of the traffic that passed through it, without requests of its own: the verdict is at best incomplete, and its report is never certified (certify the report of a whole \`conformance run\`)`];
    for (const [reason, count] of this.unjudged) out.push(`${count} exchange(s) passed through unjudged: ${reason}`);
    if (this.passedNotListed > 0) out.push(`${this.passedNotListed} more exchange(s) passed and are not listed (each endpoint and status they answered is, by an earlier exchange) (the report lists at most ${MAX_LISTED_EXCHANGES}, and bodies of at most ${MAX_LISTED_BODY_BYTES / 1024 / 1024} MB in all)`);
    if (this.otherNotListed > 0) out.push(`${this.otherNotListed} more failed or not judged exchange(s) are not listed (each endpoint, status and outcome of theirs is, by an earlier exchange) (the report lists at most ${MAX_LISTED_EXCHANGES}, and bodies of at most ${MAX_LISTED_BODY_BYTES / 1024 / 1024} MB in all)`);
    return out;
  }

  /** The report of what passed through; every documented pair no exchange answered is not verified, with that reason. */
  report(startedAt: Date, finishedAt: Date, strict: boolean): Report {
    const report = buildReport(this.records, {
      suiteVersion: suiteVersion(),
      target: { baseUrl: this.target, embedded: false, states: 'none' },
      startedAt,
      finishedAt,
      strict,
      warnings: this.warnings(),
      proxy: { target: this.target, exchanges: this.total, judged: this.judged, notJudged: this.total - this.judged },
    });
    for (const pair of report.coverage.pairs) if (pair.tests.length === 0) pair.reason = 'no exchange of the traffic was answered with it';
    for (const constraint of report.coverage.constraints) if (constraint.tests.length === 0 && constraint.outcome === 'not verified' && constraint.reason === 'no test expects it') constraint.reason = 'the proxy does not judge field limits (it cannot know what a request was meant to test)';
    return report;
  }
}

function wholeNumber(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new ConfigError(`configuration error: ${name} must be a whole number from ${min} to ${max} (got "${value}")`);
  return n;
}

/**
 * `conformance proxy --target URL [--port N] [--host H] [--report-dir DIR]`: a reverse proxy that
 * judges every answer passing through, and on Ctrl-C or SIGTERM writes the reports of a run.
 * Exit 0 nothing nonconformant was seen, 1 a nonconformance or security finding, 2 a usage error.
 */
export async function proxyCommand(argv: string[], write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<number> {
  const { values } = parseArgs({ args: argv, options: PROXY_OPTIONS });
  if (!values.target) throw new ConfigError('proxy: missing --target URL (the server to stand in front of, e.g. --target http://127.0.0.1:8080)');
  const overrides: ConfigInput = { BASE_URL: values.target };
  if (values['report-dir'] !== undefined) overrides.REPORT_DIR = values['report-dir'];
  if (values.timeout !== undefined) overrides.REQUEST_TIMEOUT_MS = values.timeout;
  if (values.strict) overrides.STRICT = 'true';
  if (values.ca !== undefined) overrides.CA_FILE = values.ca;
  const config = loadConfig(overrides);
  const port = wholeNumber(values.port, '--port', 0, 65535, DEFAULT_PROXY_PORT);
  const host = values.host ?? '127.0.0.1';
  const target = new URL(config.BASE_URL!);
  const shownTarget = withoutCredentials(config.BASE_URL!);
  const ledger = new TrafficLedger(shownTarget, config.STRICT);
  // The reports are written only when it stops, perhaps hours later: a folder it cannot write to is said now.
  const reportDir = resolve(config.REPORT_DIR);
  try {
    mkdirSync(reportDir, { recursive: true });
    accessSync(reportDir, constants.W_OK);
  } catch (error) {
    throw new ConfigError(`proxy: cannot write the reports into ${config.REPORT_DIR} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); choose another folder with --report-dir`);
  }
  const startedAt = new Date();
  let proxy;
  try {
    proxy = await startProxy({ target, host, port, maxBytes: config.MAX_RESPONSE_BYTES, timeoutMs: config.REQUEST_TIMEOUT_MS, ...(config.CA_FILE ? { ca: readFileSync(resolve(config.CA_FILE), 'utf8') } : {}), onExchange: (seen) => {
      const record = ledger.add(seen);
      if (record && record.outcome === 'failed') write(`  x ${record.name}: ${record.reason}`);
    } });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`proxy: cannot listen on ${host}:${port} (${code === 'EADDRINUSE' ? 'the port is in use; choose another with --port' : code === 'EADDRNOTAVAIL' ? 'no such address on this machine; check --host' : (error as Error).message})`);
  }
  write(`Judging the traffic to ${shownTarget}; Ctrl-C (or SIGTERM) stops and writes the reports into ${config.REPORT_DIR}`);
  write(`listening on ${proxy.url}`);

  const signal = await new Promise<NodeJS.Signals>((done) => {
    const stop = (name: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      // A second signal exits at once.
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      done(name);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await proxy.close();
  const report = ledger.report(startedAt, new Date(), config.STRICT);
  const files = writeReports(report, reportDir);
  write(`Stopped (${signal}) after ${ledger.total} exchange(s), ${ledger.judged} judged`);
  // One note said once, not once per exchange (each exchange's own note is in the reports).
  const said = new Set<string>();
  for (const line of summaryLines(report, files)) {
    if (line.startsWith('note: ') && said.has(line)) continue;
    said.add(line);
    write(line);
  }
  return report.verdict === 'nonconformant' ? 1 : 0;
}
