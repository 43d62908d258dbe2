import { storedForm } from '../helpers/spec/normalisation.js';
import { OTHER_USER, UNAUTHORIZED } from '../helpers/check/errors.js';
import type { ApiResponse } from '../helpers/net/http.js';
import { schemaProblems } from '../helpers/spec/schemas.js';
import type { Probe } from './engine.js';
import { describeSecret, describeText, type Verdict } from './values.js';

/**
 * Judgement of one answer, as the suites judge: what the specification states fails (an Error),
 * what it leaves open is an advisory.
 */

export class Nonconformance extends Error {
  override name = 'Nonconformance';
}

/** The keys of a 422 `{ message, errors }` answer; empty for any other answer. */
export function errorKeys(response: ApiResponse): string[] {
  if (response.status !== 422 || !response.isJson) return [];
  const errors = response.json?.errors;
  return errors && typeof errors === 'object' && !Array.isArray(errors) ? Object.keys(errors) : [];
}

function answer(response: ApiResponse): string {
  const keys = errorKeys(response);
  return keys.length > 0 ? `422 keyed by ${keys.join(', ')}` : `${response.status}${response.isJson ? ` ${JSON.stringify(response.json).slice(0, 160)}` : ''}`;
}

/** Section 7: a value outside a rule of section 4/8 is refused with 422 `{ message, errors }` keyed by its field. */
export function expectRefusedFor(response: ApiResponse, field: string, rule: string): void {
  const problems = response.status === 422 && response.isJson ? schemaProblems('error-validation', response.json) : [];
  if (response.status === 422 && problems.length > 0) throw new Nonconformance(`the 422 is not { message, errors } (section 7): ${problems.map((p) => `${p.pointer} ${p.message}`).join('; ')}`);
  if (!errorKeys(response).includes(field)) throw new Nonconformance(`${field} breaks "${rule}", so the answer must be 422 keyed by ${field} (sections 7 and 8); got ${answer(response)}`);
}

/**
 * Section 7 for a value that breaks the rules of several fields at once (a malformed e-mail on
 * reset-password also makes the token invalid for it): 422 keyed by any of `fields`; a map without the
 * first (the reading expected) is advised on, naming what came.
 */
export function expectRefusedForAny(probe: Probe, response: ApiResponse, fields: readonly [string, ...string[]], rule: string): void {
  const named = fields.filter((field) => errorKeys(response).includes(field));
  expectRefusedFor(response, named[0] ?? fields[0], rule);
  if (!named.includes(fields[0])) probe.advise(`${fields[0]} breaks "${rule}" and the 422 is keyed by ${named.join(', ')}, not ${fields[0]}; the request breaks the rules of ${fields.join(' and ')}, and section 7 does not say which the errors map names`, `422 keyed by ${named.join(', ')}`);
}

/** A server error is never a conformant answer, even where the specification is silent (docs/judging.md). */
function expectNoServerError(response: ApiResponse, what: string): void {
  if (response.status >= 500) throw new Nonconformance(`${what} was answered ${response.status}: a server error is never a conformant answer`);
}

/** A value inside the rules of its field must never be refused for that field (nor answered with a server error). */
export function expectNotRefusedFor(response: ApiResponse, field: string, rule: string): void {
  expectNoServerError(response, `${field} inside "${rule}"`);
  if (errorKeys(response).includes(field)) throw new Nonconformance(`${field} keeps "${rule}", yet the answer is 422 keyed by ${field}`);
}

/** A value for a message: a secret (a password) by its shape only, never its value. */
function describe(value: unknown, secret: boolean): string {
  return secret ? describeSecret(value) : describeText(value);
}

/**
 * Applies a verdict: inside values must not be refused for the field, outside values must be, and
 * ambiguous ones are only advised on when the answer differs from the plainest reading (code points).
 */
export function judgeRule(probe: Probe, response: ApiResponse, field: string, rule: string, verdict: Verdict, value: unknown, plainInside: boolean, secret = false): void {
  if (verdict === 'inside') return expectNotRefusedFor(response, field, rule);
  if (verdict === 'outside') return expectRefusedFor(response, field, rule);
  expectNoServerError(response, `${field} ${describe(value, secret)}`);
  const refused = errorKeys(response).includes(field);
  if (refused === plainInside) {
    probe.advise(`${field} ${describe(value, secret)} is ${refused ? 'refused' : 'not refused'} for "${rule}": whether it keeps the rule depends on a reading the specification leaves open (characters outside the BMP, trimmed ends, normalisation, case, grapheme clusters, an empty value as none)`, `${field} ${refused ? 'refused' : 'not refused'} for "${rule}"`);
  }
}

/**
 * A JSON value of another type than the documented string: 422 keyed by the field is the answer
 * section 7 gives to an invalid field. `must422`: section 7 names 422 for this endpoint's invalid
 * fields (bank create), so any other answer fails; elsewhere a success fails only when it stores the
 * value, and another refusal is an advisory.
 */
export function judgeType(probe: Probe, response: ApiResponse, field: string, value: unknown, must422: boolean, optional = false, secret = false): void {
  if (errorKeys(response).includes(field)) return;
  // null, an empty array or an empty object for an optional (nullable) field may be read as no value at all: nothing to judge.
  const empty = value === null || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && Object.keys(value).length === 0);
  if (optional && empty) return;
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  expectNoServerError(response, `${field} as a JSON ${kind}`);
  // A JSON number where a string is documented may be read as its digits (docs/judging.md: numbers are advised on, never
  // failed; allowed-banks-numeric-currency-accepted), whatever the field (review-an F5).
  if (kind === 'number') {
    probe.advise(`${field} as a JSON number is answered ${response.status}${errorKeys(response).length > 0 ? '' : `, not 422 keyed by ${field}`}; the specification documents a string, and a number may be taken as its digits, so not judged`);
    return;
  }
  if (must422 || (response.status >= 200 && response.status < 300)) {
    throw new Nonconformance(`${field} is a JSON ${kind}${secret ? '' : ` (${JSON.stringify(value)})`} where the specification documents a string; the answer must be 422 keyed by ${field}, got ${answer(response)}`);
  }
  probe.advise(`${field} as a JSON ${kind} is answered ${response.status}, not 422 keyed by ${field}; the specification documents a string but names no status for other types here`);
}

/** Section 4's success status; anything else fails, naming what came. */
export function expectStatus(response: ApiResponse, status: number, what: string): void {
  if (response.status !== status) throw new Nonconformance(`${what} must answer ${status}; got ${answer(response)}`);
}

/** The response body against a schema of schemas/ (the single source of truth for shapes). */
export function expectShape(response: ApiResponse, schema: string): any {
  const body = response.isJson ? response.json : undefined;
  const problems = schemaProblems(schema, body);
  if (problems.length > 0) throw new Nonconformance(`the ${response.status} answer does not match ${schema}: ${problems.slice(0, 3).map((p) => `${p.pointer} ${p.message}`).join('; ')}`);
  return body;
}

/** A stored text compared with the one sent (helpers/spec/normalisation.ts storedForm, as the suites compare it): equal passes; equal once trimmed, normalised (NFC, NFD; the text sent in NFKC or without invisible format characters) or case-folded is an advisory; else it fails. */
export function expectStoredAsSent(probe: Probe, field: string, stored: unknown, sent: string): void {
  if (stored === sent) return;
  const form = storedForm(stored, sent, field);
  if (form === 'equivalent') {
    probe.advise(`${field} is stored in an equivalent form its standard defines (${describeText(stored)} for ${describeText(sent)}); the specification does not say whether a server may`, `${field} stored in an equivalent form`);
    return;
  }
  if (form === 'normalised') {
    probe.advise(`${field} is stored trimmed, normalised (NFC, NFD, NFKC), without invisible format characters${field === 'holderName' ? ', transliterated to Latin letters' : ''} or in another case (${describeText(stored)} for ${describeText(sent)}); the specification does not say whether a server may`, `${field} stored in another form`);
    return;
  }
  throw new Nonconformance(`${field} must be stored as sent: sent ${describeText(sent)}, stored ${describeText(stored)}`);
}

/**
 * Section 5.6: a {user} path segment that is not the caller's answers 403 or 409 with "This action is
 * unauthorized."; for an id that names no user at all, 404 is also a reading (advised on).
 */
export function expectOtherUserRefused(probe: Probe, response: ApiResponse, what: string): void {
  // A drawn UUID names no user: an input no section speaks of (docs/judging.md, "Precedence of errors"), which a target may
  // refuse with 404, 422 keyed by user (exists:users,id) or a router's 400: any client error but 401 is advised on (review-an F6).
  if (response.status >= 400 && response.status < 500 && response.status !== 401 && !OTHER_USER.includes(response.status)) {
    probe.advise(`${what} under a user id that names no user answers ${response.status}; section 5.6 gives 403 or 409 for another user's resources, and says nothing of a user that does not exist`);
    return;
  }
  if (!OTHER_USER.includes(response.status)) throw new Nonconformance(`${what} under a user id that is not the caller's must answer 403 or 409 (section 5.6); got ${answer(response)}`);
  const body = expectShape(response, 'error-message');
  if (body.message !== UNAUTHORIZED) throw new Nonconformance(`${what} under another user id: the message must be "${UNAUTHORIZED}" (section 5.6), got ${JSON.stringify(body.message)}`);
}
