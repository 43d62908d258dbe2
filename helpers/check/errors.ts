import { expect } from 'vitest';
import type { CheckContext } from './check.js';
import { ERROR_FORMATS } from '../spec/error-formats.js';
import type { ApiResponse } from '../net/http.js';
import { JSON_MEDIA_TYPE } from '../spec/media-type.js';

/**
 * The error answers of sections 5.6 and 7, asserted one way for every endpoint group:
 * `{ error }` for 401, `{ message }` for 403/404/409 (the inactive account's 403 either), `{ message, errors }` for 422 (the formats:
 * helpers/spec/error-formats.ts).
 */

/**
 * Where the specification is silent, a server error is still never a conformant answer (docs/judging.md,
 * "Judgements beyond the letter"): a 5xx says the server failed, not that it answered the request, as
 * every API fuzzer treats it.
 */
export function expectNoServerError(response: ApiResponse): void {
  expect(response.status, `a 5xx is a server error, never a conformant answer, even where the specification is silent; got ${response.status}`).toBeLessThan(500);
}

/** Section 5.6: the message of an unauthorized action, given exactly. */
export const UNAUTHORIZED = 'This action is unauthorized.';

/** Section 5.6: another user's resources answer 403 or 409. */
export const OTHER_USER: number[] = [403, 409];

/** Section 5.6: 403 or 409 (or the statuses given) with exactly "This action is unauthorized.". */
export function expectUnauthorized(t: CheckContext, response: ApiResponse, statuses: number[] = OTHER_USER): void {
  t.expectStatus(response, statuses);
  const body = t.expectSchema(response, ERROR_FORMATS.message);
  expect(body.message, `section 5.6: the message must be "${UNAUTHORIZED}"`).toBe(UNAUTHORIZED);
}

/**
 * Sections 5.6 and 7: 403 for an inactive account, "a message that the account is inactive". Its member is open
 * (issue 28, review-o): section 7 gives `{ error }` for "authentication failures" and `{ message }` for "most other
 * errors", and an inactive account may be refused by its authentication, so either member passes (`{ message }` the
 * reading expected, `{ error }` advised on), as for the 412 and 416 of a JWT login. The text is not given, so what
 * fails is a message that says nothing (blank) or says something else (the unauthorized text), or an answer with
 * neither member; a message without the word "inactive" is only advised on (rule S332 quotes exactly this).
 */
export function expectInactive(t: CheckContext, response: ApiResponse): void {
  t.expectStatus(response, 403);
  const body = t.expectSchema(response, ERROR_FORMATS.inactive);
  const message: unknown = typeof body.message === 'string' ? body.message : body.error;
  if (typeof body.message !== 'string') t.advise('the 403 for an inactive account is written { error } rather than { message }: section 7 gives { error } for "authentication failures" and { message } for "most other errors", and section 5.6 says only "with a message", so either is accepted');
  expect(String(message).trim(), 'section 5.6: the 403 for an inactive account carries "a message that the account is inactive", not a blank message').not.toBe('');
  expect(message, `section 5.6: the 403 for an inactive account carries "a message that the account is inactive", not "${UNAUTHORIZED}"`).not.toBe(UNAUTHORIZED);
  if (!/inactive/i.test(String(message))) t.advise(`the 403 for an inactive account says ${JSON.stringify(message)}, without the word "inactive" (section 5.6: a message that the account is inactive)`);
}

/** Section 7: 404 `{ message }` for a record that is not there, the message saying "no query results". */
export function expectNotFound(t: CheckContext, response: ApiResponse, what = 'the record'): void {
  t.expectStatus(response, 404);
  const body = t.expectSchema(response, ERROR_FORMATS.message);
  expect(body.message, `section 7: the 404 for ${what} must say "no query results"`).toMatch(/no query results/i);
}

/**
 * A delete's 404, which 4.10 does not list (a lookup scoped to the user's records: advised on by the caller): section 7
 * gives `{ message }` to "most other errors" and "no query results" to the shows' 404 only, so its body is the target's
 * own (review-at F5: `abort(404, 'Bank not found.')`; review-au F4: Spring Boot's default `{ timestamp, status, error,
 * path }`): any JSON object. One that is not JSON is probably not the interface's: the reason for not verified, which
 * the caller notes; undefined when it is judged.
 */
export function undocumentedDelete404(t: CheckContext, response: ApiResponse, what: string): string | undefined {
  const notInterface = notInterfaceAnswer(response, what);
  if (notInterface) return notInterface;
  const body = response.json;
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), `${what}: a 404 answer must be a JSON object (section 1.2), got ${JSON.stringify(body)?.slice(0, 100)}`).toBe(true);
  if (typeof (body as { message?: unknown }).message !== 'string') t.advise(`${what} was answered 404 with ${JSON.stringify(Object.keys(body as object))} and no message member (a framework's default error body); section 7 gives { message } to most errors, and a delete no 404`);
  return undefined;
}

/**
 * Section 7: 422 `{ message, errors }` whose errors map names the invalid field.
 *
 * `fields` as a list: the request breaks the rules of several fields at once (a missing expirationDate is
 * also a missing expirationMonth and expirationYear; a malformed e-mail on reset-password also makes the
 * token invalid for it). Section 7 gives the map's shape, not which of the failing fields it must name,
 * so any one of them passes; the first is the reading the suite expects, and a map without it is
 * advised on, naming the fields that came. Answers the errors map.
 */
export function expectValidationError(t: CheckContext, response: ApiResponse, fields: string | readonly string[]): Record<string, string[]> {
  t.expectStatus(response, 422);
  const { errors } = t.expectSchema(response, ERROR_FORMATS.validation) as { errors: Record<string, string[]> };
  const keys = Object.keys(errors);
  if (typeof fields === 'string') {
    expect(keys, `section 7: the 422 errors map must be keyed by the invalid field "${fields}"`).toContain(fields);
    return errors;
  }
  const named = fields.filter((field) => keys.includes(field));
  expect(named.length > 0, `section 7: the request breaks the rules of ${fields.join(', ')}, so the 422 errors map must be keyed by one of them; it has ${keys.join(', ') || 'no key'}`).toBe(true);
  if (!named.includes(fields[0]!)) t.advise(`${describeKeys(named)} the 422 (not ${fields[0]}); the request breaks the rules of ${fields.join(', ')}, and section 7 does not say which of them the errors map names`);
  return errors;
}

/** "expirationMonth keys" / "expirationMonth and expirationYear key". */
function describeKeys(named: readonly string[]): string {
  return named.length === 1 ? `${named[0]} keys` : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]} key`;
}

/**
 * docs/judging.md "Other JSON types": where only a refusal is due (a field sent as another JSON type, for which no
 * section names a 422), any 4xx passes; a 422 keyed by `field` is the reading expected, and another refusal (another
 * key, another status) is advised on. A success or a 5xx fails.
 */
export function expectRefused(t: CheckContext, response: ApiResponse, field: string, what: string): void {
  expectNoServerError(response);
  expect(response.status >= 400, `${what} must be refused (4xx); got ${response.status}`).toBe(true);
  if (response.status === 422) {
    const { errors } = t.expectSchema(response, ERROR_FORMATS.validation) as { errors: Record<string, string[]> };
    if (!Object.keys(errors).includes(field)) t.advise(`${what} was answered 422 with errors not keyed by ${field} (${Object.keys(errors).join(', ')})`);
    return;
  }
  t.expectStatus(response, response.status);
  t.advise(`${what} was answered ${response.status}; 422 keyed by ${field} was expected, but only a success is wrong under every reading`);
}

/**
 * Principle 7 where the specification leaves the status open (round wb19, the lead's judgement): an error answer that is
 * not JSON there may come from something in front of the interface (a framework's router, a WAF, a gateway) rather than
 * from the interface. Nothing passes against an answer that is not the interface's, and it is no nonconformance either
 * (section 1.2's "responses are JSON" is said of the interface's answers): the test is not verified, with the reason.
 * Undefined for a JSON answer or one below 400; else the reason (`what` names the request).
 */
export function notInterfaceAnswer(response: ApiResponse, what: string): string | undefined {
  if (response.status < 400) return undefined;
  const type = response.headers['content-type'];
  if (response.isJson && JSON_MEDIA_TYPE.test(String(type ?? ''))) return undefined;
  return `not verified: ${what} was answered ${response.status} with an answer that is not JSON (Content-Type ${JSON.stringify(type ?? null)}), probably from something in front of the interface (a router, a WAF, a gateway), not the interface; where the specification leaves the status open, nothing passes or fails against an answer that is not the interface\u2019s (principle 7; docs/judging.md, "An error answer that is not JSON where the status is open")`;
}
