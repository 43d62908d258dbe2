import { BroadcastChannel } from 'node:worker_threads';
import { onNewTarget, type TargetInfo } from './target.js';

/**
 * Mutation runs only (mutation/runner.ts): once a deviation is killed, the runner says on the run's BroadcastChannel
 * which rules the tests still to come could pin that no earlier mutant pinned. A test that starts after that and cites
 * none of them would only fail again for a mutant already killed: it skips at once. Tests in flight finish, and a test
 * that starts before the message arrives runs, so a rule is never left unpinned by it. `conformance run` has no such
 * channel and never narrows.
 */
export interface Narrowing {
  /** Rules some test still to come may pin; undefined until the runner narrows the run. */
  needed: ReadonlySet<string> | undefined;
}

let current: { name: string; channel: BroadcastChannel; narrowing: Narrowing } | undefined;

onNewTarget(() => {
  current?.channel.close();
  current = undefined;
});

/** The run's narrowing, listened to from the first test of the run on (undefined outside mutation runs). */
export function narrowingOf(target: TargetInfo): Narrowing | undefined {
  const name = target.narrowChannel;
  if (name === undefined) return undefined;
  if (current?.name !== name) {
    current?.channel.close();
    // A run of a deviation killed already (by its hinted tests) is narrowed from its first test on.
    const narrowing: Narrowing = { needed: target.neededRules ? new Set(target.neededRules) : undefined };
    const channel = new BroadcastChannel(name);
    channel.onmessage = (event) => {
      const needed = (event as { data?: { needed?: unknown } }).data?.needed;
      if (Array.isArray(needed)) narrowing.needed = new Set(needed.filter((rule): rule is string => typeof rule === 'string'));
    };
    // Never what keeps a worker alive.
    channel.unref();
    current = { name, channel, narrowing };
  }
  return current.narrowing;
}

/** The reason a test skips under the narrowing, or undefined when it runs: it cites a rule still needed. */
export function narrowedOut(narrowing: Narrowing | undefined, rules: readonly string[]): string | undefined {
  const needed = narrowing?.needed;
  if (needed === undefined || rules.some((rule) => needed.has(rule))) return undefined;
  return NARROWED_REASON;
}

/** The skip reason of a test left out once the mutant was killed (mutation/runner.ts tells it apart from other skips). */
export const NARROWED_REASON = 'the mutant is killed already, and every rule this test cites is pinned';

/**
 * The reason a test skips in the first run of a deviation, which runs only the tests that killed it last time
 * (mutation/hints.ts). `id` is asked only then: every other run, every test, leaves it uncomputed.
 */
export function notHinted(target: Pick<TargetInfo, 'onlyTests'>, id: () => string): string | undefined {
  return target.onlyTests && !target.onlyTests.includes(id()) ? NOT_HINTED_REASON : undefined;
}

export const NOT_HINTED_REASON = 'the mutant is judged first by the tests that killed it last time';
