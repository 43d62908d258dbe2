import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { tooDeep } from './quote.js';

/**
 * Every byte stream from outside has a limit (issue 29): files the suite reads (states files,
 * certificates, reports, CA and key files) are refused, with one plain sentence, when they are
 * larger than the limit or nest deeper than the suite walks.
 */

/** States files, CA certificates, private keys: a few kilobytes each, even with thousands of accounts. */
export const MAX_CONFIG_FILE_BYTES = 16 * 1024 * 1024;
/** report.json and certificates: a full run with every exchange is a few megabytes. */
export const MAX_REPORT_FILE_BYTES = 256 * 1024 * 1024;

export class TooLargeError extends Error {
  override name = 'TooLargeError';
}

/** The file's bytes, or a TooLargeError naming it when it is over `max` (read no further than the limit). */
export function readBounded(path: string, max: number, what: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > max) throw new TooLargeError(`${what} ${path} is ${size} bytes, over the limit of ${max}; the suite reads no ${what} that large`);
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** The text as JSON, refusing (with the plain sentence) JSON nested deeper than the suite walks. */
export function parseBoundedJson(text: string, what: string): unknown {
  const deep = tooDeep(text, what);
  if (deep) throw new TooLargeError(deep);
  return JSON.parse(text);
}
