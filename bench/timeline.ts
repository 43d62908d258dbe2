/**
 * Where the wall time of a remote run goes, from what the benchmark's proxy saw: each request's
 * start and end (ms, on the benchmark's clock), its path and the bytes it sent.
 */
export interface Exchange {
  path: string;
  start: number;
  end: number;
  bytesIn: number;
}

export interface Split {
  /** From the spawn to the end of the preflight (its provider-state probe, the first hook call): Node, the CLI, vitest loaded. */
  startUp: number;
  /** From there to the first request of a test: vitest's workers booted, the suite's modules imported. */
  workerBoot: number;
  /** From the first request of a test to the last answer. */
  tests: number;
  /** Of the tests' time: no request in flight (the suite's own work, or waiting to send the next, dependent, request). */
  idle: number;
  /** Of the tests' time: at least one upload of 1 MB or more in flight. */
  uploads: number;
  /** From the last answer to the process's exit: workers closed, reports written. */
  wrapUp: number;
}

const UPLOAD_BYTES = 1024 * 1024;

/** Milliseconds covered by the union of the intervals. */
function covered(intervals: [number, number][]): number {
  let total = 0;
  let reach = -Infinity;
  for (const [start, end] of [...intervals].sort((a, b) => a[0] - b[0])) {
    if (end <= reach) continue;
    total += end - Math.max(start, reach);
    reach = end;
  }
  return total;
}

/** The split of one run, in seconds; undefined when the run sent no test request after its preflight. */
export function splitOf(spawnedAt: number, exitedAt: number, exchanges: readonly Exchange[], statesPath: string): Split | undefined {
  const ordered = [...exchanges].sort((a, b) => a.start - b.start);
  const probe = ordered.findIndex((exchange) => exchange.path.startsWith(statesPath));
  const tests = ordered.slice(probe + 1);
  if (probe < 0 || tests.length === 0) return undefined;
  const first = tests[0]!.start;
  const last = Math.max(...tests.map((exchange) => exchange.end));
  const seconds = (ms: number) => ms / 1000;
  return {
    startUp: seconds(ordered[probe]!.end - spawnedAt),
    workerBoot: seconds(first - ordered[probe]!.end),
    tests: seconds(last - first),
    idle: seconds(last - first - covered(tests.map((exchange) => [exchange.start, exchange.end]))),
    uploads: seconds(covered(tests.filter((exchange) => exchange.bytesIn >= UPLOAD_BYTES).map((exchange) => [exchange.start, exchange.end]))),
    wrapUp: seconds(exitedAt - last),
  };
}
