import { describe, expect, it } from 'vitest';
import { CREATED_AT_NEAR_DATE_S, expectCreatedAtNearDate } from '../helpers/arrange/created.js';
import type { CheckContext } from '../helpers/check/check.js';
import type { ApiResponse } from '../helpers/net/http.js';

// helpers/arrange/created.ts: a record's createdAt against the Date of its create answer. The branches that advise
// (no Date, a Date of another clock) are what keeps a correct target behind a gateway from failing (principle 7).
function judge(createdAt: number, date: string | undefined): { advised: string[]; failure: string | null } {
  const advised: string[] = [];
  const t = { advise: (message: string) => advised.push(message) } as unknown as CheckContext;
  const response = { headers: date === undefined ? {} : { date } } as unknown as ApiResponse;
  try {
    expectCreatedAtNearDate(t, response, createdAt, 'bank');
    return { advised, failure: null };
  } catch (error) {
    return { advised, failure: (error as Error).message };
  }
}

const now = () => Math.floor(Date.now() / 1000);
const httpDate = (seconds: number) => new Date(seconds * 1000).toUTCString();

describe('createdAt against the answer\u2019s Date (sections 1.4, 2.4, 2.5)', () => {
  it('passes a createdAt within the tolerance of Date, either side, and across a second boundary', () => {
    const date = now() - 3600; // the target's clock, an hour from the suite's: only Date counts
    for (const offset of [0, 1, -1, CREATED_AT_NEAR_DATE_S, -CREATED_AT_NEAR_DATE_S - 1]) {
      expect(judge(date + offset, httpDate(date))).toEqual({ advised: [], failure: null });
    }
  });

  it('advises, never fails, without a Date header or with one that is no date', () => {
    for (const header of [undefined, 'yesterday']) {
      const { advised, failure } = judge(now() + 7200, header);
      expect(failure).toBeNull();
      expect(advised).toHaveLength(1);
    }
  });

  it('advises, never fails, when Date is far but the suite\u2019s clock is near (a gateway dating the answers)', () => {
    const { advised, failure } = judge(now(), httpDate(now() - 120));
    expect(failure).toBeNull();
    expect(advised.join()).toMatch(/gateway/);
  });

  it('fails a local time written as Unix seconds, naming the zone offset (whole and quarter hours)', () => {
    for (const offset of [3600, 3600 - 8, -7200, 19800, 20700]) {
      const date = now() - 100_000;
      const { failure } = judge(date + offset, httpDate(date));
      expect(failure).toMatch(/time-zone offset/);
    }
    const date = now() - 100_000;
    expect(judge(date + 120, httpDate(date)).failure).toMatch(/gateway in front/);
  });

  it('advises, never fails, a whole minute within a minute of Date (the creation stored to the minute: round r16)', () => {
    const minute = now() - 100_000 - ((now() - 100_000) % 60);
    const date = minute + 25;
    for (const stored of [minute, minute + 60]) {
      const { advised, failure } = judge(stored, httpDate(date));
      expect(failure).toBeNull();
      expect(advised.join(), `${stored - date} s`).toMatch(/a whole minute/);
    }
    // Not a whole minute, 30 s off: no precision explains it.
    expect(judge(date + 30, httpDate(date)).failure).toMatch(/within 10 s is expected/);
  });

  it('leaves a createdAt that is no number to the schema', () => {
    expect(judge('1795660862' as unknown as number, httpDate(now()))).toEqual({ advised: [], failure: null });
  });
});
