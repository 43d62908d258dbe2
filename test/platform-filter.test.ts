import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../helpers/check/check.js';
import { expectPlatformFilter, type FilterPlatform } from '../helpers/check/filters.js';
import { ApiResponse } from '../helpers/net/http.js';

/**
 * helpers/check/filters.ts expectPlatformFilter: the company and platform filters judged on a user's records on two
 * platforms, sent each platform's code, ID and name (docs/judging.md, "Judgements beyond the letter"). A list answered by a
 * fake target that compares the filter one way; the context records advisories and skips.
 */

interface Platform extends FilterPlatform {
  name: string;
}

const A: Platform = { id: 'id-a', code: 'REF', name: 'Reference Platform', ids: ['a1', 'a2'] };
const B: Platform = { id: 'id-b', code: 'PXYZ', name: 'Other Platform', ids: ['b1'] };

class Skipped extends Error {}

function context() {
  const advisories: string[] = [];
  const t = {
    advise: (message: string) => advisories.push(message),
    skip: (reason: string) => {
      throw new Skipped(reason);
    },
    expectStatus: (response: ApiResponse, expected: number | number[]) => expect([expected].flat()).toContain(response.status),
    expectSchema: (response: ApiResponse) => response.json,
  } as unknown as CheckContext;
  return { t, advisories };
}

const answer = (status: number, body: unknown) => new ApiResponse(status, { 'content-type': 'application/json' }, JSON.stringify(body), { ok: true, value: body });

/** A target whose filter compares `by` (or lists everything when `by` is 'ignored', nothing when 'nothing', or refuses unknown values with 422 when `refuse`). */
function target(platforms: Platform[], by: 'code' | 'id' | 'name' | 'ignored' | 'nothing', refuse = false) {
  const records = platforms.flatMap((p) => p.ids.map((id) => ({ id, externalPlatform: { code: p.code, name: p.name, url: 'https://x.test' } })));
  return async (query?: Record<string, string>) => {
    const value = query ? Object.values(query)[0] : undefined;
    if (value === undefined || by === 'ignored') return answer(200, { data: records });
    if (by === 'nothing') return answer(200, { data: [] });
    const platform = platforms.find((p) => (by === 'code' ? p.code : by === 'id' ? p.id : p.name) === value);
    if (!platform && refuse) return answer(422, { message: 'The given data was invalid.', errors: { company: ['The selected company is invalid.'] } });
    return answer(200, { data: records.filter((r) => platform && r.externalPlatform.code === platform.code) });
  };
}

async function judge(platforms: Platform[], by: Parameters<typeof target>[1], refuse = false) {
  const { t, advisories } = context();
  await expectPlatformFilter(t, { filter: 'company', platforms, schema: 'bank-list-response', state: 'bank.two-platforms', list: target(platforms, by, refuse), platformOf: (r) => r.externalPlatform });
  return advisories;
}

describe('expectPlatformFilter (4.10, 4.6a, 4.11)', () => {
  it('passes a filter compared with the code, the ID or the name, and advises on the ID and the name', async () => {
    expect(await judge([A, B], 'code')).toEqual([]);
    expect((await judge([A, B], 'id')).join('\n')).toMatch(/compares a platform's ID/);
    expect((await judge([A, B], 'name')).join('\n')).toMatch(/compares a platform's name/);
    expect((await judge([A, B], 'name', true)).join('\n')).toMatch(/refused with 422 keyed by company/);
  });

  it('fails a filter that is ignored, and one that lists nothing for the code, the ID and the name', async () => {
    await expect(judge([A, B], 'ignored')).rejects.toThrow(/must list none of the user's records on platform/);
    await expect(judge([A, B], 'nothing')).rejects.toThrow(/must list the user's records on platform REF when given its code \(REF\), its ID \(id-a\) or its name/);
  });

  it('does not send a name two platforms share, and reports a target that lists nothing by code or ID as not verified', async () => {
    const twin = { ...B, name: A.name };
    await expect(judge([A, twin], 'name')).rejects.toThrow(Skipped);
    expect((await judge([A, twin], 'code')).join('\n')).toMatch(/do not show one distinct externalPlatform.name/);
  });
});
