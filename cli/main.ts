import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, FLAG_TO_VARIABLE, loadConfig, type ConfigInput } from '../helpers/config.js';
import { mutantByName } from '../reference/mutants/index.js';
import { certifyCommand, diffCommand, renderCommand, UsageError, verifyCommand } from '../reporting/commands.js';

const USAGE = `usage: conformance <command> [options]
       conformance --version

commands:
  run       run the suite (against BASE_URL, or the embedded reference when it is unset)
            --target URL        the target's base URL (BASE_URL)
            --states URL        the provider-state hook (STATES_URL)
            --states-token T    the hook's bearer token (STATES_TOKEN)
            --states-file FILE  static provider states (STATES_FILE)
            --report-dir DIR    where reports go (REPORT_DIR, default reports/)
            --timeout MS        per-request timeout (REQUEST_TIMEOUT_MS)
            --concurrency N     requests in flight per worker (MAX_CONCURRENCY)
            --strict            advisories count as failures (STRICT)
            --group NAME        only this endpoint group (repeatable)
            --mutant NAME       run against a mutant of the embedded reference (see reference/mutants/)
            writes report.json, junit.xml, summary.md and report.html (in GitHub Actions also
            ::error annotations and the job summary); keeps the last report.json as report.previous.json
            exit 0 every test passed (skips listed), 1 a nonconformance, 2 configuration error or target unreachable
  diff      diff BASE.json HEAD.json [--out DIR]
            what changed between two runs (Markdown on stdout and DIR/diff.md, JSON in DIR/diff.json;
            DIR defaults to HEAD's folder); exit 1 when something regressed (a newly failing test,
            coverage lost, new shape drift), 0 otherwise, 2 unreadable input
  certify   certify --report FILE --key PRIVATE_KEY_PEM [--out FILE]
            signs the report's sha256, verdict, target, suite and spec versions and date as a compact JWS
            (RS256, ES256 or EdDSA by key type); default FILE: report.certificate.jws next to the report
  verify    verify --certificate FILE --key PUBLIC_KEY_PEM --report FILE
            exit 0 the certificate holds for this report, 1 it does not (says which file), 2 usage error
  openapi   openapi [--out FILE]
            the interface as an OpenAPI 3.1 document (JSON), generated from the suite's catalogue and schemas
  render    render --report FILE [--out DIR]
            writes junit.xml, summary.md and report.html again from a report.json

exit codes: 0 success, 1 a nonconformance / regression / certificate that does not hold, 2 usage or configuration error`;

async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: 'string' },
      states: { type: 'string' },
      'states-token': { type: 'string' },
      'states-file': { type: 'string' },
      'report-dir': { type: 'string' },
      timeout: { type: 'string' },
      concurrency: { type: 'string' },
      strict: { type: 'boolean' },
      group: { type: 'string', multiple: true },
      mutant: { type: 'string' },
    },
  });
  const overrides: ConfigInput = {};
  for (const [flag, variable] of Object.entries(FLAG_TO_VARIABLE)) {
    const value = values[flag.slice(2) as keyof typeof values];
    if (value !== undefined) overrides[variable] = String(value);
  }
  const config = loadConfig(overrides);
  let mutation;
  if (values.mutant !== undefined) {
    if (config.BASE_URL) throw new ConfigError('configuration error: --mutant applies to the embedded reference only; unset BASE_URL');
    const mutant = mutantByName(values.mutant);
    if (!mutant) throw new ConfigError(`configuration error: no mutant named "${values.mutant}" (see reference/mutants/)`);
    mutation = mutant.mutation;
  }
  // Loaded on demand: vitest and the reference take seconds to load, which the report commands do not need.
  const { runSuite } = await import('./run.js');
  const result = await runSuite({ config, ...(values.group ? { groups: values.group } : {}), ...(mutation ? { mutation } : {}) });
  return result.exitCode;
}

function required(values: Record<string, unknown>, names: string[], command: string): void {
  const missing = names.filter((name) => typeof values[name] !== 'string' || values[name] === '');
  if (missing.length > 0) throw new UsageError(`${command}: missing ${missing.map((m) => `--${m}`).join(', ')}; see \`conformance help\``);
}

async function diff(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { out: { type: 'string' } } });
  if (positionals.length !== 2) throw new UsageError('diff: give two reports, BASE.json HEAD.json (for example reports/report.previous.json reports/report.json)');
  return diffCommand(positionals[0]!, positionals[1]!, values.out);
}

async function certify(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { report: { type: 'string' }, key: { type: 'string' }, out: { type: 'string' } } });
  required(values, ['report', 'key'], 'certify');
  return certifyCommand(values.report!, values.key!, values.out);
}

async function verify(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { certificate: { type: 'string' }, key: { type: 'string' }, report: { type: 'string' } } });
  required(values, ['certificate', 'key', 'report'], 'verify');
  return verifyCommand(values.certificate!, values.key!, values.report!);
}

async function render(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { report: { type: 'string' }, out: { type: 'string' } } });
  required(values, ['report'], 'render');
  return renderCommand(values.report!, values.out);
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

async function openapi(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } } });
  const { openApiCommand } = await import('./openapi.js');
  return openApiCommand(packageVersion(), values.out);
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'run':
      return run(rest);
    case 'diff':
      return diff(rest);
    case 'certify':
      return certify(rest);
    case 'verify':
      return verify(rest);
    case 'render':
      return render(rest);
    case 'openapi':
      return openapi(rest);
    case '--version':
    case '-v':
    case 'version':
      console.log(packageVersion());
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      console.error(`unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

// `conformance diff ... | head`: a closed pipe ends the output, not the command (files and exit code stay right).
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof ConfigError || error instanceof UsageError) console.error(error.message);
  else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`${(error as Error).message}; see \`conformance help\``);
  else console.error(`conformance: ${(error as Error).message ?? String(error)}`);
  process.exitCode = 2;
}
