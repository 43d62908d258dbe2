import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../helpers/spec/package-root.js';
import type { UnitHints } from './compose.js';

/**
 * Kill hints: for each deviation, the tests that killed it in an earlier run. A deviation's run starts with them alone
 * (mutation/runner.ts); once they kill it, only the tests that could still pin a rule no mutant pinned run after them,
 * which is most often none. A deviation without a hint, or whose hinted tests no longer kill it (a test renamed or
 * changed), is judged by a whole run of its clause's tests as before: a hint changes the time, never the verdict.
 * Written by `npm run mutants -- --write-hints`; the run says how many hints served.
 */
export const HINTS_FILE = join(PACKAGE_ROOT, 'mutation', 'kill-hints.json');

/** The hinted test ids of each deviation (an empty map when the file is missing or unreadable: hints only save time). */
export function readHints(file = HINTS_FILE): Map<string, string[]> {
  if (!existsSync(file)) return new Map();
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return new Map();
    return new Map(
      Object.entries(parsed as Record<string, unknown>)
        .filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]))
        .map(([name, ids]) => [name, ids.filter((id): id is string => typeof id === 'string')]),
    );
  } catch {
    return new Map();
  }
}

/** At most this many tests hinted for a deviation: one usually kills it; a second covers a test that skips on some targets. */
export const HINTS_PER_MUTANT = 2;

/** Writes the hints of `killed` (deviation name -> the tests that killed it) over those of `earlier`, in name order. */
export function writeHints(killed: ReadonlyMap<string, readonly string[]>, earlier: ReadonlyMap<string, readonly string[]>, keep: (name: string) => boolean, file = HINTS_FILE): void {
  const merged = new Map([...earlier].filter(([name]) => keep(name)));
  for (const [name, ids] of killed) if (ids.length > 0) merged.set(name, ids.slice(0, HINTS_PER_MUTANT));
  const sorted = Object.fromEntries([...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(file, `${JSON.stringify(sorted, null, 1)}\n`);
}

/**
 * Unit hints: how the allowed readings were judged in an earlier run, together (each clean run's readings) or alone
 * (after a run together that failed, skipped, conflicted or changed nothing). The next run starts from these units
 * (mutation/compose.ts unitsOf) instead of spending again the runs that split them. Written with the kill hints.
 */
export const UNITS_FILE = join(PACKAGE_ROOT, 'mutation', 'reading-units.json');

export function readUnitHints(file = UNITS_FILE): UnitHints {
  const none: UnitHints = { together: [], alone: [] };
  if (!existsSync(file)) return none;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { together?: unknown; alone?: unknown };
    const names = (list: unknown): string[] => (Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : []);
    return { together: Array.isArray(parsed.together) ? parsed.together.map(names).filter((unit) => unit.length > 0) : [], alone: names(parsed.alone) };
  } catch {
    return none;
  }
}

/** Writes the units the readings of a whole run were judged in: each clean run together once, the others alone, in name order (the caller leaves out the readings judged alone by rule). */
export function writeUnitHints(readings: readonly { name: string; judgedWith?: readonly string[] }[], file = UNITS_FILE): void {
  const together = new Map<string, string[]>();
  const alone: string[] = [];
  for (const reading of readings) {
    if (!reading.judgedWith || reading.judgedWith.length < 2) alone.push(reading.name);
    else {
      const unit = [...reading.judgedWith].sort();
      together.set(unit.join(' '), unit);
    }
  }
  const units = [...together.values()].sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  writeFileSync(file, `${JSON.stringify({ together: units, alone: alone.sort() }, null, 1)}\n`);
}
