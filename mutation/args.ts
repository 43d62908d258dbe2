import { parseArgs } from 'node:util';

export const MUTANTS_USAGE = `usage: npm run mutants [-- options]
  runs the suite against every mutant of the reference (reference/mutants/) and fails below 100%
  --group NAME    only the mutants of this endpoint group (repeatable)
  --mutant NAME   only this mutant (repeatable)
  --shards N      parallel child processes (a whole number from 1; default: one per core)
  --explore       judge the mutants with the properties of \`conformance explore\` instead of the suites
  --seed N        with --explore: the seed (default 1)
  --runs N        with --explore: runs per property (default 20)
  --write-hints   record the tests that killed each deviation in mutation/kill-hints.json (later runs try them first)
  --no-hints      judge every deviation by a whole run of its clause's tests, as if no hint were recorded
  --help          this text
exit codes: 0 every selected mutant ran and was killed, 1 a survivor or a mutant that did not run, 2 usage error`;

/** A bad command line: one line on stderr, exit 2. */
export class MutantsUsageError extends Error {}

export interface MutantsArgs {
  help: boolean;
  group?: string[];
  mutant?: string[];
  shards?: number;
  /** Internal: `index/count` of a child shard, and where it writes its results. */
  shard?: { index: number; count: number };
  json?: string;
  /** Judge with the properties of `conformance explore` (seed, runs per property) instead of the suites. */
  explore?: boolean;
  seed?: string;
  runs?: string;
  /** Record the tests that killed each deviation (mutation/hints.ts). */
  writeHints?: boolean;
  /** Ignore the recorded hints. */
  noHints?: boolean;
}

const wholeNumber = (text: string) => (/^\d+$/.test(text) ? Number(text) : Number.NaN);

/** Parses the runner's arguments; anything it does not understand is a MutantsUsageError naming it. */
export function parseMutantsArgs(argv: string[]): MutantsArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        group: { type: 'string', multiple: true },
        mutant: { type: 'string', multiple: true },
        shards: { type: 'string' },
        shard: { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        explore: { type: 'boolean' },
        seed: { type: 'string' },
        runs: { type: 'string' },
        'write-hints': { type: 'boolean' },
        'no-hints': { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new MutantsUsageError(`mutants: ${(error as Error).message.split('\n')[0]}; see \`npm run mutants -- --help\``);
  }
  const args: MutantsArgs = { help: values.help === true };
  if (values.group) args.group = values.group;
  if (values.mutant) args.mutant = values.mutant;
  if (values.shards !== undefined) {
    const shards = wholeNumber(values.shards);
    if (!(shards >= 1)) throw new MutantsUsageError(`mutants: --shards expects a whole number from 1, got "${values.shards}"; see \`npm run mutants -- --help\``);
    args.shards = shards;
  }
  if (values.shard !== undefined) {
    const [index, count] = values.shard.split('/').map(wholeNumber);
    if (!(count! >= 1 && index! >= 0 && index! < count!) || values.json === undefined) throw new MutantsUsageError(`mutants: --shard is internal (INDEX/COUNT with --json FILE), got "${values.shard}"`);
    args.shard = { index: index!, count: count! };
  }
  if (values.json !== undefined) args.json = values.json;
  if (values.explore) args.explore = true;
  if (values['write-hints']) args.writeHints = true;
  if (values['no-hints']) args.noHints = true;
  if (args.explore && args.writeHints) throw new MutantsUsageError('mutants: --write-hints records the suites\' kills, not those of --explore; see `npm run mutants -- --help`');
  for (const flag of ['seed', 'runs'] as const) {
    const text = values[flag];
    if (text === undefined) continue;
    if (!values.explore) throw new MutantsUsageError(`mutants: --${flag} applies only with --explore; see \`npm run mutants -- --help\``);
    if (!(wholeNumber(text) >= (flag === 'runs' ? 1 : 0))) throw new MutantsUsageError(`mutants: --${flag} expects a whole number, got "${text}"; see \`npm run mutants -- --help\``);
    args[flag] = text;
  }
  return args;
}

/** The selected mutants that produced no result: a run that skipped any of them cannot pass. */
export function missingResults(selected: readonly string[], ran: readonly string[]): string[] {
  const seen = new Set(ran);
  return selected.filter((name) => !seen.has(name));
}

/** Names given to --group or --mutant that match nothing: a typo next to a good name must not shrink the run silently. */
export function unknownSelection(args: Pick<MutantsArgs, 'group' | 'mutant'>, mutants: readonly { name: string; group: string }[]): string | undefined {
  const groups = new Set(mutants.map((m) => m.group));
  const names = new Set(mutants.map((m) => m.name));
  const badGroups = (args.group ?? []).filter((g) => !groups.has(g));
  if (badGroups.length > 0) return `mutants: no group named ${badGroups.map((g) => `"${g}"`).join(', ')}; the groups are ${[...groups].join(', ')}`;
  const badNames = (args.mutant ?? []).filter((n) => !names.has(n));
  if (badNames.length > 0) return `mutants: no mutant named ${badNames.map((n) => `"${n}"`).join(', ')}; see reference/mutants/`;
  return undefined;
}
