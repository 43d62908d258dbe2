import fc from 'fast-check';

/**
 * Generated values from the field rules, and how to judge a value against a rule when the
 * specification can be read more than one way. Section 8 counts lengths in characters; it does not
 * say whether a character outside the Basic Multilingual Plane is one character or two (UTF-16),
 * whether leading and trailing spaces are trimmed first, or whether text is normalised. A value is
 * judged only when every such reading agrees; otherwise the observation is an advisory.
 */

const BMP_RANGES: [number, number, number][] = [
  // [first, last, weight]
  [0x20, 0x7e, 6], // printable ASCII, space included
  [0xa1, 0x24f, 4], // Latin-1 supplement and Latin extended: accented letters
  [0x370, 0x3ff, 2], // Greek
  [0x400, 0x4ff, 2], // Cyrillic
  [0x5d0, 0x5ea, 1], // Hebrew
  [0x620, 0x64a, 1], // Arabic
  [0x900, 0x97f, 1], // Devanagari
  [0x3040, 0x30ff, 1], // kana
  [0x4e00, 0x9fff, 2], // CJK ideographs (three UTF-8 bytes)
  [0xac00, 0xd7a3, 1], // Hangul syllables
  [0x20, 0xfffd, 2], // anywhere in the BMP (filtered below)
];

/** Code points no text field should ever carry: controls, surrogates, noncharacters. */
function excluded(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) || (code >= 0xfdd0 && code <= 0xfdef) || code >= 0xfffe;
}

/**
 * The unmappers below let fast-check shrink a value it did not generate (an example: the boundaries
 * of a rule): it reads the value back into the arbitrary's own terms, or throws when it cannot.
 */
function unmapChar(value: unknown, units: 1 | 2): number {
  if (typeof value !== 'string' || value.length !== units || [...value].length !== 1) throw new Error('not one character of this range');
  return value.codePointAt(0)!;
}
const unmapText = (value: unknown): string[] => {
  if (typeof value !== 'string') throw new Error('not a text');
  return [...value];
};

/** One character of the Basic Multilingual Plane, weighted towards letters of many scripts; spaces included. */
export const bmpChar: fc.Arbitrary<string> = fc
  .oneof(...BMP_RANGES.map(([first, last, weight]) => ({ arbitrary: fc.integer({ min: first, max: last }), weight })))
  .filter((code) => !excluded(code))
  .map((code) => String.fromCharCode(code), (c) => unmapChar(c, 1));

/** A character outside the BMP (an emoji, a rare ideograph): one code point, two UTF-16 units. */
const astralChar: fc.Arbitrary<string> = fc.integer({ min: 0x1f300, max: 0x1faff }).map((code) => String.fromCodePoint(code), (c) => unmapChar(c, 2));

/** Mostly BMP characters, now and then one outside it (whose count is ambiguous). */
export const textChar: fc.Arbitrary<string> = fc.oneof({ arbitrary: bmpChar, weight: 30 }, { arbitrary: astralChar, weight: 1 });

/** Text of `length` characters drawn from `char`. */
export function textOfLength(length: number, char: fc.Arbitrary<string> = textChar): fc.Arbitrary<string> {
  return fc.array(char, { minLength: length, maxLength: length }).map((chars) => chars.join(''), unmapText);
}

/** Text of [min, max] characters: an array of characters, so a failing text shrinks (fewer, plainer characters). */
function charsBetween(min: number, max: number, char: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.array(char, { minLength: min, maxLength: max, size: 'max' }).map((chars) => chars.join(''), unmapText);
}

/**
 * Text whose length in characters lies in [min, max], lengths near both ends favoured. No `chain`:
 * each branch shrinks within its lengths (the whole range towards `min`, the branches near an end
 * within that end), so a counterexample is the smallest of its branch that still fails.
 */
export function textBetween(min: number, max: number, char: fc.Arbitrary<string> = textChar): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: charsBetween(min, max, char), weight: 4 },
    { arbitrary: charsBetween(Math.max(min, max - 2), max, char), weight: 1 },
    { arbitrary: charsBetween(min, Math.min(max, min + 2), char), weight: 1 },
  );
}

const TRIMMED = /^[\s\u200b\u200e\ufeff]+|[\s\u200b\u200e\ufeff]+$/gu;
const codePoints = (text: string) => [...text].length;

const graphemes = new Intl.Segmenter();
/** User-perceived characters (Elixir String.length, Swift count): a letter and its combining marks are one. */
const graphemeClusters = (text: string) => [...graphemes.segment(text)].length;

/**
 * The lengths a server could reasonably give the text: code points, UTF-16 units, after NFC, after NFD, after trimming,
 * grapheme clusters, after NFKC (a text normalised on input before it is validated, as Django's NFKC does:
 * allowed-review-an-texts-stored-nfkc; "\ufdfa" is one code point and 18 in NFKC).
 */
export function lengthReadings(text: string): number[] {
  return [codePoints(text), text.length, codePoints(text.normalize('NFC')), codePoints(text.normalize('NFD')), codePoints(text.replace(TRIMMED, '')), graphemeClusters(text), codePoints(text.normalize('NFKC'))];
}

export type Verdict = 'inside' | 'outside' | 'ambiguous';

/** Inside when every reading is within [min, max], outside when none is; ambiguous otherwise. */
export function lengthVerdict(text: string, min: number, max: number): Verdict {
  const inside = lengthReadings(text).map((n) => n >= min && n <= max);
  return inside.every(Boolean) ? 'inside' : inside.some(Boolean) ? 'ambiguous' : 'outside';
}

/** The readings of "exactly n digits": ASCII digits, any decimal digit, with and without trimming. */
export function digitsVerdict(text: string, n: number): Verdict {
  const candidates = [text, text.replace(TRIMMED, '')];
  const results = candidates.flatMap((c) => [new RegExp(`^[0-9]{${n}}$`).test(c), new RegExp(`^\\p{Nd}{${n}}$`, 'u').test(c)]);
  return results.every(Boolean) ? 'inside' : results.some(Boolean) ? 'ambiguous' : 'outside';
}

/** Whether the text is empty once trimmed: "required" may or may not count it as given. */
export function blank(text: string): boolean {
  return text.replace(TRIMMED, '') === '';
}

/** JSON values of every type but string, null included, for fields whose documented type is string. */
export const nonString: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 3 }),
);

/** One ASCII digit. */
export const digit = fc.constantFrom(...'0123456789'.split(''));

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const alnumChar = fc.constantFrom(...ALNUM.split(''));
/** ASCII characters that are neither letters nor digits nor spaces (spaces may be trimmed at the ends). */
export const punctuationChar = fc.constantFrom(...'-_.,;:!?/\\#$%&*+=@()[]{}<>\'"'.split(''));

/** ASCII alphanumeric text of a length in [min, max]. */
export function alnumBetween(min: number, max: number): fc.Arbitrary<string> {
  return textBetween(min, max, alnumChar);
}

/** ASCII alphanumeric text of a length in [min, max] with one punctuation character at an inner position. */
export function alnumWithPunctuation(min: number, max: number): fc.Arbitrary<string> {
  return fc.record({ text: alnumBetween(Math.max(min, 3), max), mark: punctuationChar, at: fc.nat() }).map(({ text, mark, at }) => {
    const i = 1 + (at % (text.length - 1));
    return `${text.slice(0, i)}${mark}${text.slice(i + 1)}`;
  });
}

const lower = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''));

/**
 * A plain e-mail address (ASCII letters and digits, a local part of at most 64 and labels of at most 63 characters,
 * RFC 5321) of a length in [min, max] (at least 13, `a@example.com`): valid under every reading of "a valid e-mail". At
 * example.com (RFC 2606, resolvable), or under it where the length needs more than a local part of 64: such a name does
 * not resolve, which a target may check (docs/judging.md, "A valid e-mail's domain"; authentication.explore.ts judges a
 * refusal by a short address of the same domain).
 */
export function plainEmail(min: number, max: number): fc.Arbitrary<string> {
  return fc.record({ length: fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max)), fill: lower, local: fc.integer({ min: 1, max: 64 }), tag: fc.array(lower, { minLength: 6, maxLength: 6 }) }).map(
    ({ length, fill, local, tag }) => emailOfLength(length, { fill, local, tag: tag.join('') }),
  );
}

/**
 * A plain e-mail address of `length` characters (at least 13) at example.com, or under it in labels of `fill` where a
 * local part of at most 64 (`local` characters, beginning with `tag`) leaves more: plainEmail's values, and the
 * boundaries tried first.
 */
export function emailOfLength(length: number, { fill = 'a', local = 64, tag = 'nobody' }: { fill?: string; local?: number; tag?: string } = {}): string {
  const domain = 'example.com';
  const total = Math.max(length, domain.length + 2);
  let localLength = Math.max(1, Math.min(local, 64, total - domain.length - 1));
  // The characters of the labels before example.com, each with its dot: never one alone (a dot without a label).
  let rest = total - localLength - 1 - domain.length;
  if (rest === 1) {
    if (localLength < 64) (localLength++, (rest = 0));
    else (localLength--, (rest = 2));
  }
  const localPart = `${tag}${fill.repeat(64)}`.slice(0, localLength);
  const labels: string[] = [];
  while (rest > 0) {
    let size = Math.min(63, rest - 1);
    if (rest - (size + 1) === 1) size--;
    labels.push(fill.repeat(size));
    rest -= size + 1;
  }
  return `${localPart}@${[...labels, domain].join('.')}`;
}

/**
 * A text a store may rewrite on input and still hold (helpers/spec/normalisation.ts): compatibility characters NFKC folds
 * (full-width letters, the ligature U+FB01, the fraction U+00BD) and invisible format characters (a soft hyphen U+00AD,
 * a zero-width space U+200B). Inside every length rule under every reading (26 characters, 28 in NFKC).
 */
export const REWRITTEN_TEXT = '\uff2d\uff55\uff4c\uff4c\uff45\uff52 \ufb01nance\u00ad Bank\u200b \u00bd';

/** Text without an "@": never an e-mail address under any reading. */
export const notAnEmail: fc.Arbitrary<string> = textBetween(1, 40, bmpChar.filter((c) => c !== '@')).filter((text) => !blank(text));

/** A string for the report: JSON with every character outside printable ASCII escaped, and its lengths. */
export function describeText(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value) ?? String(value);
  const escaped = JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const shown = escaped.length > 240 ? `${escaped.slice(0, 200)}...${escaped.slice(-30)}` : escaped;
  return `of ${[...value].length} characters (${Buffer.byteLength(value)} UTF-8 bytes) ${shown}`;
}

/** A secret-keyed value (a password) by its shape only: lengths and the code points' range. */
export function describeSecret(value: unknown): string {
  if (typeof value !== 'string') return `a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}`;
  const points = [...value].map((c) => c.codePointAt(0)!);
  const range = points.length ? `U+${Math.min(...points).toString(16).toUpperCase().padStart(4, '0')}..U+${Math.max(...points).toString(16).toUpperCase().padStart(4, '0')}` : 'none';
  return `a password of ${points.length} characters, ${Buffer.byteLength(value)} UTF-8 bytes, code points ${range} (its value is not shown; the seed replays it)`;
}
