import { accessSync, constants, mkdirSync } from 'node:fs';
import { escapeControls } from '../helpers/spec/quote.js';
import { MAX_CONFIG_FILE_BYTES, readBounded, TooLargeError } from '../helpers/spec/bounded.js';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type ConfigInput } from '../helpers/net/config.js';
import { withoutCredentials } from '../helpers/net/redact.js';
import { TrafficLedger } from '../proxy/ledger.js';
import { startProxy } from '../proxy/server.js';
import { summaryLines } from '../reporting/terminal.js';
import { writeReports } from '../reporting/write.js';

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
// Every line as data (issue 29): a judged answer's text may be quoted in it.
export async function proxyCommand(argv: string[], write: (line: string) => void = (line) => process.stdout.write(`${escapeControls(line)}\n`)): Promise<number> {
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
  // Read before the listening socket, so a CA file over the limit is named as such (issue 29), not as a port problem.
  let ca: string | undefined;
  try {
    ca = config.CA_FILE ? readBounded(resolve(config.CA_FILE), MAX_CONFIG_FILE_BYTES, 'CA file').toString('utf8') : undefined;
  } catch (error) {
    throw new ConfigError(`proxy: CA_FILE: ${error instanceof TooLargeError ? error.message : `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`}`);
  }
  let proxy;
  try {
    proxy = await startProxy({ target, host, port, maxBytes: config.MAX_RESPONSE_BYTES, timeoutMs: config.REQUEST_TIMEOUT_MS, ...(ca !== undefined ? { ca } : {}), onExchange: (seen) => {
      const record = ledger.add(seen);
      if (record && record.outcome === 'failed') write(`  x ${record.name}: ${record.reason}`);
    } });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`proxy: cannot listen on ${host}:${port} (${code === 'EADDRINUSE' ? 'the port is in use; choose another with --port' : code === 'EADDRNOTAVAIL' ? 'no such address on this machine; check --host' : (error as Error).message})`);
  }
  write(`Judging the traffic to ${shownTarget}; Ctrl-C (or SIGTERM) stops and writes the reports into ${config.REPORT_DIR}`);
  write(`listening on ${proxy.url}`);

  const signal = await new Promise<NodeJS.Signals | 'its parent ended'>((done) => {
    // Started by a launcher that does not pass SIGTERM on (npx, npm exec, some CI runners): when the
    // launcher ends, this process is handed to another parent; the proxy stops as on SIGTERM.
    const parent = process.ppid;
    const orphaned = setInterval(() => {
      if (process.ppid !== parent) stop('its parent ended');
    }, 250);
    const stop = (name: NodeJS.Signals | 'its parent ended') => {
      clearInterval(orphaned);
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
