import { describe, expect, it } from 'vitest';
import { LAST_PROJECT, MainPhaseEnd } from '../cli/main-phase.js';

/** What the last phase's worker does (cli/last-phase.ts): asks, then waits for `ended`. */
function waitsForEnd(name: string): { ended: () => boolean; done: Promise<void> } {
  let ended = false;
  const channel = new BroadcastChannel(name);
  const done = new Promise<void>((resolve) => {
    channel.onmessage = (event) => {
      if ((event as MessageEvent).data !== 'ended') return;
      ended = true;
      channel.close();
      resolve();
    };
  });
  channel.postMessage('ended?');
  return { ended: () => ended, done };
}

const spec = (project: string) => ({ project: { name: project } }) as never;
const module = (project: string) => ({ project: { name: project } }) as never;
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the end of the main phase, told to the last phase (cli/main-phase.ts)', () => {
  it('releases the last phase once every module of the main phase has ended, never before', async () => {
    const phase = new MainPhaseEnd();
    try {
      phase.reporter.onTestRunStart([spec('main'), spec('main'), spec(LAST_PROJECT)]);
      const worker = waitsForEnd(phase.channelName);
      phase.reporter.onTestModuleEnd(module('main'));
      // The last phase's own module ending says nothing about the main phase.
      phase.reporter.onTestModuleEnd(module(LAST_PROJECT));
      await settle();
      expect(worker.ended()).toBe(false);
      phase.reporter.onTestModuleEnd(module('main'));
      await worker.done;
    } finally {
      phase.close();
    }
  });

  it('answers a worker that starts to wait after the end at once', async () => {
    const phase = new MainPhaseEnd();
    try {
      phase.reporter.onTestRunStart([spec('main'), spec(LAST_PROJECT)]);
      phase.reporter.onTestModuleEnd(module('main'));
      await settle();
      await waitsForEnd(phase.channelName).done;
    } finally {
      phase.close();
    }
  });

  it('releases at once a run whose selection has no file in the main phase, and on an interrupt', async () => {
    const empty = new MainPhaseEnd();
    const interrupted = new MainPhaseEnd();
    try {
      empty.reporter.onTestRunStart([spec(LAST_PROJECT)]);
      await waitsForEnd(empty.channelName).done;
      interrupted.reporter.onTestRunStart([spec('main'), spec(LAST_PROJECT)]);
      const worker = waitsForEnd(interrupted.channelName);
      interrupted.release();
      await worker.done;
    } finally {
      empty.close();
      interrupted.close();
    }
  });
});
