/** The kinds of run a shard makes: the unmutated run first, then one deviation, one reading, or readings together. */
export const RUN_KINDS = ['unmutated', 'deviation', 'reading alone', 'readings together'] as const;

/** What a shard's runs of each kind cost: how many, and the process's CPU time over them (its threads and the reference included). */
export type Spent = Record<(typeof RUN_KINDS)[number], { runs: number; cpuMs: number }>;

/** The process's CPU time so far, in ms. */
export function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** No run yet, of any kind. */
export function nothingSpent(): Spent {
  return Object.fromEntries(RUN_KINDS.map((kind) => [kind, { runs: 0, cpuMs: 0 }])) as Spent;
}
