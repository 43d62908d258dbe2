import { parseArgs } from 'node:util';
import { ConfigError, FLAG_TO_VARIABLE, loadConfig, type ConfigInput } from '../helpers/config.js';
import { mutantByName } from '../reference/mutants/index.js';
import { runSuite } from './run.js';

const USAGE = `usage: conformance <command> [options]

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

exit codes: 0 every test passed (skips listed), 1 a nonconformance, 2 configuration error or target unreachable`;

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
  const result = await runSuite({ config, ...(values.group ? { groups: values.group } : {}), ...(mutation ? { mutation } : {}) });
  return result.exitCode;
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'run':
      return run(rest);
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

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`${(error as Error).message}; see \`conformance help\``);
  else console.error(`conformance: ${(error as Error).message ?? String(error)}`);
  process.exitCode = 2;
}
