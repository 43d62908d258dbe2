/** Rate limits of a target: retrying its 429s, and keeping under a requests-per-second cap. */
import { setTimeout as sleep } from 'node:timers/promises';

/** Retries after a rate-limited answer, each after the wait the target asks for. */
export const RETRY_ATTEMPTS = 3;
/** The longest wait between attempts, whatever Retry-After says. */
export const RETRY_WAIT_CAP_MS = 10_000;
/**
 * How long to wait before retrying this answer, or undefined when it is not a rate limiter's: 429 or
 * 503 with Retry-After. A 429 without it is an answer like any other (a target answering 429 where
 * the specification says 425 is a nonconformance, not a rate limiter). Capped by RETRY_WAIT_CAP_MS
 * and the request timeout.
 */
export function retryDelayMs(status: number, retryAfter: string | undefined, timeoutMs: number, now = Date.now()): number | undefined {
  if ((status !== 429 && status !== 503) || retryAfter === undefined) return undefined;
  const trimmed = retryAfter.trim();
  let wait: number;
  if (/^\d+$/.test(trimmed)) wait = Number(trimmed) * 1000;
  else if (!Number.isNaN(Date.parse(trimmed))) wait = Math.max(0, Date.parse(trimmed) - now);
  else return undefined;
  return Math.min(wait, RETRY_WAIT_CAP_MS, timeoutMs);
}

/**
 * Sends until the answer is not a rate limiter's, or RETRY_ATTEMPTS retries are spent, waiting what
 * each limited answer asks for; `onLimited` hears of every limited answer. For the target and the hook alike.
 */
export async function withRetries<T>(send: () => Promise<T>, limitOf: (answer: T) => { status: number; retryAfter?: string | undefined }, timeoutMs: number, onLimited: () => void = () => {}, signal?: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    const { status, retryAfter } = limitOf(answer);
    const delay = retryDelayMs(status, retryAfter, timeoutMs);
    if (delay === undefined) return answer;
    onLimited();
    if (attempt > RETRY_ATTEMPTS) return answer;
    await sleep(delay, undefined, signal ? { signal } : {});
  }
}

/**
 * Spaces requests so that no more than `perSecond` start in any second: each start waits until
 * `1 / perSecond` seconds after the previous one actually started. Measured from real starts, not
 * from planned slots, so a worker that was busy (timers firing late) never sends a burst to catch up.
 */
export class RateLimiter {
  private last: number | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly interval: number;
  constructor(perSecond: number) {
    this.interval = 1000 / perSecond;
  }
  take(): Promise<void> {
    const turn = this.queue.then(() => this.wait());
    this.queue = turn;
    return turn;
  }
  private async wait(): Promise<void> {
    for (;;) {
      const now = performance.now();
      const due = this.last === undefined ? now : this.last + this.interval;
      if (due <= now) {
        this.last = now;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, due - now));
    }
  }
}

/** What a test's record needs to be judged by notVerifiedWhenLimitedTimeout. */
interface TimedOutRecord {
  outcome: 'passed' | 'failed' | 'skipped';
  reason: string | null;
  failure: unknown;
  rateLimited?: number;
}

/**
 * A test that ran out of time while it waited on a rate limiter (each request may wait RETRY_ATTEMPTS
 * times) measured the road, not the target: not verified, with the reason, instead of failed.
 */
export function notVerifiedWhenLimitedTimeout(records: TimedOutRecord[]): void {
  for (const record of records) {
    if (record.outcome !== 'failed' || !record.rateLimited || !/^Test timed out in \d+ms/.test(record.reason ?? '')) continue;
    record.outcome = 'skipped';
    record.reason = `not verified: rate limited, the test timed out while it waited on ${record.rateLimited} answer(s) of 429 or 503 with Retry-After; lower --rate or raise the target's limit`;
    record.failure = null;
  }
}
