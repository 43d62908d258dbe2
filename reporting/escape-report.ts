import { escapeControls } from '../helpers/spec/quote.js';
import type { Report } from './model.js';

/**
 * A report read from disk (`conformance render`) is data, whatever it contains (issue 29): a
 * hand-edited report.json may carry line breaks and control bytes in any string that the run itself
 * would have escaped. Every string is escaped as the run escapes it before the renderers see it:
 * one line each, every control a visible escape. The exceptions are what the renderers already show
 * as data: the JSON bodies (written by JSON.stringify, which escapes line breaks; the renderers escape
 * the rest), a body that is not JSON (shown indented, line by line, each control escaped), and a
 * failure's message, which is one line per error: each of its lines is escaped on its own, and the
 * lines after the first are indented, so that none of them begins a line of a file.
 */
export function escapedReport(report: Report): Report {
  return escapeValue(report, undefined, 0) as Report;
}

const KEPT = new Set(['body', 'bodyText']);
/** Deeper than any record of a report; the bodies under it are not walked. */
const MAX_DEPTH = 64;

function escapeValue(value: unknown, key: string | undefined, depth: number): unknown {
  if (typeof value === 'string') return key === 'message' ? value.split(/\r?\n/).map((line, i) => `${i > 0 ? '  ' : ''}${escapeControls(line)}`).join('\n') : escapeControls(value);
  if (depth > MAX_DEPTH || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => escapeValue(item, undefined, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    // Defined, not assigned: a key `__proto__` stays a key.
    Object.defineProperty(out, escapeControls(name), { value: KEPT.has(name) ? inner : escapeValue(inner, name, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
