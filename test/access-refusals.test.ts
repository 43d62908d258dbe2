import { describe, expect, it } from 'vitest';
import { expectRefusalWithholds, type ArrangedRecords } from '../helpers/arrange/refusal-records.js';
import { ApiResponse } from '../helpers/net/http.js';

/** A JSON answer as the client reads it. */
const answer = (status: number, body: unknown) => new ApiResponse(status, { 'content-type': 'application/json' }, JSON.stringify(body), { ok: true, value: body });

const BANK_ID = '0b3c1a5e-6f1d-4c1e-9a8b-2d4e6f8a0c11';
const CARD_ID = '7d2e4f60-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const BONUS_ID = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const arranged: ArrangedRecords = {
  bank: { id: BANK_ID, iban: 'DE89370400440532013000', swift: 'COBADEFFXXX', bankName: 'Acme Holdings Bank', currency: 'EUR' },
  card: { id: CARD_ID, alias: 'Card lantern', holderName: 'Ada Lovelace', lastFourDigits: '4242' },
  bonuses: [BONUS_ID],
};
const listPath = '/api/v1/user/11111111-2222-4333-8444-555555555555/bank';
const showPath = `/api/v1/user/11111111-2222-4333-8444-555555555555/bank/${BANK_ID}`;
const judged = (response: ApiResponse, path = listPath) => () => expectRefusalWithholds(response, arranged, path, 'row X');

describe('expectRefusalWithholds (round wb28, fix-wb28a): a refusal of the access tables shows none of the records it refused', () => {
  it('fails a 409 whose data holds the path user\u2019s bank rows, naming the row, the status and the value', () => {
    const body = { message: 'This action is unauthorized.', data: [{ id: BANK_ID, iban: 'DE89370400440532013000', user_id: 'x' }] };
    expect(judged(answer(409, body))).toThrow(/row X: a refusal \(409\).*the bank\u2019s id "0b3c1a5e/);
  });

  it('fails a 401 carrying a bonus id, an IBAN in a message, a holder name as a member name, or a card\u2019s last four digits beside its alias', () => {
    expect(judged(answer(401, { error: 'Unauthenticated.', meta: { last: BONUS_ID } }))).toThrow(/\/meta\/last holds a bonus id/);
    expect(judged(answer(403, { message: 'This action is unauthorized.', detail: 'IBAN de89370400440532013000 belongs to another user' }))).toThrow(/the bank\u2019s iban/);
    expect(judged(answer(403, { message: 'This action is unauthorized.', owners: { 'Ada Lovelace': true } }))).toThrow(/member name\) holds the card\u2019s holderName/);
    const card = { ...arranged, card: { ...arranged.card, holderName: undefined, alias: 'Card' } };
    expect(() => expectRefusalWithholds(answer(403, { message: 'This action is unauthorized.', card: { alias: 'Card', last4: '4242' } }), card, listPath, 'row Y')).toThrow(/last four digits 4242 beside its alias/);
  });

  it('fails a data member holding a record or a list with one, even with no arranged value in it; a list of error details is free', () => {
    expect(() => expectRefusalWithholds(answer(401, { error: 'Unauthenticated.', data: { id: 'abc' } }), undefined, '', 'row Z')).toThrow(/data member holds a record/);
    expect(() => expectRefusalWithholds(answer(403, { message: 'This action is unauthorized.', data: [{ id: 'x', name: 'x' }] }), undefined, '', 'row Z')).toThrow(/a list of 1 item\(s\) with a record among them/);
    expect(() => expectRefusalWithholds(answer(403, { message: 'This action is unauthorized.', data: [{ code: 'FORBIDDEN', message: 'Not yours' }] }), undefined, '', 'row Z')).not.toThrow();
  });

  it('fails a body that is not JSON when its text holds a value', () => {
    const html = new ApiResponse(403, { 'content-type': 'text/html' }, `<p>Bank ${BANK_ID}</p>`, { ok: false });
    expect(judged(html)).toThrow(/its body holds the bank\u2019s id/);
  });

  it('passes refusals with extra members (request id, code, trace, data null or empty) and the id the path names', () => {
    const free = [
      { message: 'This action is unauthorized.', requestId: 'req-7f3a9c', code: 'FORBIDDEN', traceId: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' },
      { message: 'This action is unauthorized.', data: null, errors: {} },
      { error: 'Unauthenticated.', data: [] },
      { message: 'This action is unauthorized.', data: {} },
      { message: `No query results for model [App\\Models\\Bank] ${BANK_ID}` },
      { message: 'This action is unauthorized.', card: { last4: '4242' }, currency: 'EUR' },
    ];
    for (const body of free) expect(judged(answer(404, body), showPath), JSON.stringify(body)).not.toThrow();
    expect(() => expectRefusalWithholds(answer(401, { error: 'Unauthenticated.' }), undefined, '', 'row')).not.toThrow();
  });
});
