import { expect } from 'vitest';
import type { ApiResponse } from '../net/http.js';

/*
 * Issue 27, white-box round wb28 (fix-wb28a): what a refusal of the access tables (helpers/arrange/access.ts and
 * invariants.ts accessRowsCheck) may not carry. Its own module: both tables call it, and access.ts already imports
 * invariants.ts (no import cycle).
 */
/** The records the access tables arranged for a path's user: a bank and a card as their creates answered, the bonus ids of state bonuses. */
export interface ArrangedRecords {
  bank?: Record<string, unknown>;
  card?: Record<string, unknown>;
  bonuses?: readonly string[];
}

/** The members of an arranged bank or card whose values name it (strings of at least 6 characters): ids, IBAN, SWIFT, names. */
const NAMING_MEMBERS = ['id', 'iban', 'swift', 'bankName', 'holderName', 'alias'] as const;

/** Each string of a JSON value (keys too), with its pointer. */
function* stringsOf(value: unknown, pointer = ''): Generator<{ pointer: string; text: string; parent: unknown }> {
  if (typeof value === 'string') yield { pointer: pointer || '/', text: value, parent: undefined };
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* stringsOf(item, `${pointer}/${i}`);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      yield { pointer: `${pointer}/${key} (member name)`, text: key, parent: undefined };
      if (typeof item === 'string') yield { pointer: `${pointer}/${key}`, text: item, parent: value };
      else yield* stringsOf(item, `${pointer}/${key}`);
    }
  }
}

/** True for an object that is a record (an `id` member). */
const isRecord = (item: unknown): boolean => item !== null && typeof item === 'object' && !Array.isArray(item) && ['id', 'uuid', '_id'].some((k) => k in (item as object));

/**
 * True for a record or a list holding one. A list of other objects is free: an error envelope may list its details
 * under `data` (`[{ "code": ..., "message": ... }]`), which names no record.
 */
const holdsRecords = (data: unknown): boolean => (Array.isArray(data) ? data.some(isRecord) : isRecord(data));

/**
 * Issue 27, white-box round wb28 (fix-wb28a): a refusal (401, 403, 409, a 404 a row expects) of a request on another
 * user's path, or without a valid token, shows none of the records it refused (sections 5.3 and 5.6: the request is not
 * authorized to read them). Under every reading a refusal may carry extra members (a request id, a code, a message),
 * never the path user's records: none of the values that name what the row arranged (record ids, IBANs, SWIFTs, bank
 * and holder names, card aliases; a card's last four digits beside its alias; bonus ids) anywhere in the body (a JSON
 * string or member name, or the text of a body that is not JSON), and no `data` member holding a record (an object
 * with an id) or a list holding one. The text of the request's path (the id of the record a show or delete names) is no
 * finding. One check for every row of the access tables that expects a refusal.
 */
export function expectRefusalWithholds(response: ApiResponse, arranged: ArrangedRecords | undefined, path: string, where: string): void {
  const inPath = decodeURIComponent(path).toLowerCase();
  const values: { value: string; what: string }[] = [];
  for (const [kind, record] of [['bank', arranged?.bank], ['card', arranged?.card]] as const) {
    for (const member of NAMING_MEMBERS) {
      const value = record?.[member];
      if (typeof value === 'string' && value.trim().length >= 6) values.push({ value: value.trim(), what: `the ${kind}\u2019s ${member}` });
    }
  }
  for (const id of arranged?.bonuses ?? []) if (id.length >= 6) values.push({ value: id, what: 'a bonus id' });
  const shown = values.filter((v) => !inPath.includes(v.value.toLowerCase()));
  const lastFour = typeof arranged?.card?.lastFourDigits === 'string' ? arranged.card.lastFourDigits : undefined;
  const alias = typeof arranged?.card?.alias === 'string' ? arranged.card.alias : undefined;
  const at = `${where}: a refusal (${response.status}) must show none of the records it refused (sections 5.3 and 5.6; extra members such as a request id or a code are free)`;
  if (!response.isJson) {
    const text = response.text.toLowerCase();
    const found = shown.find((v) => text.includes(v.value.toLowerCase()));
    if (found) expect.fail(`${at}; its body holds ${found.what} ${JSON.stringify(found.value)}`);
    return;
  }
  const body = response.json;
  for (const { pointer, text, parent } of stringsOf(body)) {
    const lower = text.toLowerCase();
    const found = shown.find((v) => lower.includes(v.value.toLowerCase()));
    if (found) expect.fail(`${at}; ${pointer} holds ${found.what} ${JSON.stringify(found.value)}`);
    if (lastFour !== undefined && alias !== undefined && text === lastFour && parent && Object.values(parent).includes(alias)) expect.fail(`${at}; ${pointer} holds the card\u2019s last four digits ${lastFour} beside its alias`);
  }
  if (body && typeof body === 'object' && !Array.isArray(body) && holdsRecords((body as Record<string, unknown>).data)) {
    expect.fail(`${at}; its data member holds ${Array.isArray(body.data) ? `a list of ${body.data.length} item(s) with a record among them (an object with an id)` : 'a record (an object with an id)'}`);
  }
}
