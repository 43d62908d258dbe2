import type { MutantResult } from './runner.js';

/** The per-group table and the score line. */
export function scoreLines(all: readonly MutantResult[]): string[] {
  const results = all.filter((r) => !r.allowed);
  const readings = all.filter((r) => r.allowed);
  const groups = new Map<string, { total: number; killed: number }>();
  for (const r of results) {
    const g = groups.get(r.group) ?? { total: 0, killed: 0 };
    g.total++;
    if (r.killed) g.killed++;
    groups.set(r.group, g);
  }
  const lines = ['', 'group            mutants  killed  score'];
  for (const [group, g] of groups) lines.push(`${group.padEnd(16)} ${String(g.total).padStart(7)} ${String(g.killed).padStart(7)} ${`${Math.floor((100 * g.killed) / g.total)}%`.padStart(6)}`);
  const killed = results.filter((r) => r.killed).length;
  const score = results.length === 0 ? 0 : Math.floor((100 * killed) / results.length);
  lines.push(`Mutation score: ${killed}/${results.length} killed (${score}%)`);
  if (readings.length > 0) lines.push(`Allowed readings: ${readings.filter((r) => r.conformant).length}/${readings.length} conformant`);
  // A reading that changed no answer of its run proves nothing about the suite's fairness: the run says how many did not act.
  const vacuous = readings.filter((r) => r.vacuous).length;
  if (vacuous > 0) lines.push(`Allowed readings that changed no answer of their run (not put to the test): ${vacuous}`);
  return lines;
}

/**
 * The rules the tests cite that no mutant pins: a rule is pinned when a test citing it kills a mutant
 * (allowed readings pin nothing). Each unpinned rule is a check no deviation has been shown to fail.
 */
export function unpinnedRules(citedRules: Iterable<string>, results: readonly MutantResult[]): string[] {
  const pinned = new Set(results.filter((r) => !r.allowed && r.killed).flatMap((r) => r.killedRules ?? []));
  return [...new Set(citedRules)].filter((rule) => !pinned.has(rule)).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}
