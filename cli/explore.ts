import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, type Config } from '../helpers/net/config.js';
import type { Mutation } from '../reference/mutation.js';
import type { ExplorationSettings } from '../explore/engine.js';
// run.js loads vitest: imported only once the options are valid, so a wrong --seed answers at once.
import type { SuiteRunOptions, SuiteRunResult } from './run.js';

/** Runs per property at scale 1: a full exploration of every group stays well under 2 minutes against the embedded reference. */
export const DEFAULT_RUNS = 100;

/** The test files of `conformance explore` and the settings their workers read: for `run` and for the mutation runner alike. */
export function exploreFiles(exploration: ExplorationSettings) {
  return { config: 'vitest.explore.config.js', ofGroup: (group: string) => `explore/${group}.explore.js`, provide: { exploration } };
}

/** `explore`'s own options; every option of `run` applies as well. */
export const EXPLORE_OPTIONS = {
  seed: { type: 'string' },
  runs: { type: 'string' },
} as const;

function wholeNumber(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || n < min || n > max) throw new ConfigError(`configuration error: ${flag} must be a whole number from ${min} to ${max} (got "${value}")`);
  return n;
}

export interface ExploreOptions {
  config: Config;
  groups?: string[];
  mutation?: Mutation;
  selection?: SuiteRunOptions['selection'];
  seed?: string;
  runs?: string;
  write?: (line: string) => void;
}

/**
 * `conformance explore`: the properties of explore/ through the same runner, reports and exit codes
 * as `run`. The seed is printed first and recorded in report.json; the same seed replays the same
 * generated inputs (unique values such as IBANs carry a fresh random prefix each time).
 */
export async function exploreSuite(options: ExploreOptions): Promise<SuiteRunResult> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seed = wholeNumber(options.seed, '--seed', -2147483648, 2147483647) ?? randomInt(0, 2 ** 31 - 1);
  const runs = wholeNumber(options.runs, '--runs', 1, 100_000) ?? DEFAULT_RUNS;
  const dir = mkdtempSync(join(tmpdir(), 'explore-'));
  const ledger = join(dir, 'ledger.jsonl');
  const exploration: ExplorationSettings = { seed, runs, ledger };
  write(`Exploring with seed ${seed}, ${runs} runs per property (replay: conformance explore --seed ${seed}${options.runs ? ` --runs ${runs}` : ''})`);
  const totals = { properties: 0, generatedRuns: 0, cardsCreated: 0 };
  try {
    const { runSuite } = await import('./run.js');
    const result = await runSuite({
      config: options.config,
      ...(options.groups ? { groups: options.groups } : {}),
      ...(options.mutation ? { mutation: options.mutation } : {}),
      ...(options.selection ? { selection: options.selection } : {}),
      write,
      files: exploreFiles(exploration),
      extendReport: (report) => {
        let lines: string[] = [];
        try {
          lines = readFileSync(ledger, 'utf8').split('\n').filter(Boolean);
        } catch {
          // no property finished (every one skipped): nothing generated, nothing created
        }
        for (const line of lines) {
          const entry = JSON.parse(line) as { runs: number; cards: number };
          totals.properties++;
          totals.generatedRuns += entry.runs;
          totals.cardsCreated += entry.cards;
        }
        report.exploration = { seed, runs, ...totals };
      },
    });
    write(`Explored ${totals.properties} properties with ${totals.generatedRuns} generated inputs; cards created: ${totals.cardsCreated} (cards cannot be deleted); seed ${seed}`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
