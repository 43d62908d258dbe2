import type { Mutant } from './types.js';
import { ALL, reading } from './reading.js';
import { authorizationReadAs } from './round-wb20.js';

/**
 * review-ai F1, registered as an allowed reading: a bearer token whose numeric id is written as the same number otherwise
 * (`<id>.0|<secret>`, `+<id>|<secret>`) authenticates as the token issued. 2.1 gives the token's form, "<numeric_id>|
 * <secret>", and not how the id is read: the common integer parsers (Go's strconv, Java's Long.parseLong, Python's
 * int, .NET's long.Parse, JavaScript's Number) read `+12` as 12, and JavaScript's Number reads `12.0` as 12 too. The
 * secret is still compared whole, so no credential is easier to guess; the suite already left a leading zero
 * (`01|<secret>`) unsent for the same reason. (Current Laravel Sanctum refuses an id that is not all digits before its
 * lookup, review-aj F5; `<id>ab` is no number to any of these parsers and still fails.) Round wb20 had registered it as the deviation
 * wb20-token-id-decimal-writing-accepted; the access table now advises on it (a security note), never fails it.
 */
export const probesReviewAiMutants: Mutant[] = [
  reading(
    'allowed-review-ai-token-id-other-decimal-writing',
    'authentication',
    '5',
    'a bearer token whose numeric id is written as the same number otherwise (<id>.0|<secret>, +<id>|<secret>) is read as the token issued, its secret compared whole (2.1 gives the form <numeric_id>|<secret>, not how the id is read; JavaScript\u2019s Number reads both as the id); a security note, never a failure',
    authorizationReadAs((h) => {
      const m = /^(Bearer\s+)\+?(\d+)(?:\.0+)?(\|.+)$/i.exec(h);
      return m && `${m[1]}${m[2]}${m[3]}` !== h ? `${m[1]}${m[2]}${m[3]}` : undefined;
    }),
    ALL,
  ),
];
