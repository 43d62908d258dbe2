import { expect } from 'vitest';
import type { CheckContext } from './check.js';
import { ERROR_FORMATS } from '../spec/error-formats.js';
import type { ApiResponse } from '../net/http.js';

/**
 * The error answers of sections 5.6 and 7, asserted one way for every endpoint group:
 * `{ error }` for 401, `{ message }` for 403/404/409, `{ message, errors }` for 422 (the formats:
 * helpers/spec/error-formats.ts).
 */

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
 * Sections 5.6 and 7: 403 `{ message }` for an inactive account, "a message that the account is
 * inactive". The text is not given, so the unauthorized text (which says something else) fails and a
 * message without the word "inactive" is only advised on.
 */
export function expectInactive(t: CheckContext, response: ApiResponse): void {
  t.expectStatus(response, 403);
  const body = t.expectSchema(response, ERROR_FORMATS.message);
  expect(body.message, `section 5.6: the 403 for an inactive account carries "a message that the account is inactive", not "${UNAUTHORIZED}"`).not.toBe(UNAUTHORIZED);
  if (!/inactive/i.test(String(body.message))) t.advise(`the 403 for an inactive account says ${JSON.stringify(body.message)}, without the word "inactive" (section 5.6: a message that the account is inactive)`);
}

/** Section 7: 404 `{ message }` for a record that is not there, the message saying "no query results". */
export function expectNotFound(t: CheckContext, response: ApiResponse, what = 'the record'): void {
  t.expectStatus(response, 404);
  const body = t.expectSchema(response, ERROR_FORMATS.message);
  expect(body.message, `section 7: the 404 for ${what} must say "no query results"`).toMatch(/no query results/i);
}

/** Section 7: 422 `{ message, errors }` whose errors map names `field`. */
export function expectValidationError(t: CheckContext, response: ApiResponse, field: string): void {
  t.expectStatus(response, 422);
  const { errors } = t.expectSchema(response, ERROR_FORMATS.validation) as { errors: Record<string, string[]> };
  expect(Object.keys(errors), `section 7: the 422 errors map must be keyed by the invalid field "${field}"`).toContain(field);
}
