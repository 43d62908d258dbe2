import { parseArgs } from 'node:util';
import { ConfigError, loadRoad, roadOf } from '../helpers/net/config.js';
import { escapeControls } from '../helpers/spec/quote.js';
import { exportStates } from '../helpers/states/export.js';
import { template } from '../helpers/states/template.js';

/**
 * `conformance states template` and `conformance states export`: a static provider-states file
 * (schemas/states-file.json) for a run without a hook, as a skeleton (helpers/states/template.ts) or
 * filled from a hook (helpers/states/export.ts).
 */

const USAGE = `usage: conformance states template [--minimum] [--runs N]
       conformance states export --target URL --states HOOK [--states-token T] --out FILE [--minimum] [--runs N] [--header 'Name: value']... [--ca FILE]`;

/** --runs N: the accounts that serve once (disposable, brute-force) for N runs; 1 to 100. */
function runsOf(value: string | undefined): number {
  if (value === undefined) return 1;
  const runs = Number(value);
  if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new ConfigError(`states: --runs must be a whole number from 1 to 100 (got "${value.slice(0, 20)}"): the runs the file's accounts that serve once are for`);
  return runs;
}

/** `conformance states <template|export> ...` */
export async function statesCommand(argv: string[], write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'template') {
    const { values } = parseArgs({ args: rest, options: { minimum: { type: 'boolean' }, runs: { type: 'string' } } });
    write(JSON.stringify(template(values.minimum === true, undefined, runsOf(values.runs)), null, 2));
    return 0;
  }
  if (sub === 'export') {
    const { values } = parseArgs({ args: rest, options: { target: { type: 'string' }, states: { type: 'string' }, 'states-token': { type: 'string' }, out: { type: 'string' }, minimum: { type: 'boolean' }, runs: { type: 'string' }, header: { type: 'string', multiple: true }, ca: { type: 'string' } } });
    const missing = ['target', 'states', 'out'].filter((name) => !values[name as 'target']);
    if (missing.length > 0) throw new ConfigError(`states export: missing ${missing.map((m) => `--${m}`).join(', ')}; see \`conformance help\``);
    const token = values['states-token'] ?? process.env.STATES_TOKEN;
    // The road as `run` takes it: --header / EXTRA_HEADERS and --ca / CA_FILE, flags over the environment over .env,
    // the same refusals; the proxy variables through the dispatcher (helpers/net/transport.ts).
    const road = roadOf(loadRoad({ ...(values.header ? { EXTRA_HEADERS: values.header.join('\n') } : {}), ...(values.ca !== undefined ? { CA_FILE: values.ca } : {}) }));
    // The hook's answers (a platform's id) are the target's text: data, never control (issue 29).
    return exportStates({ target: values.target!, states: values.states!, ...(token ? { token } : {}), out: values.out!, minimum: values.minimum === true, runs: runsOf(values.runs), road }, (line) => write(escapeControls(line)));
  }
  throw new ConfigError(`states: give template or export; see \`conformance help\``);
}
