import { bankPayload, swiftOfLength, uniqueIban } from './banks.js';
import { monthYear, type CardFields } from './cards.js';
import { IMAGES } from './images.js';
import { twoWords } from './text.js';

/**
 * One invalid create per constrained field of a bank and of a card (the catalogue's field constraints, one row a field,
 * not the boundary tables): each breaks one rule under every reading and is answered 422 keyed by the field (a list of
 * keys: one of them), storing nothing. The password session's refused-create checks (suites/banks.test.ts,
 * suites/cards.test.ts) and the checks of the other kinds of login (otherLoginKindChecks, round wb17: a guard per kind
 * may keep a form request of its own) send the same rows. Built afresh for each use: ibans and dates are drawn now.
 */
export function bankFieldRefusals(): [what: string, payload: Record<string, unknown>, field: string][] {
  return [
    ['the unknown currency code XYZ', bankPayload({ currency: 'XYZ' }), 'currency'],
    ['a swift of 7 characters', bankPayload({ swift: swiftOfLength(7) }), 'swift'],
    ['an iban with hyphens', bankPayload({ iban: uniqueIban().replace(/(.{4})(?!$)/g, '$1-') }), 'iban'],
    ['a bankName of 192 characters', bankPayload({ bankName: 'B'.repeat(192) }), 'bankName'],
  ];
}

/** The card's rows (an expiry in the past, a malformed expirationYear, lastFourDigits, each image, holderName, alias). */
export function cardFieldRefusals(): [what: string, fields: CardFields, key: string | string[]][] {
  const pastYear = monthYear(-12, new Date(Date.now() - 12 * 3600 * 1000));
  const ahead = monthYear(30);
  return [
    [`an expirationDate of last year (${pastYear.date})`, { expirationDate: pastYear.date }, 'expirationDate'],
    ['an expirationYear of letters without expirationDate', { expirationDate: null, expirationMonth: ahead.month, expirationYear: 'ab' }, ['expirationYear', 'expirationDate']],
    ['lastFourDigits of 3 digits', { lastFourDigits: '123' }, 'lastFourDigits'],
    ['a GIF as cardImage1', { cardImage1: IMAGES.gif() }, 'cardImage1'],
    // White-box round wb9: the second image alone (a card stored with its first image before the second is judged).
    ['a GIF as cardImage2', { cardImage2: IMAGES.gif() }, 'cardImage2'],
    // White-box round wb10: every field of the create, so holderName and alias too (a card stored, its alias cut to 191).
    // In two words, as a holderName at the limit is sent (helpers/arrange/text.ts twoWords): too long under every reading.
    ['a holderName of 192 characters', { holderName: twoWords(192) }, 'holderName'],
    ['an alias of 192 characters', { alias: 'A'.repeat(192) }, 'alias'],
  ];
}
