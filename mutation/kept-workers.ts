import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker } from 'vitest/node';

/**
 * Worker threads that outlive a vitest run. vitest stops its workers at the end of every
 * `runTestSpecifications` call, so each mutant's run started new threads and evaluated every module
 * of the suite again (about 1–2 s a run). These threads are vitest's own (`workers/threads.js`, as
 * `pool: 'threads'` starts them) with `isolate: false`, as in a `conformance run`: between two runs a
 * thread keeps the modules it evaluated, and vitest evaluates the test files again (it invalidates
 * them before every run), so each run registers and runs its tests afresh against the target it is given
 * (helpers/check/target.ts keys its client by the target). `close()` ends them.
 */
export interface KeptThreads {
  pool: PoolRunnerInitializer;
  close: () => Promise<void>;
}

type Listener = (arg: any) => void;

export function keptThreads(): KeptThreads {
  const parked: Worker[] = [];
  const all = new Set<Worker>();

  class KeptThreadWorker implements PoolWorker {
    readonly name = 'kept-threads';
    private thread: Worker | undefined;
    /** Set up by vitest's first "start" message: a reused thread is answered "started" without setting up again. */
    private started = false;
    private listeners: Array<[string, Listener]> = [];
    private emitted: Listener[] = [];
    /** A run or collect was sent and its file has not finished: such a thread (a cancelled run) is ended, not kept. */
    private busy = false;
    private readonly onFinished: Listener = (message) => {
      if (message?.__vitest_worker_response__ && message.type === 'testfileFinished') this.busy = false;
    };

    constructor(private readonly options: PoolOptions) {}

    on(event: string, callback: Listener): void {
      if (event === 'message') this.emitted.push(callback);
      this.listeners.push([event, callback]);
      this.thread!.on(event, callback);
    }

    off(event: string, callback: Listener): void {
      this.listeners = this.listeners.filter(([e, c]) => !(e === event && c === callback));
      if (event === 'message') this.emitted = this.emitted.filter((c) => c !== callback);
      this.thread?.off(event, callback);
    }

    /** Answers as the thread would: vitest's runner listens to the thread's messages. */
    private answer(message: object): void {
      const response = { ...message, __vitest_worker_response__: true };
      setImmediate(() => {
        for (const callback of [...this.emitted]) callback(response);
      });
    }

    send(message: Parameters<PoolWorker['send']>[0]): void {
      // A kept thread is set up once; its "stop" (which tears the thread's runtime down) is never sent.
      if (message.type === 'start' && this.started) return this.answer({ type: 'started' });
      if (message.type === 'stop') return this.answer({ type: 'stopped' });
      if (message.type === 'start') this.started = true;
      if (message.type === 'run' || message.type === 'collect') this.busy = true;
      this.thread!.postMessage(message);
    }

    deserialize(data: unknown): unknown {
      return data;
    }

    async start(): Promise<void> {
      if (this.thread) return;
      const reused = parked.pop();
      if (reused) {
        this.thread = reused;
        this.started = true;
        reused.on('message', this.onFinished);
        return;
      }
      const thread = new Worker(resolve(this.options.distPath, 'workers/threads.js'), { env: this.options.env, execArgv: this.options.execArgv, stdout: true, stderr: true });
      const logger = this.options.project.vitest.logger;
      thread.stdout.pipe(logger.outputStream);
      thread.stderr.pipe(logger.errorStream);
      all.add(thread);
      thread.once('exit', () => {
        all.delete(thread);
        const at = parked.indexOf(thread);
        if (at >= 0) parked.splice(at, 1);
      });
      this.thread = thread;
      thread.on('message', this.onFinished);
    }

    async stop(): Promise<void> {
      const thread = this.thread;
      if (!thread) return;
      this.thread = undefined;
      for (const [event, callback] of this.listeners) thread.off(event, callback);
      thread.off('message', this.onFinished);
      this.listeners = [];
      this.emitted = [];
      if (this.busy) {
        all.delete(thread);
        await thread.terminate();
      } else if (all.has(thread)) parked.push(thread);
    }
  }

  return {
    pool: { name: 'kept-threads', createPoolWorker: (options) => new KeptThreadWorker(options) },
    close: async () => {
      parked.length = 0;
      await Promise.all([...all].map((thread) => thread.terminate()));
      all.clear();
    },
  };
}
