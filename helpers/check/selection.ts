import { createHash } from 'node:crypto';
import { CLAUSES, endpointById } from '../spec/catalogue.js';
import { RULE_SECTIONS, ruleById } from '../spec/rules.js';

/**
 * Which tests a run selects (`--grep`, `--clause`, `--endpoint`, `--failed`): every given criterion must
 * hold (AND). A run with a selection checks part of the interface, so its verdict is at best
 * `incomplete` and it never certifies.
 */
export interface Selection {
  /** A regular expression (case-insensitive) the test's name must match. */
  grep?: string;
  /**
   * Clauses the test must cite (every one given), each itself or one of its sub-clauses: 4.10 selects 4.10 and 4.10.x, 4 selects 4.1 to 4.11.
   * A numbered item of sections 1 and 5 as reports cite them (1.4, 5.6) selects the tests checking a rule of that item.
   */
  clauses?: string[];
  /** Endpoint templates (catalogue ids), any of them (a test has one endpoint): `POST /api/v1/user/{user}/bank`. */
  endpoints?: string[];
  /** Test ids (report.json `tests[].id`), any of them: `run --id`, `run --failed`. */
  ids?: string[];
}

/** What a selection reads of a test. */
export interface Selectable {
  name: string;
  endpoint: string;
  clauses: readonly string[];
  /** The rules it checks (helpers/spec/rules.ts ids): an item of sections 1 and 5 (5.6) is cited through them. */
  rules?: readonly string[];
}

/** Numbered items of sections 1 and 5 (5.1 to 5.6, 1.1 to 1.6): reports cite them through the rules, tests cite 1 and 5. */
function isRuleItem(clause: string): boolean {
  return clause in RULE_SECTIONS && !(clause in CLAUSES);
}

/** Whether the test cites `wanted`: a clause of its own, or a rule of the item `wanted` names. */
function cites(test: Selectable, wanted: string): boolean {
  if (test.clauses.some((cited) => clauseWithin(cited, wanted))) return true;
  return isRuleItem(wanted) && (test.rules ?? []).some((id) => ruleById.get(id)?.sections.some((section) => clauseWithin(section, wanted)));
}

declare module 'vitest' {
  export interface ProvidedContext {
    selection: Selection | undefined;
  }
}

/** A stable id from the test's (unique) name: a readable slug, shortened with a hash when long. */
export function testId(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/\/api\/v1/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  if (slug.length <= 100) return slug;
  return `${slug.slice(0, 90)}-${createHash('sha1').update(name).digest('hex').slice(0, 8)}`;
}

/** True when `cited` is `wanted` or one of its sub-clauses (4.10 -> 4.10, 4.10.2; 4 -> 4.1, 4.6a; never 4.1 -> 4.10). */
export function clauseWithin(cited: string, wanted: string): boolean {
  return cited === wanted || cited.startsWith(`${wanted}.`);
}

/** `post /api/v1/...` or extra spaces still name the endpoint: the method upper-cased, spaces collapsed. */
export function normalizeEndpoint(text: string): string {
  const [method = '', ...rest] = text.trim().split(/\s+/);
  return [method.toUpperCase(), ...rest].join(' ');
}

export function isEmptySelection(selection: Selection | undefined): boolean {
  return !selection || (selection.grep === undefined && !selection.clauses?.length && !selection.endpoints?.length && selection.ids === undefined);
}

/** Whether the selection takes this test: every criterion given holds. */
export function selects(selection: Selection | undefined, test: Selectable): boolean {
  if (isEmptySelection(selection)) return true;
  const s = selection!;
  if (s.grep !== undefined && !new RegExp(s.grep, 'i').test(test.name)) return false;
  if (s.clauses?.length && !s.clauses.every((wanted) => cites(test, wanted))) return false;
  if (s.endpoints?.length && !s.endpoints.map(normalizeEndpoint).includes(test.endpoint)) return false;
  if (s.ids !== undefined && !s.ids.includes(testId(test.name))) return false;
  return true;
}

/** A problem with a selection's values (an unknown clause or endpoint, a broken pattern), as one line; undefined when valid. */
export function selectionProblem(selection: Selection): string | undefined {
  if (selection.grep !== undefined) {
    try {
      new RegExp(selection.grep, 'i');
    } catch (error) {
      return `--grep: not a regular expression (${(error as Error).message})`;
    }
  }
  for (const clause of selection.clauses ?? []) {
    if (!Object.keys(CLAUSES).some((known) => clauseWithin(known, clause)) && !isRuleItem(clause)) {
      const known = [...new Set([...Object.keys(CLAUSES), ...Object.keys(RULE_SECTIONS)])];
      return `--clause: the specification has no section "${clause}"; the sections are ${known.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).join(', ')}`;
    }
  }
  for (const endpoint of selection.endpoints ?? []) {
    if (!endpointById.has(normalizeEndpoint(endpoint))) {
      const path = endpoint.trim().split(/\s+/).pop() ?? '';
      const near = [...endpointById.keys()].filter((id) => id.endsWith(` ${path}`) || id.includes(path));
      return `--endpoint: no endpoint "${endpoint}"; write it as "METHOD /api/v1/path" with the specification's {placeholders}${near.length > 0 ? `, for example ${near.map((id) => `'${id}'`).join(', ')}` : ' (conformance list shows each test\'s endpoint)'}`;
    }
  }
  return undefined;
}

/** The selection as the command line wrote it, for reports and the terminal: `--clause 4.10 --endpoint '...'`. */
export function selectionText(selection: Selection, failedFrom?: string): string {
  const parts: string[] = [];
  if (selection.ids !== undefined) parts.push(failedFrom ? `--failed (${selection.ids.length} test(s) of ${failedFrom})` : selection.ids.map((id) => `--id ${id}`).join(' '));
  if (selection.grep !== undefined) parts.push(`--grep '${selection.grep}'`);
  for (const clause of selection.clauses ?? []) parts.push(`--clause ${clause}`);
  for (const endpoint of selection.endpoints ?? []) parts.push(`--endpoint '${normalizeEndpoint(endpoint)}'`);
  return parts.join(' ');
}
