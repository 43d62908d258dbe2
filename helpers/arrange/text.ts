/**
 * Text of a given length in characters, where characters and bytes differ. Section 8 counts limits
 * in characters; a server that counts the UTF-8 bytes of the same text refuses or accepts the wrong
 * values. The letters below take two bytes each in UTF-8, lie in the Basic Multilingual Plane (one
 * UTF-16 unit each) and have no canonical decomposition, so every reasonable way of counting
 * characters (code points, UTF-16 units, after NFC or NFD normalisation) gives the same length.
 */
export const TWO_BYTE_LETTERS = 'ŋæøðþłđħжλ';

/** `length` two-byte letters (2 x `length` bytes in UTF-8), cycling through TWO_BYTE_LETTERS. */
export function twoByteText(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += TWO_BYTE_LETTERS[i % TWO_BYTE_LETTERS.length];
  return text;
}

/**
 * A name of two words of `length` characters in all (the two words as long as can be, one space between): what a card's
 * holderName is at a limit, so the boundary rows judge the length alone. Section 4.6a gives holderName "max 191" alone,
 * and a one-word name must be accepted as well (reading round r22's allowed-r22-card-holder-name-two-words was ruled a
 * fair refusal; the value-class row of Li fails it), but a boundary row is no place to judge a second rule.
 * `word` makes a word of a given length (`letter` repeated, or two-byte letters: 2 x `length` - 1 bytes in UTF-8).
 */
export function twoWords(length: number, word: (length: number) => string = (n) => 'H'.repeat(n)): string {
  const first = Math.floor((length - 1) / 2);
  return `${word(first)} ${word(length - 1 - first)}`;
}

/**
 * Issue 27 (docs/judging.md "Other JSON types"): a documented string field's right value sent as another JSON type, inside
 * an array and inside an object. One table for the string fields of login (e-mail, password), forgot-password (e-mail)
 * and reset-password (e-mail, token, new password): a server that reads an array as its first item, or joins its items,
 * takes the value inside as if it were sent as text. Login's 2fa and forgot-password's type are not sent so (yet).
 */
export const WRAPPED_TEXT: readonly { kind: string; wrap: (value: string) => unknown }[] = [
  { kind: 'a JSON array', wrap: (value) => [value] },
  { kind: 'a JSON object', wrap: (value) => ({ value }) },
];
