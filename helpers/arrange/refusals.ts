import { bankPayload, swiftOfLength, uniqueIban, uniqueIbanOfLength } from './banks.js';
import { monthYear, type CardFields } from './cards.js';
import { IMAGES } from './images.js';
import { twoWords } from './text.js';

/**
 * One invalid create per rule of a bank's and of a card's fields (the catalogue's field constraints, helpers/spec/
 * catalogue.ts CONSTRAINTS, each row naming the constraint it breaks; not the boundary tables): each breaks one rule under
 * every reading and is answered 422 keyed by the field (a list of keys: one of them), storing nothing. The password
 * session's refused-create checks (suites/banks.test.ts, suites/cards.test.ts) and the checks of the other kinds of
 * login (otherLoginKindChecks, round wb17: a guard per kind may keep a form request of its own) send the same rows.
 * Built afresh for each use: ibans and dates are drawn now.
 *
 * White-box round wb26 (wb26-banks-refused-long-iban-stored-cut, wb26-banks-refused-swift-non-alphanumeric-stored): one
 * row a RULE, not a field: a field's other rule (iban max 191 beside alphanumeric; swift alphanumeric beside its length)
 * was refused only in the boundary tables, which never read the list after the 422, so a validator run after the save
 * (the IBAN stored cut to 191, the swift with its underscore removed) passed. test/instances.test.ts checks that every
 * constraint of the two creates has a row here or is named in REFUSAL_RULES_NOT_SENT with its reason.
 */
export function bankFieldRefusals(): [what: string, payload: Record<string, unknown>, field: string, constraint: string][] {
  return [
    ['the unknown currency code XYZ', bankPayload({ currency: 'XYZ' }), 'currency', 'bank.currency.iso'],
    // Round wb26: a hyphen inside a valid code (a "strip, then validate" filter would store EUR).
    ['the non-alphanumeric currency EU-R', bankPayload({ currency: 'EU-R' }), 'currency', 'bank.currency.alphanumeric'],
    ['a swift of 7 characters', bankPayload({ swift: swiftOfLength(7) }), 'swift', 'bank.swift.length'],
    // Round wb26: 8 alphanumerics with an underscore inside (9 characters), as the boundary table's row.
    ['a swift of 9 characters with an underscore', bankPayload({ swift: `${swiftOfLength(4)}_${swiftOfLength(8).slice(4)}` }), 'swift', 'bank.swift.alphanumeric'],
    ['an iban with hyphens', bankPayload({ iban: uniqueIban().replace(/(.{4})(?!$)/g, '$1-') }), 'iban', 'bank.iban.alphanumeric'],
    // Round wb26: alphanumeric and one over section 8's limit (a create stored with the IBAN cut to 191).
    ['an iban of 192 characters', bankPayload({ iban: uniqueIbanOfLength(192) }), 'iban', 'bank.iban.max'],
    ['a bankName of 192 characters', bankPayload({ bankName: 'B'.repeat(192) }), 'bankName', 'bank.bankName.max'],
  ];
}

/** The card's rows (an expiry in the past or malformed in each of its forms, lastFourDigits, each image, holderName, alias). */
export function cardFieldRefusals(): [what: string, fields: CardFields, key: string | string[], constraint: string][] {
  const pastYear = monthYear(-12, new Date(Date.now() - 12 * 3600 * 1000));
  const ahead = monthYear(30);
  return [
    [`an expirationDate of last year (${pastYear.date})`, { expirationDate: pastYear.date }, 'expirationDate', 'card.expirationDate.future'],
    // Round wb26: the expiry's other rules, each in the form the boundary table refuses it.
    [`an expirationDate with month 13 (13/${ahead.year})`, { expirationDate: `13/${ahead.year}` }, 'expirationDate', 'card.expirationDate.format'],
    ['an expirationMonth 13 without expirationDate', { expirationDate: null, expirationMonth: '13', expirationYear: ahead.year }, ['expirationMonth', 'expirationDate'], 'card.expirationMonth.format'],
    ['an expirationYear of letters without expirationDate', { expirationDate: null, expirationMonth: ahead.month, expirationYear: 'ab' }, ['expirationYear', 'expirationDate'], 'card.expirationYear.format'],
    [`an expirationYear of last year (${pastYear.month} and ${pastYear.year}) without expirationDate`, { expirationDate: null, expirationMonth: pastYear.month, expirationYear: pastYear.year }, ['expirationYear', 'expirationDate'], 'card.expirationYear.future'],
    ['lastFourDigits of 3 digits', { lastFourDigits: '123' }, 'lastFourDigits', 'card.lastFourDigits.digits'],
    ['a GIF as cardImage1', { cardImage1: IMAGES.gif() }, 'cardImage1', 'card.cardImage1.type'],
    // White-box round wb9: the second image alone (a card stored with its first image before the second is judged).
    ['a GIF as cardImage2', { cardImage2: IMAGES.gif() }, 'cardImage2', 'card.cardImage2.type'],
    // White-box round wb10: every field of the create, so holderName and alias too (a card stored, its alias cut to 191).
    // In two words, as a holderName at the limit is sent (helpers/arrange/text.ts twoWords): too long under every reading.
    ['a holderName of 192 characters', { holderName: twoWords(192) }, 'holderName', 'card.holderName.max'],
    ['an alias of 192 characters', { alias: 'A'.repeat(192) }, 'alias', 'card.alias.max'],
  ];
}

const PRESENCE = 'a rule of presence or JSON type, not of a value: nothing of the field to store cut or mended; its 422 is judged by the boundary table of the create (one row each), and its stored-nothing by none, to keep the rows (sent by four kinds of login) few';

/**
 * The constraints of the two creates that the refusal rows above do not break, each with its reason (round wb26; checked
 * by test/instances.test.ts against CONSTRAINTS).
 */
export const REFUSAL_RULES_NOT_SENT: Readonly<Record<string, string>> = {
  'bank.bankName.required': PRESENCE,
  'bank.bankName.string': PRESENCE,
  'bank.iban.required': PRESENCE,
  'bank.iban.string': PRESENCE,
  'bank.swift.required': PRESENCE,
  'bank.swift.string': PRESENCE,
  'bank.currency.required': PRESENCE,
  'bank.currency.string': PRESENCE,
  'bank.iban.unique': 'a taken IBAN is refused beside the rows by each refused-create check (the IBAN of a bank the same session has just made, in its currency: helpers/arrange/invariants.ts createInvariantChecks and otherLoginKindChecks)',
  'card.cardImage1.required': PRESENCE,
  'card.cardImage2.required': PRESENCE,
  'card.holderName.required': PRESENCE,
  'card.expirationDate.required': PRESENCE,
  'card.expirationMonth.required-with': PRESENCE,
  'card.expirationYear.required-with': PRESENCE,
  'card.lastFourDigits.required': PRESENCE,
  'card.alias.required': PRESENCE,
  'card.cardImage1.max': 'an image over 10240 KB is over 10 MB a request, sent by four kinds of login: judged once, by the boundary table (principle 4)',
  'card.cardImage2.max': 'an image over 10240 KB is over 10 MB a request, sent by four kinds of login: judged once, by the boundary table (principle 4)',
};
