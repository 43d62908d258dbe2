import { isCredentialValue, isSecretKey } from '../helpers/spec/credential-names.js';
import { MAX_JSON_DEPTH } from '../helpers/spec/quote.js';
import { REDACTED, redactTextWith, SecretList, TOO_DEEP } from '../helpers/net/redact.js';
import type { TestRecord } from './model.js';

/**
 * The report's own safety net against secrets, applied to every record before any file is written.
 * Exchanges are redacted as they are captured (helpers/net/redact.ts), but only secrets the worker
 * recognised: a nonconformant target may issue an access token of an unexpected shape, which then
 * shows up unredacted in its response, in a schema problem's value and in the failure message.
 * This pass finds secrets by where the specification puts them and removes them everywhere.
 */

/** Section 2.1: an access token `<numeric_id>|<secret>`. */
const TOKEN_SHAPE = /\b\d+\|[A-Za-z0-9]{16,}\b/g;
/** The endpoints that answer a Session, whose `id` is the access token (sections 4.1, 4.2, 2.1). */
const SESSION_PATH = /\/api\/v1\/authenticate(-jwt\/[^/?#]*)?(\?|$)/;

const MIN_SECRET_LENGTH = 6;

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function addCandidate(secrets: Set<string>, value: unknown): void {
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || value === REDACTED) return;
  secrets.add(value);
  const bar = value.indexOf('|');
  if (bar > 0 && value.length - bar > MIN_SECRET_LENGTH) secrets.add(value.slice(bar + 1));
}

/** Access tokens the target answered, wherever a Session may carry it: `data.id`, or `id` of a bare Session. */
export function sessionSecrets(tests: TestRecord[]): Set<string> {
  const secrets = new Set<string>();
  for (const test of tests) {
    for (const exchange of test.exchanges) {
      const body = exchange.response?.body as { data?: { id?: unknown }; id?: unknown } | undefined;
      if (!body || typeof body !== 'object' || !SESSION_PATH.test(pathOf(exchange.request.url))) continue;
      addCandidate(secrets, body.data?.id);
      addCandidate(secrets, body.id);
    }
  }
  return secrets;
}

/** Every secret at once (issue 29): the run's session tokens, every registered secret, the worker's patterns and access tokens by their shape. */
function scrubText(text: string, secrets: SecretList): string {
  return redactTextWith(text, { also: secrets, patterns: [TOKEN_SHAPE] });
}

function scrubValue(value: unknown, secrets: SecretList, key?: string, depth = 0): unknown {
  if (key !== undefined && isSecretKey(key) && isCredentialValue(key, value)) return REDACTED;
  if (typeof value === 'string') return scrubText(value, secrets);
  // A record nests a few levels above the target's JSON, which is bounded where it is read.
  if (value && typeof value === 'object' && depth >= MAX_JSON_DEPTH + 16) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets, undefined, depth + 1));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, secrets, k, depth + 1)]));
  return value;
}

/** A schema problem's value is a secret when its pointer ends in a secret key (a Session's id is caught by value). */
function problemValueIsSecret(pointer: string): boolean {
  const last = pointer.split('/').pop() ?? '';
  return isSecretKey(last);
}

/**
 * What identifies a test and ties it to the specification: written by the suite, never by the target,
 * and constrained by report.json's own schema (the id's pattern, the endpoint's, the outcome's enum).
 * Redaction never rewrites them: a configured secret that happens to be a word of a test's name
 * ("secret", "password") would otherwise corrupt the id, break coverage and make `render`, `diff`
 * and `certify` refuse the report. Secrets only ever travel in the exchanged content.
 */
const IDENTITY_FIELDS = ['id', 'name', 'group', 'file', 'line', 'endpoint', 'status', 'clauses', 'constraint', 'outcome', 'observedStatus', 'durationMs', 'rateLimited', 'failedLogins'] as const satisfies readonly (keyof TestRecord)[];

/** The names the suite gives a test's passwords in its reproductions (helpers/check/check.ts): $NEW_PASSWORD, $PASSWORD_2, ... */
const SUITE_VARIABLE = /^(NEW_)?PASSWORD(_\d+)?$/;

/** Every test record with the secrets the worker missed replaced by [REDACTED] in its content (exchanges, messages, findings). */
export function scrubRecords(tests: TestRecord[]): TestRecord[] {
  const secrets = new SecretList(sessionSecrets(tests));
  return tests.map((test) => {
    const scrubbed = scrubValue(test, secrets) as TestRecord;
    for (const field of IDENTITY_FIELDS) {
      if (field in test) (scrubbed as unknown as Record<string, unknown>)[field] = test[field];
    }
    // The shell variables a reproduction names for a body's passwords (Exchange.request.variables) are the suite's words,
    // under the body's own key (`password`), which the pass above reads as a credential and so redacted.
    test.exchanges.forEach((exchange, e) => {
      const variables = exchange.request.variables;
      const copy = scrubbed.exchanges[e]?.request;
      if (!variables || !copy?.variables) return;
      for (const [key, variable] of Object.entries(variables)) if (SUITE_VARIABLE.test(variable) && key in copy.variables) copy.variables[key] = variable;
    });
    scrubbed.failure?.schemaProblems.forEach((group, g) => {
      const original = test.failure!.schemaProblems[g]!;
      // The schema's name, the pointer and the rule (a JSON Schema keyword) are the suite's words too.
      group.schema = original.schema;
      group.problems.forEach((problem, p) => {
        problem.pointer = original.problems[p]!.pointer;
        problem.rule = original.problems[p]!.rule;
        if (problem.value !== undefined && problemValueIsSecret(problem.pointer)) problem.value = REDACTED;
      });
    });
    return scrubbed;
  });
}

/** Free text of the run (warnings) through the same patterns. */
export function scrubLines(lines: string[], tests: TestRecord[]): string[] {
  const secrets = new SecretList(sessionSecrets(tests));
  return lines.map((line) => scrubText(line, secrets));
}
