import { CLAUSES, CONSTRAINTS, documentedPairs } from '../helpers/spec/catalogue.js';
import { RULE_SECTIONS, PENDING_RULES, primarySection, RULES } from '../helpers/spec/rules.js';
import type { ConstraintCoverage, PairCoverage, PairOutcome, RuleCoverage, RuleSectionCoverage, RuleTally, TestRecord } from './model.js';

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
    // Principle 1: where the specification allows 403 or 409 the pair 409 passes on a 403 too; it says which came,
    // but only when no test of the pair saw the documented status itself (a test that expects it alone, or one
    // of a list, and saw it, verified the pair directly).
    const alternatives = matching.filter((t) => t.outcome === 'passed' && Array.isArray(t.status));
    const observed = [...new Set(alternatives.flatMap((t) => t.observedStatus.filter((s) => (t.status as number[]).includes(s))))].sort();
    const seenDirectly = matching.some((t) => t.outcome === 'passed' && t.observedStatus.includes(status.status));
    const viaAlternative = outcome.outcome === 'passed' && observed.length > 0 && !seenDirectly ? { observed } : {};
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

/**
 * Every atomic rule of the specification with the tests that cite it; an unobservable rule is listed with
 * its reason, and a rule of `pending` that no test cites is marked `pending` (checked by no test of this
 * suite version). `pending` is PENDING_RULES but for the reporting self-tests.
 */
export function ruleCoverage(tests: TestRecord[], pending: readonly string[] = PENDING_RULES): RuleCoverage[] {
  return RULES.map((rule) => {
    const citing = tests.filter((t) => t.rules?.includes(rule.id));
    const base = { id: rule.id, sections: rule.sections, quote: rule.quote, observable: !rule.unobservable, tests: citing.map((t) => t.id) };
    if (rule.unobservable) return { ...base, outcome: 'not verified' as const, reason: `not observable by a client: ${rule.unobservable}` };
    if (citing.length === 0 && pending.includes(rule.id)) return { ...base, outcome: 'not verified' as const, reason: 'no test of this suite version checks it yet', pending: true as const };
    const outcome = outcomeOf(citing);
    return { ...base, ...outcome, reason: citing.length === 0 ? 'no test in this run checks it' : outcome.reason };
  });
}

function tally(rules: RuleCoverage[]): RuleTally {
  const observable = rules.filter((r) => r.observable);
  return {
    observable: observable.length,
    verified: observable.filter((r) => r.outcome === 'passed').length,
    failed: observable.filter((r) => r.outcome === 'failed').length,
    notVerified: observable.filter((r) => r.outcome === 'not verified').length,
    pending: observable.filter((r) => r.pending === true).length,
    unobservable: rules.length - observable.length,
  };
}

/** The title of a section: its clause in the catalogue, or the clause of the section a numbered rule belongs to ("5.6": section 5). */
export function sectionTitle(section: string): string {
  return RULE_SECTIONS[section] ?? CLAUSES[section] ?? section;
}

/**
 * Where a section comes in the specification: by number ("2.5" < "2.5a" < "2.5b" < "2.6", "4" < "4.1",
 * "5" < "5.6"), except the card section 4.6a, which the specification places after 4.11.
 */
function sectionOrder(section: string): number {
  if (section === '4.6a') return 4 * 10_000 + 12 * 10;
  const [, major = '0', minor = '0', letter = ''] = /^(\d+)(?:\.(\d+)([a-z]?))?$/.exec(section) ?? [];
  return Number(major) * 10_000 + Number(minor) * 10 + (letter ? letter.charCodeAt(0) - 96 : 0);
}

/** Rules verified out of observable rules, in all and per section (the first section each rule names), in the order of the specification. */
export function ruleSummary(rules: RuleCoverage[]): RuleTally & { sections: RuleSectionCoverage[] } {
  const bySection = new Map<string, RuleCoverage[]>();
  for (const rule of rules) {
    const section = primarySection(rule);
    bySection.set(section, [...(bySection.get(section) ?? []), rule]);
  }
  const sections = [...bySection].sort(([a], [b]) => sectionOrder(a) - sectionOrder(b)).map(([section, list]) => ({ section, title: sectionTitle(section), ...tally(list) }));
  return { ...tally(rules), sections };
}
