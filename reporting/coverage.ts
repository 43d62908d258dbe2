import { CONSTRAINTS, documentedPairs } from '../helpers/spec/catalogue.js';
import type { ConstraintCoverage, PairCoverage, PairOutcome, TestRecord } from './model.js';

function outcomeOf(tests: TestRecord[]): { outcome: PairOutcome; reason: string | null } {
  if (tests.length === 0) return { outcome: 'not verified', reason: 'no test expects it' };
  if (tests.some((t) => t.outcome === 'failed')) return { outcome: 'failed', reason: tests.find((t) => t.outcome === 'failed')!.reason };
  if (tests.some((t) => t.outcome === 'passed')) return { outcome: 'passed', reason: null };
  return { outcome: 'not verified', reason: tests.map((t) => t.reason).find(Boolean) ?? 'skipped' };
}

function expects(test: TestRecord, status: number): boolean {
  return Array.isArray(test.status) ? test.status.includes(status) : test.status === status;
}

/** The certification matrix: every documented (endpoint, status) pair with the tests that expect it. */
export function pairCoverage(tests: TestRecord[]): PairCoverage[] {
  return documentedPairs().map(({ endpoint, status }) => {
    const matching = tests.filter((t) => t.endpoint === endpoint.id && expects(t, status.status));
    const outcome = outcomeOf(matching);
    // Principle 1: where the specification allows 403 or 409 the pair 409 passes on a 403 too; it says which came.
    const alternatives = matching.filter((t) => t.outcome === 'passed' && Array.isArray(t.status));
    const observed = [...new Set(alternatives.flatMap((t) => t.observedStatus.filter((s) => (t.status as number[]).includes(s))))].sort();
    const viaAlternative = outcome.outcome === 'passed' && observed.length > 0 && !observed.includes(status.status) ? { observed } : {};
    return { endpoint: endpoint.id, status: status.status, condition: status.condition, tests: matching.map((t) => t.id), ...outcome, ...viaAlternative };
  });
}

/** Every field constraint of the catalogue with the boundary tests that cite it. */
export function constraintCoverage(tests: TestRecord[]): ConstraintCoverage[] {
  return CONSTRAINTS.map((c) => {
    const matching = tests.filter((t) => t.constraint === c.id);
    const outcome = c.unobservable ? { outcome: 'not verified' as const, reason: `not observable by a client: ${c.unobservable}` } : outcomeOf(matching);
    return { id: c.id, endpoint: c.endpoint, field: c.field, rule: c.rule, tests: matching.map((t) => t.id), ...outcome, ...(c.unobservable ? { observable: false as const } : {}) };
  });
}
