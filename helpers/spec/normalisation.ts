/**
 * Storage normalisation (docs/judging.md): a server may store a text trimmed, with its inner runs of white space
 * made one, in NFC or NFD, or in another letter case (a holderName upper-cased as on an embossed card, an IBAN
 * upper-cased). The specification never says a record repeats the letters sent, so a stored text that differs from
 * the one sent only so is a reading, advised on; any other difference is not one.
 */
export type StoredForm = 'same' | 'normalised' | 'different';

function forms(text: string): string[] {
  const trimmed = text.trim();
  const collapsed = trimmed.replace(/\s+/gu, ' ');
  return [trimmed, collapsed].flatMap((form) => [form.normalize('NFC'), form.normalize('NFD')]).flatMap((form) => [form, form.toUpperCase(), form.toLowerCase()]);
}

/** How a stored value relates to the text sent: the same, the same once normalised (trimmed, NFC/NFD, case), or different. */
export function storedForm(stored: unknown, sent: string): StoredForm {
  if (stored === sent) return 'same';
  if (typeof stored !== 'string') return 'different';
  const sentForms = new Set(forms(sent));
  return forms(stored).some((form) => sentForms.has(form)) ? 'normalised' : 'different';
}

/** True when `value` differs from `other` only by outer white space or letter case (a value outside a rule only so is not outside it under every reading). */
export function differsOnlyByWhitespaceOrCase(value: string, other: string): boolean {
  return value !== other && storedForm(value, other) === 'normalised';
}
