import type { TestRecord } from '../reporting/model.js';

/** How long the tests in flight get to finish and clean up after Ctrl-C before the run is closed. */
export const CLEANUP_BOUND_MS = 15_000;

export const NOT_RUN = 'not run: the run was interrupted';

/** Ctrl-C before any test ran: nothing to report. */
export class InterruptedBeforeTests extends Error {
  override name = 'InterruptedBeforeTests';
}

/**
 * Ctrl-C during a run: the first stops scheduling tests, lets the tests in flight finish their
 * clean-up (bounded by CLEANUP_BOUND_MS), and the run writes the reports of what finished; a second
 * Ctrl-C exits at once.
 */
export class Interruption {
  interrupted = false;
  private cancel: (() => Promise<unknown>) | undefined;
  private close: (() => Promise<unknown>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly listener = () => this.handle();

  constructor(private readonly enabled: boolean) {
    if (enabled) process.on('SIGINT', this.listener).on('SIGTERM', this.listener);
  }

  private handle(): void {
    if (this.interrupted) {
      process.stderr.write('interrupted twice: stopped without waiting for the clean-up\n');
      process.exit(130);
    }
    this.interrupted = true;
    void this.cancel?.();
    this.timer = setTimeout(() => void this.close?.(), CLEANUP_BOUND_MS);
    this.timer.unref();
  }

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

  throwIfInterrupted(): void {
    if (this.interrupted) throw new InterruptedBeforeTests('interrupted before any test ran; nothing was created, no report written');
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.enabled) process.off('SIGINT', this.listener).off('SIGTERM', this.listener);
  }
}

/** Tests the interruption kept from running (or cut short) are skipped with that reason, never passed. */
export function markNotRun(records: TestRecord[]): void {
  for (const record of records) {
    if (record.outcome === 'skipped' && (record.reason === 'skipped' || /aborted by the user/i.test(record.reason ?? ''))) record.reason = `${NOT_RUN} (Ctrl-C)`;
  }
}
