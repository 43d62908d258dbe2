import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../helpers/check/check.js';
import { expectArrangedCompany, expectPlatformFilter, type FilterPlatform } from '../helpers/check/filters.js';
import { ApiResponse } from '../helpers/net/http.js';

/**
 * helpers/check/filters.ts expectPlatformFilter: the company and platform filters judged on a user's records on two
 * platforms, sent each platform's code, ID, name and url host (docs/judging.md, "Judgements beyond the letter"); for
 * company only what holds under every reading (reading round r12). A list answered by a fake target that compares the
 * filter one way; the context records advisories and skips.
 */

interface Platform extends FilterPlatform {
  name: string;
  url?: string;
}

const A: Platform = { id: 'id-a', code: 'REF', name: 'Reference Platform', ids: ['a1', 'a2'] };
const B: Platform = { id: 'id-b', code: 'PXYZ', name: 'Other Platform', ids: ['b1'] };
const hosted = (p: Platform, host: string): Platform => ({ ...p, url: `https://${host}/` });

class Skipped extends Error {}

function context() {
  const advisories: string[] = [];
  const notes: string[] = [];
  const t = {
    advise: (message: string) => advisories.push(message),
    note: (message: string) => notes.push(message),
    skip: (reason: string) => {
      throw new Skipped(reason);
    },
    expectStatus: (response: ApiResponse, expected: number | number[]) => expect([expected].flat()).toContain(response.status),
    expectSchema: (response: ApiResponse) => response.json,
  } as unknown as CheckContext;
  return { t, advisories, notes };
}

const answer = (status: number, body: unknown) => new ApiResponse(status, { 'content-type': 'application/json' }, JSON.stringify(body), { ok: true, value: body });

type Identifier = 'code' | 'id' | 'name' | 'host';
type Reading = Identifier | `${Identifier}+ignored` | `${Identifier}+first` | 'ignored' | 'nothing' | 'everything-but-unknown' | 'twice' | 'foreign';

/**
 * A target whose filter compares `by` (or lists everything when `by` is 'ignored', nothing when 'nothing', every record
 * for a known value when 'everything-but-unknown', the code's records twice when 'twice', another user's record beside
 * them when 'foreign'), refusing unknown values with 422 when `refuse`. `<identifier>+ignored` compares that one
 * identifier and ignores a value it does not resolve (every record listed: review-aa, fix-aa3); `<identifier>+first`
 * answers such a value with the records of the first platform (a fall-back to the account's own platform).
 */
function target(platforms: Platform[], reading: Reading, refuse = false) {
  const [by, unresolved] = reading.split('+') as [Reading, 'ignored' | 'first' | undefined];
  const records = platforms.flatMap((p) => p.ids.map((id) => ({ id, externalPlatform: { code: p.code, name: p.name, url: p.url ?? 'https://x.test' } })));
  return async (query?: Record<string, string>) => {
    const value = query ? Object.values(query)[0] : undefined;
    if (value === undefined || by === 'ignored') return answer(200, { data: records });
    if (by === 'nothing') return answer(200, { data: [] });
    if (by === 'everything-but-unknown') return answer(200, { data: value === 'no-such-value-0000' ? [] : records });
    const same = (p: Platform) => (by === 'id' ? p.id : by === 'name' ? p.name : by === 'host' ? new URL(p.url ?? 'https://x.test').hostname : p.code) === value;
    const platform = platforms.find(same);
    const listed = records.filter((r) => platform && r.externalPlatform.code === platform.code);
    if (by === 'twice') return answer(200, { data: [...listed, ...listed] });
    if (by === 'foreign') return answer(200, { data: [...listed, { id: 'someone-else', externalPlatform: records[0]!.externalPlatform }] });
    const key = query ? Object.keys(query)[0]! : '';
    if (!platform && unresolved === 'ignored') return answer(200, { data: records });
    if (!platform && unresolved === 'first') return answer(200, { data: records.filter((r) => r.externalPlatform.code === platforms[0]!.code) });
    if (!platform && refuse) return answer(422, { message: 'The given data was invalid.', errors: { [key]: [`The selected ${key} is invalid.`] } });
    return answer(200, { data: records.filter((r) => platform && r.externalPlatform.code === platform.code) });
  };
}

async function judge(platforms: Platform[], by: Reading, refuse = false, filter: 'company' | 'platform' = 'platform') {
  const { t, advisories } = context();
  await expectPlatformFilter(t, { filter, platforms, schema: 'bank-list-response', state: 'bank.two-platforms', list: target(platforms, by, refuse), platformOf: (r) => r.externalPlatform });
  return advisories;
}

describe('expectPlatformFilter (4.10, 4.6a, 4.11)', () => {
  it('passes a filter compared with the code, the ID or the name, and advises on the ID and the name', async () => {
    expect(await judge([A, B], 'code')).toEqual([]);
    expect((await judge([A, B], 'id')).join('\n')).toMatch(/compares a platform's ID/);
    expect((await judge([A, B], 'name')).join('\n')).toMatch(/compares a platform's name/);
    expect((await judge([A, B], 'name', true)).join('\n')).toMatch(/refused with 422 keyed by platform/);
  });

  it('fails a filter that is ignored, and one that lists nothing, for the code, the ID, the name and the url host', async () => {
    const [a, b] = [hosted(A, 'ref.platform.test'), hosted(B, 'other.platform.test')];
    // Every value answered with the unfiltered list: each advised on as unresolved, and with all four sent none resolves.
    await expect(judge([a, b], 'ignored')).rejects.toThrow(/platform must list the user's records on platform REF when given its code \(REF\), its ID \(id-a\), its name \("Reference Platform"\), its url's host \(ref\.platform\.test\); none did \(its code \(REF\), its ID \(id-a\), its name \("Reference Platform"\), its url host \(ref\.platform\.test\) listed every one of the user's records/);
    await expect(judge([a, b], 'nothing')).rejects.toThrow(/must list the user's records on platform REF when given its code \(REF\), its ID \(id-a\), its name \("Reference Platform"\), its url's host \(ref\.platform\.test\); none did: /);
    // Fewer than four sent (no url host of each platform's own): a target comparing the one not sent is not verified.
    await expect(judge([A, B], 'ignored')).rejects.toThrow(/platform listed exactly the user's records on platform REF under none of .*; platform listed exactly the user's records on platform PXYZ under none of .*show no url host of their own to send as well/);
    await expect(judge([A, B], 'nothing')).rejects.toThrow(Skipped);
  });

  it('passes a filter that compares one identifier and ignores a value it does not resolve, and advises on each such value (review-aa, fix-aa3)', async () => {
    const [a, b] = [hosted(A, 'ref.platform.test'), hosted(B, 'other.platform.test')];
    for (const by of ['code', 'id', 'name', 'host'] as const) {
      const advised = (await judge([a, b], `${by}+ignored`)).join('\n');
      expect(advised).toMatch(/lists every one of the user's 3 records, of both platforms: a value the target does not resolve seems ignored/);
      if (by !== 'code') expect(advised).toMatch(new RegExp(`compares a platform's ${by === 'id' ? 'ID' : by === 'host' ? 'url host' : 'name'}`));
    }
    // A value answered with another subset (the first platform's records) is no unfiltered list: still judged.
    await expect(judge([a, b], 'name+first')).rejects.toThrow(/platform=PXYZ \(platform PXYZ's code\) must list none of the user's records on platform REF/);
    // The url host not sent (one host for both), the name compared: judged by the name; the host compared: not verified.
    expect((await judge([A, B], 'name+ignored')).join('\n')).toMatch(/compares a platform's name/);
    await expect(judge([A, B], 'host+ignored')).rejects.toThrow(Skipped);
  });

  it('sends the host of the url the records show, when each platform shows its own, and passes a filter compared with it (reading round r12)', async () => {
    const [a, b] = [hosted(A, 'ref.platform.test'), hosted(B, 'other.platform.test')];
    expect((await judge([a, b], 'host')).join('\n')).toMatch(/compares a platform's url host/);
    await expect(judge([a, b], 'nothing')).rejects.toThrow(/its url's host \(ref\.platform\.test\); none did/);
    // One host for both platforms names neither: not sent (the records of A and B above all show https://x.test), so a
    // target comparing it is not verified.
    await expect(judge([A, B], 'host')).rejects.toThrow(/under none of its code \(REF\), its ID \(id-a\), its name \("Reference Platform"\), and the two platforms of provider state bank.two-platforms show no url host of their own to send as well/);
  });

  it('judges company only where every reading agrees: the user\u2019s records, each once, and not every record under every value sent (reading round r12, review-aa)', async () => {
    expect(await judge([A, B], 'code', false, 'company')).toEqual([]);
    expect((await judge([A, B], 'name', false, 'company')).join('\n')).toMatch(/company compares a platform's name/);
    // A company that names no platform by any value sent (a SWIFT institution code, a card's holder): advised on.
    expect((await judge([A, B], 'nothing', false, 'company')).join('\n')).toMatch(/company did not list exactly the user's records on platform REF/);
    expect((await judge([A, B], 'everything-but-unknown', false, 'company')).join('\n')).toMatch(/company did not list exactly the user's records on platform PXYZ/);
    expect((await judge([A, B], 'id', true, 'company')).join('\n')).toMatch(/refused with 422 keyed by company/);
    // review-aa: a value no record has may be ignored (advised on); a company listing every record under every value sent
    // is advised on too (fix-aa2): a company compared with what no value names that drops a value it cannot resolve
    // (two allowed readings together) lists them all as well. Whether it is read is judged on the state's own company.
    expect((await judge([A, B], 'ignored', false, 'company')).join('\n')).toMatch(/company=no-such-value-0000, a value no record has under any reading of company, still lists 3 of the user's records[\s\S]*company listed every one of the user's 3 records under every value sent \(no-such-value-0000 and the code, ID and name of each of the user's two platforms \(REF, PXYZ\)\)[\s\S]*gives no company value of the target's own to tell which \(not verified\)/);
    expect((await judge([hosted(A, 'ref.example'), hosted(B, 'other.example')], 'ignored', false, 'company')).join('\n')).toMatch(/company listed every one of the user's 3 records under every value sent \(no-such-value-0000 and the code, ID, name and url host of each of the user's two platforms \(REF, PXYZ\)\)/);
    await expect(judge([A, B], 'twice', false, 'company')).rejects.toThrow(/must list each record once/);
    await expect(judge([A, B], 'foreign', false, 'company')).rejects.toThrow(/must list only the caller's records/);
  });

  it('does not send a name two platforms share, and reports a target that lists nothing by code or ID as not verified', async () => {
    const twin = { ...B, name: A.name };
    await expect(judge([A, twin], 'name')).rejects.toThrow(Skipped);
    expect((await judge([A, twin], 'code')).join('\n')).toMatch(/do not show one distinct externalPlatform.name/);
  });
});

/**
 * expectArrangedCompany: the optional `company` of bank.two-platforms / card.two-platforms (docs/provider-states.md, added
 * later) gives a value in the target's own meaning and the records it selects; the list under it must hold exactly those.
 */
describe('expectArrangedCompany (4.10, 4.6a; issues 27, 28)', () => {
  const records = [A, B].flatMap((p) => p.ids.map((id) => ({ id, externalPlatform: { code: p.code, name: p.name, url: 'https://x.test' } })));
  /**
   * A target whose company compares `selects` (a SWIFT institution, say), or ignores the value, or refuses it; under
   * `none` (round wb23: a value of its own that selects none of the records) it lists none, or, `falls-back`, every record
   * (a filter that matches nothing answered with the unfiltered list), or `none-refused`, refuses it.
   */
  const list = (behaviour: 'reads' | 'ignored' | 'refused' | 'more' | 'upper-case-ids' | 'falls-back' | 'none-refused', selected = ['a1']) => async (query?: Record<string, string>) => {
    if (query === undefined || behaviour === 'ignored') return answer(200, { data: records });
    if (query.company === 'COBA') return behaviour === 'falls-back' ? answer(200, { data: records }) : behaviour === 'none-refused' ? answer(422, { message: 'The given data was invalid.', errors: { company: ['The selected company is invalid.'] } }) : answer(200, { data: [] });
    if (behaviour === 'refused') return answer(422, { message: 'The given data was invalid.', errors: { company: ['The selected company is invalid.'] } });
    const chosen = records.filter((r) => selected.includes(r.id) || (behaviour === 'more' && r.id === 'b1'));
    return answer(200, { data: behaviour === 'upper-case-ids' ? chosen.map((r) => ({ ...r, id: r.id.toUpperCase() })) : chosen });
  };
  /** `company` null: the state gives none (a hook written before it). */
  const arrange = async (behaviour: Parameters<typeof list>[0], given: { value: string; ids: string[]; none?: string } | null = { value: 'DEUT', ids: ['a1'], none: 'COBA' }) => {
    const { t, advisories, notes } = context();
    const company = given ?? undefined;
    await expectArrangedCompany(t, { company, schema: 'bank-list-response', state: 'bank.two-platforms', list: list(behaviour, company?.ids) });
    return { advisories, notes };
  };

  it('passes a list of exactly the records the state says its value selects', async () => {
    expect(await arrange('reads')).toEqual({ advisories: [], notes: [] });
  });

  it('fails a company that is ignored, refused (422), or lists a record the value does not select', async () => {
    await expect(arrange('ignored')).rejects.toThrow(/company="DEUT" must list exactly the 1 of the user's 3 records provider state bank.two-platforms says it selects[\s\S]*every record of the user: the filter seems ignored/);
    await expect(arrange('refused')).rejects.toThrow(/company="DEUT", the value provider state bank.two-platforms gives as selecting 1 of the user's records, must be answered 200/);
    await expect(arrange('more')).rejects.toThrow(/it also lists b1/);
  });

  it('is not verified without the state\u2019s company (a hook written before it), and advises on a value that selects every record', async () => {
    expect((await arrange('reads', null)).notes.join('\n')).toMatch(/not verified: provider state bank.two-platforms gives no company/);
    expect((await arrange('reads', { value: 'REF', ids: ['a1', 'a2', 'b1'] })).advisories.join('\n')).toMatch(/selects every one of the user's records, so it cannot show that company is read/);
  });

  it('fails a company.none (round wb23) that lists the user\u2019s records or is refused, and notes it not verified without it', async () => {
    await expect(arrange('falls-back')).rejects.toThrow(/company="COBA", the value provider state bank.two-platforms gives as selecting none of the user's records \(company.none, the target's own meaning of company\), must list none of them; it lists 3 of the user's 3 records/);
    await expect(arrange('none-refused')).rejects.toThrow(/company="COBA", the value provider state bank.two-platforms gives as selecting none of the user's records \(company.none\), must be answered 200/);
    expect((await arrange('reads', { value: 'DEUT', ids: ['a1'] })).notes.join('\n')).toMatch(/not verified: provider state bank.two-platforms gives no company.none/);
  });

  it('refuses a state whose company selects a record the user\u2019s list does not show', async () => {
    await expect(arrange('reads', { value: 'DEUT', ids: ['zz'] })).rejects.toThrow(/precondition: provider state bank.two-platforms gives company "DEUT" selecting zz/);
  });
});

describe('expectPlatformFilter held to the identifier form a target showed, on a platform without the user\u2019s records (round wb23)', () => {
  // A name that shares no word with A's or B's (review-am F6: a shared word is not sent).
  const C: Platform = { id: 'id-c', code: 'CEE', name: 'Third Exchange', ids: [] };
  const unheld = (p: Platform | null) => async () => (p === null ? undefined : { id: p.id, code: p.code, name: p.name });
  /** The fake target over A, B and C, counting the values sent; `fallBack`: a value naming C (which holds none) lists every record. */
  function over(by: Reading, fallBack: boolean) {
    const list = target([A, B, C], by);
    const sent: string[] = [];
    const every = [A, B].flatMap((p) => p.ids.map((id) => ({ id, externalPlatform: { code: p.code, name: p.name, url: 'https://x.test' } })));
    return {
      sent,
      list: async (query?: Record<string, string>) => {
        const value = query ? Object.values(query)[0]! : undefined;
        if (value !== undefined) sent.push(value);
        if (fallBack && value !== undefined && [C.id, C.code, C.name].includes(value)) return answer(200, { data: every });
        return list(query);
      },
    };
  }
  async function run(by: Reading, fallBack: boolean, filter: 'company' | 'platform' = 'platform', third: Platform | null = C) {
    const { t, notes, advisories } = context();
    const fake = over(by, fallBack);
    await expectPlatformFilter(t, { filter, platforms: [A, B], schema: 'bank-list-response', state: 'bank.two-platforms', list: fake.list, platformOf: (r) => r.externalPlatform, unheld: unheld(third) });
    return { notes, advisories, sent: fake.sent };
  }

  it('sends the same form of the platform without records once, and passes a target that lists none for it', async () => {
    expect((await run('code', false)).sent.filter((v) => v === C.code)).toEqual([C.code]);
    expect((await run('id', false)).sent.filter((v) => [C.id, C.code, C.name].includes(v))).toEqual([C.id]);
    expect((await run('code', false, 'company')).sent.filter((v) => v === C.code)).toEqual([C.code]);
  });

  it('fails a platform filter that answers a resolved value matching none of the user\u2019s records with the unfiltered list, and only advises on company (review-am F1)', async () => {
    await expect(run('code', true)).rejects.toThrow(/must list none of them/);
    await expect(run('name', true)).rejects.toThrow(/must list none of them/);
    expect((await run('code', true, 'company')).advisories.join()).toMatch(/a company value that names no company may be ignored/);
  });

  it('does not send a value that shares a word with the user\u2019s platforms\u2019 identifiers (review-am F6)', async () => {
    const sharing: Platform = { ...C, name: 'Third Platform' };
    const { notes, sent } = await run('name', true, 'platform', sharing);
    expect(sent).not.toContain('Third Platform');
    expect(notes.join()).toMatch(/shares a word with/);
  });

  it('is not verified without such a platform, and does not send a value inside one of the user\u2019s platforms\u2019 identifiers', async () => {
    expect((await run('code', true, 'platform', null)).notes.join()).toMatch(/not verified/);
    const inside: Platform = { ...C, code: 'RE' };
    const { notes, sent } = await run('code', false, 'platform', inside);
    expect(sent).not.toContain('RE');
    expect(notes.join()).toMatch(/is part of/);
  });

  it('judges company only where both platforms listed exactly their records by one form', async () => {
    // company ignored under every value: no form shown, nothing sent for the third platform.
    const { sent } = await run('ignored', true, 'company');
    expect(sent.filter((v) => [C.id, C.code, C.name].includes(v))).toEqual([]);
  });
});
