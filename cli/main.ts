import { parseArgs } from 'node:util';
import { escapeControls } from '../helpers/spec/quote.js';
import { GROUPS } from '../helpers/spec/catalogue.js';
import { RUN_HELP, RUN_OPTIONS } from './options.js';
import { suiteVersion } from '../helpers/spec/version.js';
import { SELECTION_OPTIONS, selectionOf } from './selection.js';
import { ConfigError, FLAG_TO_VARIABLE, loadConfig, type ConfigInput } from '../helpers/net/config.js';
import { certifyCommand, diffCommand, renderCommand, UsageError, verifyCommand } from '../reporting/commands.js';

const USAGE = `usage: conformance <command> [options]
       conformance --version

commands:
  run       run the suite (its options: conformance run --help)
  explore   explore [--seed N] [--runs N] [every option of run]
            property-based exploration of every body, path and query field of sections 4 and 8:
            generated values inside each rule must be accepted, outside it refused with 422 keyed by
            the field and not stored; ambiguous counting is an advisory. Prints the seed (also in
            report.json); the same seed replays the same inputs. --runs: inputs per property (default 100).
            Same reports and exit codes as run; each failure shows its shrunk counterexample and a curl.
            Takes run's selections: explore --endpoint 'POST /api/v1/user/{user}/bank' --seed 1234
  list      list [--json] [--grep P] [--clause N] [--endpoint 'M /path'] [--id ID] [--group G] [--brute-force]
            the manifest of the suite's tests, without running any: per test its id, name, group, endpoint,
            clauses, expected status, constraint, rules (JSON) and the provider states it asks for (one line
            each, or JSON);
            the selection flags are those of run and explore, e.g. conformance list --clause 4.10 --json
  proxy     proxy --target URL [--port N] [--host H] [--report-dir DIR] [--strict] [--timeout MS] [--ca FILE]
            a validating reverse proxy: forwards any client's traffic to URL unchanged and judges each answer
            of the interface (the JSON Schema of its documented endpoint x status, section 7's error formats,
            Content-Type, credentials in answers; undocumented statuses are advisories; whether a 422 was
            deserved it does not guess). Listens on 127.0.0.1 (--host), port 8090 (--port; 0 any free one),
            prints "listening on <url>"; on Ctrl-C or SIGTERM (or when its launcher ends: npx does not pass
            SIGTERM on) writes report.json, junit.xml, summary.md and
            report.html (verdict at best incomplete; exit 1 when it saw a nonconformance), e.g.
            conformance proxy --target https://staging.example.com --port 9000 & BASE_URL=http://127.0.0.1:9000 npm test
  diff      diff BASE.json HEAD.json [--out DIR]
            what changed between two runs (Markdown on stdout and DIR/diff.md, JSON in DIR/diff.json;
            DIR defaults to HEAD's folder); exit 1 when something regressed (a newly failing test,
            coverage lost, new shape drift), 0 otherwise, 2 unreadable input
  certify   certify --report FILE --key PRIVATE_KEY_PEM [--out FILE]
            signs the report's sha256, verdict, rule coverage, target, suite and spec versions and date as
            a compact JWS (RS256, ES256 or EdDSA by key type); default FILE: report.certificate.jws next to
            the report, and the implementation declared with run --implementation (marked as declared by the
            operator). The certified verdict is never conformant while an observable rule is not verified,
            rules no test of the suite version checks included: such a report is certified incomplete.
            A report whose own records contradict its verdict (an edited report) is refused: exit 1, one line
  verify    verify --certificate FILE --key PUBLIC_KEY_PEM --report FILE
            exit 0 the certificate holds for this report (its signature, digest and every claim), 1 it does not
            (says which file), 2 usage error
  states    states template [--minimum] [--runs N]
            prints a JSON skeleton of a static provider-states file (STATES_FILE) for a full run, each
            account with how to prepare it by hand; --runs N: the accounts that serve once, for N runs
            states export --target URL --states HOOK [--states-token T] --out FILE [--minimum] [--runs N]
                          [--header 'Name: value' (repeatable)] [--ca FILE]
            fills that skeleton from a hook; writes the platforms' keys next to FILE (owner-only); takes the
            road as run does: --header / EXTRA_HEADERS and --ca / CA_FILE (environment or .env) and the
            proxy variables, on every request to hook and target
  openapi   openapi [--out FILE]
            the interface as an OpenAPI 3.1 document (JSON), generated from the suite's catalogue and schemas
  render    render --report FILE [--out DIR]
            writes junit.xml, summary.md and report.html again from a report.json
  help      help [COMMAND]; every command also takes --help; conformance --version prints the version

exit codes: 0 success, 1 a nonconformance / regression / certificate that does not hold / report certify refuses,
2 usage or configuration error, 130 interrupted`;

/** Per-command help: the lines of USAGE that describe it. */
function commandHelp(command: string): string | undefined {
  if (command === 'run') return RUN_HELP;
  const block = USAGE.split('\n\n')[1]!.split('\n').slice(1);
  const start = block.findIndex((line) => line.startsWith(`  ${command} `));
  if (start < 0) return undefined;
  const end = block.findIndex((line, i) => i > start && /^  \S/.test(line));
  return `usage: conformance ${block.slice(start, end < 0 ? undefined : end).join('\n').trim().replace(/^\w+\s+/, '')}`;
}

class HelpShown extends Error {}

/** Wrong or missing arguments: the message, then the command's usage. */
class ArgumentError extends UsageError {}

/** `--help` anywhere in a command's arguments prints its help on stdout. */
function helpRequested(command: string, argv: string[]): void {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(commandHelp(command));
    throw new HelpShown();
  }
}

async function run(argv: string[]): Promise<number> {
  helpRequested('run', argv);
  const { values } = parseArgs({ args: argv, options: { ...RUN_OPTIONS, ...SELECTION_OPTIONS, failed: { type: 'boolean' } } });
  const { config, mutation } = await runConfig('run', values);
  const chosen = selectionOf('run', values, values.failed ? { reportDir: config.REPORT_DIR } : undefined);
  const groups = chosen?.groups ?? values.group;
  // Read before anything starts: an entry naming nothing stops the run with exit 2. Its names are checked
  // against the suite (seconds of CPU) while the reference starts and the preflight waits on the road.
  let expectations;
  if (config.EXPECTED_FAILURES) {
    const { readExpectations, checkNamesAgainstSuite } = await import('./expected-failures.js');
    const loaded = readExpectations(config.EXPECTED_FAILURES);
    const namesChecked = checkNamesAgainstSuite(loaded);
    namesChecked.catch(() => undefined);
    expectations = { ...loaded, namesChecked };
  }
  // Loaded on demand: vitest and the reference take seconds to load, which the report commands do not need.
  const { runSuite } = await import('./run.js');
  const result = await runSuite({ config, ...(groups ? { groups } : {}), ...(mutation ? { mutation, mutantName: values.mutant } : {}), ...(chosen ? { selection: chosen } : {}), ...(expectations ? { expectations } : {}) });
  return result.exitCode;
}

async function explore(argv: string[]): Promise<number> {
  helpRequested('explore', argv);
  const { EXPLORE_OPTIONS, exploreSuite } = await import('./explore.js');
  const { values } = parseArgs({ args: argv, options: { ...RUN_OPTIONS, ...EXPLORE_OPTIONS, ...SELECTION_OPTIONS } });
  const { config, mutation } = await runConfig('explore', values);
  const chosen = selectionOf('explore', values);
  const groups = chosen?.groups ?? values.group;
  const result = await exploreSuite({ config, ...(groups ? { groups } : {}), ...(mutation ? { mutation } : {}), ...(chosen ? { selection: chosen } : {}), seed: values.seed, runs: values.runs });
  return result.exitCode;
}

/** The configuration (flags over environment over .env) and the mutant that `run`'s options select; unknown groups stop here, before any request. */
async function runConfig(command: string, values: { group?: string[]; mutant?: string } & Record<string, unknown>) {
  const unknownGroupsIn = (groups: string[] | undefined) => {
    const unknownGroups = (groups ?? []).filter((group) => !(GROUPS as readonly string[]).includes(group));
    if (unknownGroups.length > 0) throw new UsageError(`${command}: no group named ${unknownGroups.map((g) => `"${g}"`).join(', ')}; the groups are ${GROUPS.join(', ')}`);
  };
  unknownGroupsIn(values.group);
  const overrides: ConfigInput = {};
  for (const [flag, variable] of Object.entries(FLAG_TO_VARIABLE)) {
    const value = values[flag.slice(2)];
    if (value !== undefined) overrides[variable] = Array.isArray(value) ? value.join('\n') : String(value);
  }
  const config = loadConfig(overrides);
  // --group wins over GROUP (comma- or space-separated), as every flag wins over its variable.
  if (values.group === undefined && config.GROUP) {
    values.group = config.GROUP.split(/[\s,]+/).filter(Boolean);
    unknownGroupsIn(values.group);
  }
  let mutation;
  if (values.mutant !== undefined) {
    if (config.BASE_URL) throw new ConfigError('configuration error: --mutant applies to the embedded reference only; unset BASE_URL');
    // Loaded only for --mutant: every mutant of the reference, about 0.1 s of every other run's start.
    const { mutantByName } = await import('../reference/mutants/index.js');
    const mutant = mutantByName(values.mutant);
    if (!mutant) throw new ConfigError(`configuration error: no mutant named "${values.mutant}" (see reference/mutants/)`);
    mutation = mutant.mutation;
  }
  return { config, mutation };
}

function required(values: Record<string, unknown>, names: string[], command: string): void {
  const missing = names.filter((name) => typeof values[name] !== 'string' || values[name] === '');
  if (missing.length > 0) throw new ArgumentError(`${command}: missing ${missing.map((m) => `--${m}`).join(', ')}; see \`conformance ${command} --help\``);
}

async function diff(argv: string[]): Promise<number> {
  helpRequested('diff', argv);
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { out: { type: 'string' } } });
  if (positionals.length !== 2) throw new ArgumentError('diff: give two reports, BASE.json HEAD.json (for example reports/report.previous.json reports/report.json)');
  return diffCommand(positionals[0]!, positionals[1]!, values.out);
}

async function certify(argv: string[]): Promise<number> {
  helpRequested('certify', argv);
  const { values } = parseArgs({ args: argv, options: { report: { type: 'string' }, key: { type: 'string' }, out: { type: 'string' } } });
  required(values, ['report', 'key'], 'certify');
  return certifyCommand(values.report!, values.key!, values.out);
}

async function verify(argv: string[]): Promise<number> {
  helpRequested('verify', argv);
  const { values } = parseArgs({ args: argv, options: { certificate: { type: 'string' }, key: { type: 'string' }, report: { type: 'string' } } });
  required(values, ['certificate', 'key', 'report'], 'verify');
  return verifyCommand(values.certificate!, values.key!, values.report!);
}

async function render(argv: string[]): Promise<number> {
  helpRequested('render', argv);
  const { values } = parseArgs({ args: argv, options: { report: { type: 'string' }, out: { type: 'string' } } });
  required(values, ['report'], 'render');
  return renderCommand(values.report!, values.out);
}

async function list(argv: string[]): Promise<number> {
  helpRequested('list', argv);
  const { values } = parseArgs({ args: argv, options: { ...SELECTION_OPTIONS, json: { type: 'boolean' }, group: { type: 'string', multiple: true }, 'brute-force': { type: 'boolean' } } });
  const unknownGroups = (values.group ?? []).filter((group) => !(GROUPS as readonly string[]).includes(group));
  if (unknownGroups.length > 0) throw new UsageError(`list: no group named ${unknownGroups.map((g) => `"${g}"`).join(', ')}; the groups are ${GROUPS.join(', ')}`);
  const chosen = selectionOf('list', values);
  const groups = chosen?.groups ?? values.group;
  const { manifest, manifestLines } = await import('./list.js');
  const entries = await manifest({ ...(chosen ? { selection: chosen.selection } : {}), ...(groups ? { groups } : {}), ...(values['brute-force'] ? { bruteForce: true } : {}) });
  if (values.json) console.log(JSON.stringify(entries, null, 2));
  else for (const line of manifestLines(entries)) console.log(line);
  return 0;
}

async function openapi(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } } });
  const { openApiCommand } = await import('./openapi.js');
  return openApiCommand(suiteVersion(), values.out);
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'run':
      return run(rest);
    case 'explore':
      return explore(rest);
    case 'diff':
      return diff(rest);
    case 'certify':
      return certify(rest);
    case 'verify':
      return verify(rest);
    case 'render':
      return render(rest);
    case 'states':
      helpRequested('states', rest);
      return (await import('./states.js')).statesCommand(rest);
    case 'openapi':
      return openapi(rest);
    case 'list':
      return list(rest);
    case 'proxy':
      helpRequested('proxy', rest);
      return (await import('./proxy.js')).proxyCommand(rest);
    case '--version':
    case '-v':
    case 'version':
      console.log(suiteVersion());
      return 0;
    case 'help':
    case '--help':
    case '-h': {
      const topic = rest[0] === undefined ? USAGE : commandHelp(rest[0]);
      if (topic === undefined) {
        console.error(`unknown command "${rest[0]}"\n${USAGE}`);
        return 2;
      }
      console.log(topic);
      return 0;
    }
    case undefined:
      console.error(USAGE);
      return 2;
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
  if (error instanceof HelpShown) process.exitCode = 0;
  else if ((error as Error).name === 'InterruptedBeforeTests') console.error(escapeControls((error as Error).message));
  // The exit-2 line may quote the target (a Location, a hook's answer): one line, controls as visible escapes (issue 29).
  else if (error instanceof ConfigError || (error instanceof UsageError && !(error instanceof ArgumentError))) console.error(escapeControls(error.message));
  else if (error instanceof ArgumentError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    // A usage error: the one line, then the command's usage, both on stderr.
    console.error(`${escapeControls((error as Error).message)}\n\n${commandHelp(process.argv[2] ?? '') ?? USAGE}`);
  }
  else console.error(`conformance: ${escapeControls((error as Error).message ?? String(error))}`);
  process.exitCode = error instanceof HelpShown ? 0 : (error as Error).name === 'InterruptedBeforeTests' ? 130 : 2;
}
