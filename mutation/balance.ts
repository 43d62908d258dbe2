import type { Group } from '../helpers/spec/catalogue.js';
import type { Mutant } from '../reference/mutants/types.js';

/**
 * Seconds a run of each group's whole file took against the reference (one shard, 2 cores, loaded
 * machine, 2026-11): only the ratios matter. A focused run (the tests citing a few clauses) costs a
 * fixed part (the file is loaded, every test starts and skips) and a share of the whole.
 */
const WHOLE_GROUP_SECONDS: Record<Group, number> = { authentication: 12, password: 4, balances: 5.5, banks: 9, bonuses: 8, cards: 11 };
const FOCUSED_SHARE = 0.3;
const RUN_SECONDS = 2;

/** The estimated cost of judging one mutant: its judged groups, whole for a reading judged by all their tests. */
export function mutantCost(mutant: Mutant, groups: readonly Group[]): number {
  const whole = mutant.allowed === true && mutant.judgedBy?.clauses === 'all';
  const share = whole ? 1 : FOCUSED_SHARE;
  // The groups run side by side in one vitest run: the cost grows with their work, not their count.
  return RUN_SECONDS + groups.reduce((sum, g) => sum + share * (WHOLE_GROUP_SECONDS[g] ?? 8), 0);
}

/** The estimated cost of one run of the mutation runner: one mutant, or readings judged together (a little more than the costliest). */
export function unitCost<M>(unit: readonly M[], cost: (mutant: M) => number): number {
  return Math.max(...unit.map(cost)) * (1 + 0.05 * (unit.length - 1));
}

/**
 * Splits the mutants across `count` shards by estimated cost (longest first, each to the least loaded
 * shard) so both cores finish together; each shard runs its own mutants, the costliest first.
 * Every mutant lands in exactly one shard. Deterministic: the parent and each child compute the same split.
 */
export function balanceShards<T>(items: readonly T[], count: number, cost: (item: T) => number): T[][] {
  const shards = Array.from({ length: count }, () => ({ load: 0, items: [] as T[] }));
  const order = items.map((item, index) => ({ item, index, cost: cost(item) })).sort((a, b) => b.cost - a.cost || a.index - b.index);
  for (const entry of order) {
    let least = shards[0]!;
    for (const shard of shards) if (shard.load < least.load) least = shard;
    least.items.push(entry.item);
    least.load += entry.cost;
  }
  return shards.map((s) => s.items);
}
