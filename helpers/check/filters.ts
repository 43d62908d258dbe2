import type { CheckContext } from './check.js';
import { expectValidationError } from './errors.js';
import type { ApiResponse } from '../net/http.js';

/**
 * The list filters of sections 4.10, 4.6a and 4.11 are "optional filters, strings"; what a value gets
 * that no record has, or that the server does not know, is not said, nor what `company` and `platform`
 * are compared with (a record's platform code, or the platform ID of section 4.1, which makes a code
 * unknown). 200 with the list (and where the filter matches, no record that does not match) and 422
 * keyed by the filter (section 7's answer to an invalid field) both hold; the 422 is advised on, as the
 * less natural reading of an optional filter.
 * Answers the listed records, or undefined for the 422 (nothing left to judge).
 */
export function expectFilteredList<T = Record<string, any>>(t: CheckContext, response: ApiResponse, filter: string, value: string, schema: string): T[] | undefined {
  if (response.status === 422) {
    expectValidationError(t, response, filter);
    t.advise(`${filter}=${JSON.stringify(value)} is refused with 422 keyed by ${filter} rather than answered 200 with the records that match; the specification gives ${filter} as an optional string filter and does not say what a value no record has, or one the service does not know, gets`);
    return undefined;
  }
  t.expectStatus(response, 200);
  return (t.expectSchema(response, schema) as { data: T[] }).data;
}
