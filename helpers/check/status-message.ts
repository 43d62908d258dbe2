/**
 * The message of a failed status assertion (`t.expectStatus`), and the pattern that tells such a failure from any
 * other: the check framework writes it, the reports (reporting/facts.ts: the headline) and the framework itself (a
 * failure over a list that could not be read whole) read it. No import of vitest, so reports can load it.
 */
export const statusMessage = (allowed: readonly number[], status: number, body: string): string => `expected status ${allowed.join(' or ')}, got ${status}; body: ${body}`;

/** A failure message of a status assertion, as vitest gives it (an error name may stand before it). */
export const STATUS_ASSERTION = /^(?:\w*Error: )?expected status /;
