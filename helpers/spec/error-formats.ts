import type { Group } from './catalogue.js';

/**
 * Section 7's error formats, as the schemas (schemas/) that hold them. Free of vitest: helpers/check/errors.ts
 * reads the format names, and the OpenAPI export (helpers/spec/openapi.ts) also the rule (errorFormat).
 */
export const ERROR_FORMATS = {
  /** `{ error }`: authentication failures, and 401 on protected endpoints. */
  auth: 'error-auth',
  /** `{ message }`: most other errors. */
  message: 'error-message',
  /** 422: `{ message, errors }`. */
  validation: 'error-validation',
  /** 412 and 416 of authenticate-jwt: section 7 gives { error } and { message } without settling which, so either. */
  jwt: 'error-jwt',
  /**
   * 403 of bank, bonus and card endpoints, which section 7 gives for an inactive account (and 5.6 for an unauthorized
   * action): an inactive account is refused by its authentication (section 7: "{ error: string } for authentication
   * failures") or as another error ("{ message: string } for most other errors"), and 5.6 says only "with a message", so
   * either (issue 28, review-o; `{ error }` advised on).
   */
  inactive: 'error-inactive',
} as const;

/** Section 7: the format of an error status answered by an endpoint of `group` ("Where" in its table). */
export function errorFormat(group: Group, status: number): (typeof ERROR_FORMATS)[keyof typeof ERROR_FORMATS] {
  if (status === 422) return ERROR_FORMATS.validation;
  if (status === 412 || status === 416) return ERROR_FORMATS.jwt;
  // "Where: authentication" is the two logins; logout, in the same group, answers only 401.
  if (status === 401 || group === 'authentication') return ERROR_FORMATS.auth;
  if (status === 403 && (group === 'banks' || group === 'bonuses' || group === 'cards')) return ERROR_FORMATS.inactive;
  return ERROR_FORMATS.message;
}
