import { expect } from 'vitest';
import type { CheckContext } from './check.js';
import { EQUIVALENT_FORMS, storedForm } from '../spec/normalisation.js';

/**
 * A record's text field against the text sent (sections 2.4, 2.5): the same passes; the same once trimmed, NFC/NFD
 * normalised, in another letter case, or with the text sent in NFKC or without invisible format characters, is a reading of storage normalisation, advised on (docs/judging.md); so is
 * the same value in an equivalent form its field's standard defines (an IBAN in print format, a BIC8 as BIC11 with
 * XXX: helpers/spec/normalisation.ts EQUIVALENT_FORMS); anything else fails.
 */
export function expectStoredAsSent(t: CheckContext, field: string, stored: unknown, sent: unknown, where: string): void {
  if (typeof sent !== 'string') {
    expect(stored, `${where}: ${field} must be the value sent`).toEqual(sent);
    return;
  }
  const form = storedForm(stored, sent, field);
  const equivalent = Object.hasOwn(EQUIVALENT_FORMS, field) ? ` or ${EQUIVALENT_FORMS[field]!.name}` : '';
  expect(form !== 'different', `${where}: ${field} must be the value sent (${JSON.stringify(sent)}), up to trimming, NFC/NFD, letter case, straight or typographic quotes, NFKC, invisible format characters taken out${field === 'holderName' ? ', transliteration to Latin letters' : ''}${field === 'bankName' ? ', conversion to the SEPA character set' : ''}${equivalent}; got ${JSON.stringify(stored)}`).toBe(true);
  if (form === 'equivalent') t.advise(`${where}: ${field} is shown as ${JSON.stringify(stored)} for ${JSON.stringify(sent)} sent, the same value in ${EQUIVALENT_FORMS[field]!.name}; the specification does not say a record repeats the letters sent`);
  if (form === 'normalised') t.advise(`${where}: ${field} is stored as ${JSON.stringify(stored)} for ${JSON.stringify(sent)} sent (trimmed, normalised or in another letter case; the specification does not say a record repeats the letters sent)`);
}
