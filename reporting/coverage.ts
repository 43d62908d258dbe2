import { CLAUSES, CONSTRAINTS, documentedPairs } from '../helpers/spec/catalogue.js';
import { RULE_SECTIONS, PENDING_RULES, primarySection, RULES, ruleById } from '../helpers/spec/rules.js';
import { INSTANCES } from '../helpers/spec/instances.js';
import type { ConstraintCoverage, InstanceCoverage, InstanceTally, PairCoverage, PairOutcome, RuleCoverage, RuleSectionCoverage, RuleTally, TestRecord } from './model.js';

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
export function ruleCoverage(tests: TestRecord[], pending: readonly string[] = PENDING_RULES, instances: InstanceCoverage[] = instanceCoverage(tests)): RuleCoverage[] {
  return RULES.map((rule) => {
    const citing = tests.filter((t) => t.rules?.includes(rule.id));
    const base = { id: rule.id, sections: rule.sections, quote: rule.quote, observable: !rule.unobservable, tests: citing.map((t) => t.id) };
    if (rule.unobservable) return { ...base, outcome: 'not verified' as const, reason: `not observable by a client: ${rule.unobservable}` };
    if (citing.length === 0 && pending.includes(rule.id)) return { ...base, outcome: 'not verified' as const, reason: 'no test of this suite version checks it yet', pending: true as const };
    const outcome = outcomeOf(citing);
    const own = instances.filter((i) => i.rule === rule.id);
    // A rule of several places: verified only when a passing test checked each of them (issue 27).
    if (own.length > 1 || own.some((i) => i.endpoint !== null)) {
      const open = own.filter((i) => i.outcome !== 'passed').map((i) => i.id);
      const counts = { instances: { total: own.length, verified: own.length - open.length, notVerified: open } };
      if (outcome.outcome === 'failed') return { ...base, ...outcome, ...counts };
      if (open.length > 0) return { ...base, outcome: 'not verified' as const, reason: `${open.length} of its ${own.length} instances not verified (${open.slice(0, 3).join('; ')}${open.length > 3 ? '; ...' : ''})`, ...counts };
      return { ...base, outcome: 'passed' as const, reason: null, ...counts };
    }
    return { ...base, ...outcome, reason: citing.length === 0 ? 'no test in this run checks it' : outcome.reason };
  });
}

/**
 * Every instance of every rule (helpers/spec/instances.ts) with the tests that check it: for a rule of
 * one place, the tests citing the rule; for a rule of several, the tests citing that instance.
 */
export function instanceCoverage(tests: TestRecord[]): InstanceCoverage[] {
  return INSTANCES.map((instance) => {
    const rule = ruleById.get(instance.rule)!;
    const matching = instance.endpoint === null ? tests.filter((t) => t.rules?.includes(instance.rule)) : tests.filter((t) => t.instances?.includes(instance.id));
    const base = { ...instance, observable: !rule.unobservable, tests: matching.map((t) => t.id) };
    if (rule.unobservable) return { ...base, outcome: 'not verified' as const, reason: `not observable by a client: ${rule.unobservable}` };
    const outcome = outcomeOf(matching);
    return { ...base, ...outcome, reason: matching.length === 0 ? 'no test in this run checks it' : outcome.reason };
  });
}

export function instanceSummary(instances: InstanceCoverage[]): InstanceTally {
  const observable = instances.filter((i) => i.observable);
  return {
    observable: observable.length,
    verified: observable.filter((i) => i.outcome === 'passed').length,
    failed: observable.filter((i) => i.outcome === 'failed').length,
    notVerified: observable.filter((i) => i.outcome === 'not verified').length,
  };
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
