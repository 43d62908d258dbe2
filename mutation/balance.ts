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

/** One run's work: mutants judged in one run, and why they are no longer with the others of their first run. */
export interface WorkItem<M> {
  unit: M[];
  why?: string;
}

/**
 * The mutation run's work, handed out to the shards as they ask (a shared queue, not a split made in advance: the costs
 * are estimates, and a split by estimate left one shard running alone for the last ten minutes of `npm test`).
 * The costliest units go first, so the run ends on cheap ones; a unit a shard splits (readings that could not be judged
 * together) comes back to the front, for whichever shard asks first. A shard that asks while the queue is empty waits
 * as long as another shard is busy (it may still give work back); when every shard waits, the run is over.
 * The rules pinned by a deviation anywhere are shared: each shard's kill watch then skips more (mutation/runner.ts).
 */
export class WorkQueue<M> {
  private readonly items: WorkItem<M>[];
  private readonly busy = new Set<number>();
  private readonly waiting = new Map<number, (item: WorkItem<M> | undefined) => void>();
  private readonly gone = new Set<number>();
  readonly pinned = new Set<string>();

  constructor(units: readonly (readonly M[])[], cost: (unit: readonly M[]) => number, private readonly shards: number) {
    this.items = units.map((unit, index) => ({ unit: [...unit], index, cost: cost(unit) })).sort((a, b) => b.cost - a.cost || a.index - b.index).map(({ unit }) => ({ unit }));
  }

  /** Shard `shard` asks for work, telling the rules it pinned: the next item, or undefined when the run is over. */
  next(shard: number, pinnedThere: readonly string[] = []): Promise<WorkItem<M> | undefined> {
    for (const rule of pinnedThere) this.pinned.add(rule);
    // A shard's last ask may be heard after its exit (IPC messages can trail the exit event): handed a unit, the unit
    // would be lost, and the shard counted busy for ever would keep the others waiting (a hung run).
    if (this.gone.has(shard)) return Promise.resolve(undefined);
    this.busy.delete(shard);
    return new Promise((resolve) => {
      this.waiting.set(shard, resolve);
      this.serve();
    });
  }

  /** A shard gives back parts of its unit, to be judged next by whoever asks first. */
  requeue(items: readonly WorkItem<M>[]): void {
    this.items.unshift(...items);
    this.serve();
  }

  /** Shard `shard` ended (or crashed): it neither waits nor may give work back. */
  leave(shard: number): void {
    this.gone.add(shard);
    this.busy.delete(shard);
    this.waiting.delete(shard);
    this.serve();
  }

  private serve(): void {
    for (const [shard, resolve] of this.waiting) {
      const item = this.items.shift();
      if (!item) break;
      this.waiting.delete(shard);
      this.busy.add(shard);
      resolve(item);
    }
    if (this.items.length === 0 && this.busy.size === 0 && this.waiting.size + this.gone.size >= this.shards) {
      for (const resolve of this.waiting.values()) resolve(undefined);
      this.waiting.clear();
    }
  }
}
