import type { TestModule, TestSpecification } from 'vitest/node';

/** The name of vitest.run.config.ts's project that runs the tests left to the end of the run (the brute-force provocations). */
export const LAST_PROJECT = 'last';

/**
 * The suite files that hold a test run last (CheckMeta.runsLast: the brute-force provocations, and another 2FA account's
 * code, which no other 2FA login may come between): `conformance run`'s last phase (vitest.run.config.ts) and the
 * mutation runner's (mutation/runner.ts) collect them once every other test has ended.
 */
export const RUNS_LAST = ['suites/authentication.test.js'];

/**
 * The end of `conformance run`'s main phase, told to the last phase's worker (cli/last-phase.ts). Both phases are
 * scheduled together (vitest.run.config.ts), the last one's file after every other: its worker starts and imports
 * its file while the main phase's last files run, then waits here until every file of the main phase has ended.
 * Before, the last phase was a group of its own, whose worker vitest started only then: about a second of every
 * run (a thread, vitest's runtime and the suite's modules) spent after the last test of the main phase.
 *
 * The main phase ends when vitest reports the end of each of its modules (a module that failed to load ends too).
 * Also released when the run is interrupted (the waiting tests are then reported as not run), and when a worker
 * thread crashes (its module would never end: the run must not hang on it).
 */
export class MainPhaseEnd {
  readonly channelName = `conformance-main-phase-${process.pid}-${Math.random().toString(36).slice(2)}`;
  private readonly channel = new BroadcastChannel(this.channelName);
  private remaining: number | undefined;
  private ended = false;
  private readonly onWorker = (worker: { once(event: 'error', listener: () => void): unknown }) => {
    worker.once('error', () => this.release());
  };

  constructor() {
    // A worker that starts to wait after the end asks, and is answered at once (a BroadcastChannel keeps no message).
    this.channel.onmessage = (event) => {
      if ((event as MessageEvent).data === 'ended?' && this.ended) this.channel.postMessage('ended');
    };
    (this.channel as unknown as { unref(): void }).unref();
    process.on('worker', this.onWorker);
  }

  /** A reporter of the run: counts the main phase's modules, and tells their end. */
  readonly reporter = {
    onTestRunStart: (specifications: readonly TestSpecification[]) => {
      this.remaining = specifications.filter((spec) => spec.project.name !== LAST_PROJECT).length;
      if (this.remaining === 0) this.release();
    },
    onTestModuleEnd: (module: TestModule) => {
      if (module.project.name === LAST_PROJECT || this.remaining === undefined) return;
      this.remaining--;
      if (this.remaining <= 0) this.release();
    },
  };

  /** Every test of the main phase has ended (or the run is interrupted): the last phase's tests may start. */
  release(): void {
    if (this.ended) return;
    this.ended = true;
    this.channel.postMessage('ended');
  }

  close(): void {
    process.off('worker', this.onWorker);
    this.channel.close();
  }
}
