import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestRecord } from '../reporting/model.js';

/**
 * How long after Ctrl-C the run waits for the tests in flight before it closes them: their requests and
 * waits are aborted at once, their clean-ups bounded (helpers/check/check.ts CLEANUP_AFTER_INTERRUPT_MS).
 */
export const CLEANUP_BOUND_MS = 4_000;

/** How long after an interrupt the run trusts that no test is in flight when none reported its start. */
const IDLE_AFTER_MS = 1_000;

export const NOT_RUN = 'not run: the run was interrupted';

/** Ctrl-C before any test ran: nothing to report. */
export class InterruptedBeforeTests extends Error {
  override name = 'InterruptedBeforeTests';
}

/**
 * Ctrl-C (SIGINT) or SIGTERM during a run, handled alike. Before the tests start (the reference starting,
 * the preflight), the run ends at once with its line: nothing was created. Once they run, the first
 * stops scheduling tests and cancels those in flight (requests aborted, waits cut), whose clean-ups run
 * bounded; the run writes the reports of what finished; a second Ctrl-C exits at once.
 */
export class Interruption {
  interrupted = false;
  /** The clean-up bound fired: tests still in flight were closed before their clean-up ended. */
  cutShort = false;
  private cancel: (() => Promise<unknown>) | undefined;
  private close: (() => Promise<unknown>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The signal that interrupted the run: SIGINT (Ctrl-C) or SIGTERM (what a CI runner sends to cancel a job). */
  signal: NodeJS.Signals | undefined;
  private readonly listener = (signal: NodeJS.Signals) => this.handle(signal);
  /** The channel every test worker listens on (helpers/check/check.ts): the tests in flight abort at once. */
  readonly channelName = `conformance-interrupt-${process.pid}-${Math.random().toString(36).slice(2)}`;

  constructor(private readonly enabled: boolean) {
    if (!enabled) return;
    // The early handler bin/conformance.mjs installs while the modules load hands over to this one: this one
    // first, then the others go. Removing them first would leave a moment with no listener, in which Node
    // restores the default action and a SIGTERM kills the process without its line (seen on a loaded machine).
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      const before = process.listeners(name);
      process.on(name, this.listener);
      for (const listener of before) process.off(name, listener as (signal: NodeJS.Signals) => void);
    }
  }

  /** The run has ended (its reports written, or it failed): what is left is closing the lease server and the reference. */
  private closing = false;
  /** Whether the run that ended wrote its reports (a run that failed before them did not). */
  private reported = false;

  /** The run has ended and only closes what it started: a signal now ends the process at once, with its line. */
  ending(reported = true): void {
    this.closing = true;
    this.reported = reported;
  }

  private handle(signal: NodeJS.Signals): void {
    if (this.closing) {
      // Without a listener, Node's default action would end the process silently; the run itself is over.
      process.stderr.write(`interrupted by ${signalName(signal)} while the run closed: ${this.reported ? 'its tests had ended and its reports are written' : 'it had ended without writing its reports'}\n`);
      process.exit(130);
    }
    if (!this.interrupted && !this.cancel) {
      // Before any test: no record was created, nothing to clean up or report; waiting on the preflight would only delay the exit.
      process.stderr.write(`${new InterruptedBeforeTests(beforeTestsLine(signal)).message}\n`);
      process.exit(130);
    }
    if (this.interrupted) {
      rmSync(interruptMarker(this.channelName), { force: true });
      process.stderr.write(`interrupted twice (${signal}): stopped without waiting for the clean-up\n`);
      process.exit(130);
    }
    this.interrupted = true;
    this.signal = signal;
    // A worker that subscribes after the message (still loading its files) finds the marker instead
    // (helpers/check/check.ts): a BroadcastChannel keeps no message for a listener yet to come.
    try {
      writeFileSync(interruptMarker(this.channelName), signal);
    } catch {
      // Only the late workers miss the interrupt: the run's close after CLEANUP_BOUND_MS still bounds them.
    }
    const channel = new BroadcastChannel(this.channelName);
    channel.postMessage('interrupted');
    channel.close();
    void this.cancel?.();
    this.timer = setTimeout(() => {
      this.cutShort = this.inFlight > 0;
      void this.close?.();
    }, CLEANUP_BOUND_MS);
    this.timer.unref();
    // No test in flight (the workers still loading their files, or between tests): nothing to wait for,
    // nothing created to clean up; the run closes as soon as that holds rather than after the whole bound.
    // The workers report a test's start in batches: a start is trusted to have arrived after IDLE_AFTER_MS.
    const since = Date.now();
    this.idle = setInterval(() => {
      if (this.inFlight > 0 || Date.now() - since < IDLE_AFTER_MS) return;
      clearInterval(this.idle);
      void this.close?.();
    }, 250);
    this.idle.unref();
  }

  private readonly running = new Set<string>();
  private get inFlight(): number {
    return this.running.size;
  }
  private idle: NodeJS.Timeout | undefined;
  /** Knows the tests in flight (a vitest reporter of the run): an interrupt waits only for them. */
  readonly reporter = {
    onTestCaseReady: (testCase: { id: string }) => {
      this.running.add(testCase.id);
    },
    onTestCaseResult: (testCase: { id: string }) => {
      this.running.delete(testCase.id);
    },
  };

  /** While the tests run: how to cancel them, and how to stop waiting for them. */
  onInterrupt(cancel: () => Promise<unknown>, close: () => Promise<unknown>): void {
    this.cancel = cancel;
    this.close = close;
    if (this.interrupted) void cancel();
  }

  /** vitest exits the process on SIGINT; while this run handles Ctrl-C, only this handler answers it. */
  silenceOthers(): void {
    if (!this.enabled) return;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) if (listener !== this.listener) process.off(signal, listener);
    }
  }

  /** The tests are over: the clean-up bound no longer applies. */
  testsEnded(): void {
    clearTimeout(this.timer);
    clearInterval(this.idle);
  }

  /** The stderr line of an interrupted run: what finished, what never started, and whether the clean-up ran to its end. */
  summaryLine(records: TestRecord[], unreached: readonly string[], reportFile: string | undefined): string {
    const finished = records.filter((t) => !t.reason?.startsWith(NOT_RUN)).length;
    const left = records.flatMap((t) => t.leftBehind ?? []).length;
    const cleanup = this.cutShort
      ? `the clean-up was cut short after ${CLEANUP_BOUND_MS / 1000} s: records of the tests still in flight may remain`
      : left > 0
        ? `the clean-up could not finish ${left} step(s) in time: listed above and in the report`
        : 'the clean-up of created records ran';
    return `interrupted by ${signalName(this.signal)}: stopped after ${finished} of ${records.length} tests${unreached.length > 0 ? ` (never started: ${unreached.join(', ')})` : ''}; ${cleanup}; reports of what finished are marked interrupted${reportFile ? ` (${reportFile})` : ''}`;
  }

  throwIfInterrupted(): void {
    if (this.interrupted) throw new InterruptedBeforeTests(beforeTestsLine(this.signal));
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearInterval(this.idle);
    rmSync(interruptMarker(this.channelName), { force: true });
    if (this.enabled) process.off('SIGINT', this.listener).off('SIGTERM', this.listener);
  }
}

/** The file that says a run was interrupted, for the workers that were not yet listening on its channel. */
export function interruptMarker(channelName: string): string {
  return join(tmpdir(), channelName);
}

/** The one line of a run interrupted before its tests. */
function beforeTestsLine(signal: NodeJS.Signals | undefined): string {
  return `interrupted by ${signalName(signal)} before any test ran; nothing was created, no report written`;
}

/** How the line names a signal: Ctrl-C is what a person pressed, SIGTERM what a CI runner sent. */
export function signalName(signal: NodeJS.Signals | undefined): string {
  return signal === 'SIGINT' || signal === undefined ? 'SIGINT (Ctrl-C)' : signal;
}

/** Tests the interruption kept from running (or cut short) are skipped with that reason, never passed. */
export function markNotRun(records: TestRecord[], signal?: NodeJS.Signals): void {
  for (const record of records) {
    if (record.outcome === 'skipped' && (record.reason === 'skipped' || /aborted by the user/i.test(record.reason ?? ''))) record.reason = `${NOT_RUN} (${signalName(signal)})`;
  }
}
