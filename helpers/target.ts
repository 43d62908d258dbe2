import { inject } from 'vitest';
import { HttpClient } from './http.js';
import { FileStates, HookStates, NoStates, type StatesTransport } from './states.js';

/** What the runner hands every test worker: the resolved target and its provider-state transport. */
export interface TargetInfo {
  baseUrl: string;
  embedded: boolean;
  states: { kind: 'hook'; url: string; token?: string } | { kind: 'file'; path: string } | { kind: 'none' };
  jwtPlatform?: { id: string; privateKeyFile: string };
  timeoutMs: number;
  maxResponseBytes: number;
  maxConcurrency: number;
  strict: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetInfo;
  }
}

let cached: { info: TargetInfo; http: HttpClient; states: StatesTransport } | undefined;

/** The target of this run, with one HTTP client and one state transport per worker. */
export function currentTarget(): { info: TargetInfo; http: HttpClient; states: StatesTransport } {
  if (cached) return cached;
  const info = inject('target');
  if (!info) throw new Error('no target was provided: run the suite through `conformance run` (or `npm start`), not vitest directly');
  const http = new HttpClient(info.baseUrl, { timeoutMs: info.timeoutMs, maxResponseBytes: info.maxResponseBytes, maxConcurrency: info.maxConcurrency });
  const states =
    info.states.kind === 'hook'
      ? new HookStates(info.states.url, info.states.token, info.timeoutMs)
      : info.states.kind === 'file'
        ? new FileStates(info.states.path)
        : new NoStates();
  cached = { info, http, states };
  return cached;
}
