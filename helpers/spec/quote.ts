/**
 * Text a target controls is data, never control (issue 29). Every character that can steer a
 * terminal, a CI log or a reader's eye is written as a visible escape: C0 (line breaks and tabs
 * included), DEL, C1, the line and paragraph separators U+2028/2029 and the bidi controls
 * (U+061C, U+200E/200F, U+202A-202E, U+2066-2069). Then no target text can begin a line, move the
 * cursor, write the clipboard (OSC 52), hide a link (OSC 8) or reorder what is shown.
 */

/** The characters escaped. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The same, less the line feed and the tab: for formats where a line break of the suite's own text is layout (XML, HTML). */
export const CONTROL_CHARACTERS_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/** One control character as a visible escape: `\n`, `\r`, `\t`, `\e`, `\x07`, `\u202e`. */
export function controlEscape(character: string): string {
  const named = NAMED[character];
  if (named) return named;
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every control character of `text` as a visible escape; the rest unchanged. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL_CHARACTERS, controlEscape);
}

/** Every control character but line feed and tab (the layout of multi-line text the suite writes itself). */
export function escapeControlsButLayout(text: string): string {
  return text.replace(CONTROL_CHARACTERS_BUT_LAYOUT, controlEscape);
}

/** Whether `text` carries a control character. */
export function hasControls(text: string): boolean {
  return new RegExp(CONTROL_CHARACTERS.source).test(text);
}

/**
 * Target text as it enters a line of the suite's: in double quotes, backslashes and quotes escaped,
 * every control character a visible escape, cut at `max` characters (an ellipsis says so).
 */
export function quote(value: unknown, max = 200): string {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  const cut = text.length > max ? `${text.slice(0, max)}\u2026` : text;
  return `"${escapeControls(cut.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}

/** Deeper than this, no JSON the suite reads is walked (the interface's own documents nest a few levels). */
export const MAX_JSON_DEPTH = 256;

/**
 * The deepest nesting of arrays and objects in a JSON text, found without recursion (a hostile
 * answer of 100000 nested arrays must not overflow the stack of whoever reads it). Strings are
 * skipped, escapes included; the text need not be valid JSON.
 */
export function jsonNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/** A JSON text too deep to walk: the plain sentence, or undefined when it is within the limit. */
export function tooDeep(text: string, what: string, max = MAX_JSON_DEPTH): string | undefined {
  return jsonNesting(text) > max ? `${what} nests deeper than ${max} levels; the suite reads no JSON that deep` : undefined;
}

/** The control characters JSON.stringify leaves raw (DEL, C1, line separators, bidi controls): only ever inside a string, so a `\u` escape is the same JSON. */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON.stringify, with every control character a `\u` escape (issue 29): JSON.stringify escapes C0
 * but writes DEL, C1, U+2028/2029 and the bidi controls as they are, so a report.json shown in a
 * terminal or a viewer would obey the target's. The value read back is the same.
 */
export function controlSafeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
