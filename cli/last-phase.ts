import { beforeAll, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `conformance run`: the BroadcastChannel on which it says that the main phase has ended (cli/main-phase.ts). */
    mainPhaseChannel?: string;
  }
}

/**
 * A setup file of the last phase only (vitest.run.config.ts): its worker starts and imports its file while the
 * main phase still runs, and its tests start once every test of the main phase has ended. A hook, not part of any
 * test: a test's start and duration in the reports are its own. No time-out: the main phase takes as long as it takes.
 */
const channelName = inject('mainPhaseChannel');
if (channelName) beforeAll(() => mainPhaseEnded(channelName), 0);

function mainPhaseEnded(name: string): Promise<void> {
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(name);
    channel.onmessage = (event) => {
      if ((event as MessageEvent).data !== 'ended') return;
      channel.close();
      resolve();
    };
    channel.postMessage('ended?');
  });
}
