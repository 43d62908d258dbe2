import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUSES, CONSTRAINTS } from '../helpers/spec/catalogue.js';
import { CONSTRAINT_RULES, RULE_SECTIONS, OBSERVABLE_RULES, PENDING_RULES, RULES, SCHEMA_NAMES, effectiveRules, ruleById, schemaRules } from '../helpers/spec/rules.js';
import { ruleCoverage, ruleSummary } from '../reporting/coverage.js';
import { unpinnedRules } from '../mutation/score.js';
import type { MutantResult } from '../mutation/runner.js';
import type { TestRecord } from '../reporting/model.js';
import { ROOT } from './support.js';

describe('the catalogue of the specification\u2019s atomic rules', () => {
  it('numbers its 352 rules S1 to S352, each once: S1 to S347 in the order of the specification, then the rules split off later (an id is never reused)', () => {
    expect(RULES.map((r) => r.id)).toEqual(Array.from({ length: 352 }, (_, i) => `S${i + 1}`));
  });

  it('gives each rule known sections and a quote', () => {
    const sections = new Set([...Object.keys(CLAUSES), ...Object.keys(RULE_SECTIONS)]);
    for (const rule of RULES) {
      expect(rule.sections.length, rule.id).toBeGreaterThan(0);
      for (const section of rule.sections) expect(sections.has(section), `${rule.id}: section ${section}`).toBe(true);
      expect(rule.quote.length, rule.id).toBeGreaterThan(5);
    }
  });

  it('lists the 16 rules no client can observe, each with its reason, among them the catalogue\u2019s 4 unobservable constraints', () => {
    const unobservable = RULES.filter((r) => r.unobservable);
    expect(unobservable.map((r) => r.id)).toEqual(['S4', 'S72', 'S136', 'S148', 'S151', 'S170', 'S171', 'S175', 'S182', 'S183', 'S191', 'S300', 'S347', 'S348', 'S349', 'S352']);
    for (const rule of unobservable) expect(rule.unobservable!.length, rule.id).toBeGreaterThan(20);
    for (const constraint of CONSTRAINTS.filter((c) => c.unobservable)) expect(CONSTRAINT_RULES[constraint.id], constraint.id).toEqual([]);
    expect(ruleById.get('S170')!.unobservable).toBe(CONSTRAINTS.find((c) => c.id === 'forgot.email.required')!.unobservable);
    expect(ruleById.get('S183')!.unobservable).toBe(CONSTRAINTS.find((c) => c.id === 'reset.token.max')!.unobservable);
  });

  it('names the observable rules no test checks yet in one list: known, observable, each once', () => {
    expect(new Set(PENDING_RULES).size).toBe(PENDING_RULES.length);
    for (const id of PENDING_RULES) {
      expect(ruleById.has(id), id).toBe(true);
      expect(ruleById.get(id)!.unobservable, id).toBeUndefined();
    }
  });

  it('maps every response schema of schemas/ to known, observable rules, and S3 (responses are JSON) to each', () => {
    const files = readdirSync(join(ROOT, 'schemas')).map((f) => f.replace(/\.json$/, '')).filter((f) => !['report', 'states-file', 'common', 'external-platform'].includes(f));
    expect(new Set(SCHEMA_NAMES)).toEqual(new Set(files));
    for (const name of SCHEMA_NAMES) {
      const rules = schemaRules(name);
      expect(rules, name).toContain('S3');
      for (const id of rules) expect(ruleById.get(id)?.unobservable, `${name}: ${id}`).toBeUndefined();
    }
    expect(schemaRules('bank-response')).toEqual(expect.arrayContaining(['S5', 'S56', 'S62', 'S63']));
    expect(schemaRules('bonus-list-response')).toEqual(expect.arrayContaining(['S6', 'S75', 'S89', 'S104', 'S52']));
    expect(() => schemaRules('wallet')).toThrowError(/no schema "wallet"/);
  });

  it('maps every field constraint of the catalogue to the rules it states, none pending or unobservable', () => {
    expect(new Set(Object.keys(CONSTRAINT_RULES))).toEqual(new Set(CONSTRAINTS.map((c) => c.id)));
    for (const [constraint, rules] of Object.entries(CONSTRAINT_RULES)) {
      for (const id of rules) {
        expect(ruleById.get(id)?.unobservable, `${constraint}: ${id}`).toBeUndefined();
        expect(PENDING_RULES, `${constraint}: ${id}`).not.toContain(id);
      }
    }
    expect(effectiveRules(['S337'], 'bank.swift.length')).toEqual(['S337', 'S240', 'S342']);
    expect(effectiveRules(['S342'], 'bank.swift.length')).toEqual(['S342', 'S240']);
  });
});

describe('coverage by rule', () => {
  const record = (id: string, outcome: TestRecord['outcome'], rules: string[]): TestRecord =>
    ({ id, name: id, group: 'banks', file: 'suites/banks.test.ts', endpoint: 'POST /api/v1/user/{user}/bank', status: 201, clauses: ['4.10'], rules, constraint: null, outcome, reason: outcome === 'passed' ? null : `${outcome} here`, observedStatus: [], advisories: [], durationMs: 1, failure: null, exchanges: [] }) as TestRecord;

  it('verifies a rule a passing test cites, fails it on a failing one, and counts only observable rules', () => {
    const rules = ruleCoverage([record('a', 'passed', ['S56', 'S57']), record('b', 'failed', ['S57']), record('c', 'skipped', ['S58'])]);
    const by = new Map(rules.map((r) => [r.id, r]));
    expect(by.get('S56')).toMatchObject({ outcome: 'passed', tests: ['a'], observable: true });
    expect(by.get('S57')).toMatchObject({ outcome: 'failed', tests: ['a', 'b'], reason: 'failed here' });
    expect(by.get('S58')).toMatchObject({ outcome: 'not verified', reason: 'skipped here' });
    expect(by.get('S59')).toMatchObject({ outcome: 'not verified', reason: 'no test in this run checks it' });
    expect(by.get('S4')).toMatchObject({ outcome: 'not verified', observable: false, reason: expect.stringMatching(/^not observable by a client: an obligation on the client/) });
    if (PENDING_RULES.length > 0) expect(by.get(PENDING_RULES[0]!)!.reason).toBe('no test of this suite version checks it yet');
    const summary = ruleSummary(rules);
    expect(summary).toMatchObject({ observable: OBSERVABLE_RULES.length, verified: 1, failed: 1, notVerified: OBSERVABLE_RULES.length - 2, unobservable: 16 });
    const bank = summary.sections.find((s) => s.section === '2.4')!;
    expect(bank).toMatchObject({ title: 'Bank record', verified: 1, failed: 1, observable: 8 });
    expect(summary.sections.find((s) => s.section === '5.6')!.title).toMatch(/^Authentication: other users/);
    expect(summary.sections.reduce((n, s) => n + s.observable + s.unobservable, 0)).toBe(352);
  });
});

describe('rules pinned by mutants', () => {
  const result = (name: string, killedRules: string[], extra: Partial<MutantResult> = {}): MutantResult =>
    ({ name, clause: '4.10', group: 'banks', description: name, killed: true, allowed: false, conformant: false, killedBy: ['t'], killedRules, otherFailures: [], durationMs: 1, ...extra }) as MutantResult;

  it('pins a rule only through a killed mutant that is no allowed reading', () => {
    const results = [result('a', ['S56']), result('b', ['S57'], { killed: false }), result('allowed-c', ['S58'], { allowed: true })];
    expect(unpinnedRules(['S58', 'S56', 'S57', 'S56'], results)).toEqual(['S57', 'S58']);
    expect(unpinnedRules(['S56'], results)).toEqual([]);
  });
});

describe('rules in the reports', () => {
  it('the verdict needs every observable rule verified, as it needs every pair; diff names a rule lost as a regression', async () => {
    const { record, report } = await import('./reporting-fixtures.js');
    const { verdictOf } = await import('../reporting/build.js');
    const { diffReports, diffMarkdown } = await import('../reporting/diff.js');
    const { toMarkdown } = await import('../reporting/markdown.js');
    const { toHtml } = await import('../reporting/html.js');
    const passing = [record('answers 200 with the banks', { rules: ['S56', 'S225'] })];
    const built = report(passing);
    // Every pair verified but one rule not: incomplete; all verified: conformant.
    const pairs = built.coverage.pairs.map((p) => ({ ...p, outcome: 'passed' as const }));
    const rules = built.coverage.rules!;
    expect(verdictOf(passing, pairs, rules)).toBe('incomplete');
    expect(verdictOf(passing, pairs, rules.map((r) => ({ ...r, outcome: 'passed' as const })))).toBe('conformant');
    expect(verdictOf(passing, pairs, rules.map((r) => (r.observable ? { ...r, outcome: 'passed' as const } : r)))).toBe('conformant');
    const lost = report([record('answers 200 with the banks', { rules: ['S56'] })]);
    const diff = diffReports(built, lost);
    expect(diff.coverage.rulesLost.map((c) => c.rule)).toEqual(['S225']);
    expect(diff.regressed).toBe(true);
    expect(diffMarkdown(diff)).toContain('### Coverage lost: rules of the specification (1)');
    expect(toMarkdown(built)).toMatch(/### Coverage by rule\n\n2 of 336 observable rules of the specification verified, 334 not verified in this run; 16 rules cannot be observed by a client\./);
    expect(toMarkdown(built)).toContain('| §2.4 Bank record | 1/8 |  | 7 |  |  |');
    const html = toHtml(built);
    expect(html).toContain('<b>2/336</b>observable rules verified');
    expect(html).toContain('<tr id="rule-S4" class="nv"><td><code>S4</code></td>');
    // A report before 1.2 has no rules: the page says so, and diff compares none.
    const old = { ...built, coverage: { pairs: built.coverage.pairs, constraints: built.coverage.constraints } };
    expect(toHtml(old)).toContain('This report predates rule coverage');
    expect(diffReports(old, lost).coverage.rulesLost).toEqual([]);
  });
  it('pending rules (no test of the suite version checks them) are flagged, counted apart and listed before the truncated list of rules not verified; pending to verified is a gain, never a regression', async () => {
    const { record, report } = await import('./reporting-fixtures.js');
    const { diffReports } = await import('../reporting/diff.js');
    const { toMarkdown } = await import('../reporting/markdown.js');
    const { toHtml } = await import('../reporting/html.js');
    const { schemaProblems } = await import('../helpers/spec/schemas.js');
    // Injected, so this holds whatever PENDING_RULES holds: two pending rules, one of them (S223) far down the list.
    const pending = ['S26', 'S223'];
    const built = report([record('answers 200 with the banks', { rules: ['S56', 'S225'] })], {}, pending);
    expect(schemaProblems('report', JSON.parse(JSON.stringify(built)))).toEqual([]);
    expect(built.reportVersion).toBe('1.4.0');
    expect(built.coverage.rules!.filter((r) => r.pending).map((r) => r.id)).toEqual(pending);
    expect(built.coverage.rules!.find((r) => r.id === 'S56')).not.toHaveProperty('pending');
    expect(built.coverage.ruleSummary).toMatchObject({ verified: 2, pending: 2, notVerified: 334 });
    const markdown = toMarkdown(built);
    expect(markdown).toMatch(/2 of 336 observable rules of the specification verified, 332 not verified in this run, 2 checked by no test of this suite version; 16 rules/);
    const listed = markdown.indexOf('Checked by no test of this suite version (2)');
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThan(markdown.indexOf('Observable rules not verified in this run (332)'));
    expect(markdown).toMatch(/\n- S223 \(§4\.10\) [^\n]+\n/);
    expect(markdown.indexOf('- S223 ')).toBeLessThan(markdown.indexOf('more in report.json'));
    expect(markdown).toContain('| Section | Verified / observable | Failed | Not verified | Pending (no test yet) | Unobservable |');
    const html = toHtml(built);
    expect(html).toContain('<h3 id="rules-pending">Checked by no test of this suite version (2)</h3>');
    expect(html).toContain('<th>Pending (no test yet)</th>');
    expect(html).toMatch(/<tr id="rule-S223" class="nv">.*<span class="badge nv">pending<\/span>/);
    // Pending -> verified: coverage gained; verified -> not verified: coverage lost, a regression.
    const checked = report([record('answers 200 with the banks', { rules: ['S56', 'S225', 'S223'] })], {}, ['S26']);
    const better = diffReports(built, checked);
    expect(better.coverage.rulesGained.map((c) => c.rule)).toEqual(['S223']);
    expect(better.regressed).toBe(false);
    const worse = diffReports(checked, built);
    expect(worse.coverage.rulesLost.map((c) => c.rule)).toEqual(['S223']);
    expect(worse.regressed).toBe(true);
  });
});
