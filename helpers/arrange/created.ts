import { expect } from 'vitest';
import type { CheckContext } from '../check/check.js';
import type { ApiResponse } from '../net/http.js';

/**
 * Sections 1.4, 2.4 and 2.5: a record's `createdAt` is its creation in Unix seconds, an absolute instant whatever
 * the server's time zone. The answer of the create that made it is dated by the target's own clock (the HTTP `Date`
 * header, whole seconds, rounded down), so `createdAt` is compared with that rather than with the suite's clock: no
 * skew between the two machines can fail it (as the Session's `created`, suites/authentication.test.ts). The
 * tolerance covers the time between storing the record and answering.
 */
export const CREATED_AT_NEAR_DATE_S = 10;

/**
 * Judges the `createdAt` of the record a create answer carries against that answer's own `Date`. Without a `Date`
 * header nothing can be compared: advised on, never failed. Far from `Date` but within the tolerance of the suite's
 * clock is a gateway in front of the target dating the answers by its own clock (principle 7: the road is not
 * judged): advised on. Far from both fails: an hour ahead is a local time written as Unix seconds.
 */
export function expectCreatedAtNearDate(t: CheckContext, response: ApiResponse, createdAt: unknown, what: string): void {
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return; // the schema judges the type
  const header = response.headers.date;
  const date = Date.parse(typeof header === 'string' ? header : '');
  if (Number.isNaN(date)) {
    t.advise(`the ${what} create answer carries no HTTP Date header (${JSON.stringify(header ?? null)}), so data.createdAt could not be compared with the target's own clock`);
    return;
  }
  const offset = createdAt - Math.floor(date / 1000);
  // Date is whole seconds rounded down, as createdAt: either may be a second ahead of the other.
  const near = Math.abs(offset) <= CREATED_AT_NEAR_DATE_S + 1;
  if (near) return;
  // A whole minute within a minute of Date: the creation stored at a minute's precision (SQL Server's smalldatetime
  // rounds to the nearest minute, a truncating column keeps the minute begun). 1.4 gives the unit, Unix seconds, not
  // the precision of what is stored: advised on (reading round r16, allowed-r16-created-at-smalldatetime-minute).
  if (createdAt % 60 === 0 && Math.abs(offset) <= 60 + 1) {
    t.advise(`the ${what}'s data.createdAt (${createdAt}) is a whole minute, ${offset} s from the answer's Date (${header}): the creation seems stored to the minute (1.4 gives Unix seconds as the unit, not the precision)`);
    return;
  }
  const fromSuite = createdAt - Math.floor(Date.now() / 1000);
  if (Math.abs(fromSuite) <= CREATED_AT_NEAR_DATE_S + 1) {
    t.advise(`the ${what}'s data.createdAt (${createdAt}) is ${offset} s from the answer's Date (${header}) but within ${CREATED_AT_NEAR_DATE_S} s of the suite's clock: the Date seems set by another clock (a gateway in front of the target?)`);
    return;
  }
  expect(
    near,
    `sections 1.4/2.4/2.5: the ${what}'s data.createdAt is ${offset} s from the Date of its own create answer (${isZoneOffset(offset) ? 'a time-zone offset: a local time written as Unix seconds?' : 'if a gateway in front of the target dates the answers, its clock and the target\u2019s differ by that much'}); within ${CREATED_AT_NEAR_DATE_S} s is expected, as createdAt is the creation in Unix seconds (createdAt ${createdAt}, Date ${header})`,
  ).toBe(true);
}

/** Whether an offset lies within the tolerance of a whole number of quarter hours (zone offsets: +1:00, +5:30, +5:45), either side. */
function isZoneOffset(offset: number): boolean {
  const tolerance = CREATED_AT_NEAR_DATE_S + 1;
  if (Math.abs(offset) < 900 - tolerance) return false;
  const rest = Math.abs(offset) % 900;
  return Math.min(rest, 900 - rest) <= tolerance;
}
