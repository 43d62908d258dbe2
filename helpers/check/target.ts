import { inject } from 'vitest';
import { HttpClient } from '../net/http.js';
import { RateLimiter } from '../net/rate.js';
import { FileStates } from '../states/file.js';
import { HookStates, NoStates, type StatesTransport } from '../states/transport.js';

/** What the runner hands every test worker: the resolved target and its provider-state transport. */
export interface TargetInfo {
  baseUrl: string;
  embedded: boolean;
  states: { kind: 'hook'; url: string; token?: string } | { kind: 'file'; path: string; leaseUrl?: string } | { kind: 'none' };
  jwtPlatform?: { id: string; privateKeyFile: string };
  timeoutMs: number;
  maxResponseBytes: number;
  maxConcurrency: number;
  strict: boolean;
  /** `--brute-force`: provoke the brute-force restriction (425) by failing logins (opt-in: it loads the target). */
  bruteForce?: boolean;
  /** The road to target and hook (CA_FILE, EXTRA_HEADERS, MAX_REQUESTS_PER_SECOND). */
  caFile?: string;
  headers?: Record<string, string>;
  rate?: number;
  /**
   * Mutation runs only: tests that cite none of these clauses skip at once, since only a test citing the
   * mutant's clause may kill it (an allowed reading lists every clause whose tests it can affect).
   */
  focusClauses?: readonly string[];
  /** The seed the value classes are drawn from (helpers/arrange/draw.ts; --seed, SEED); report.json records it. */
  seed?: string;
  /**
   * Mutation runs only: an id of this run. Their workers outlive a run, and a new reference may listen on the port an
   * earlier one had: the id makes each run a new target, so what a run learnt of its target (onNewTarget) starts afresh.
   */
  run?: string;
  /** Mutation runs only: the BroadcastChannel on which the runner narrows the run once the mutant is killed (narrowing.ts). */
  narrowChannel?: string;
  /** Mutation runs only: the rules still needed from the start of the run (a deviation killed already; narrowing.ts). */
  neededRules?: readonly string[];
  /** Mutation runs only: the ids of the only tests to run (the tests that killed the mutant last time; mutation/hints.ts). */
  onlyTests?: readonly string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetInfo;
  }
}

let cached: { key: string; info: TargetInfo; http: HttpClient; states: StatesTransport } | undefined;

const forgetters: ((target: TargetInfo) => void)[] = [];

/**
 * What a module learns of the target during a run (the form of a JWT's `expire`, say) is forgotten when the worker
 * meets another target: the mutation runner's workers serve one run after another, each against another reference.
 */
export function onNewTarget(forget: (target: TargetInfo) => void): void {
  forgetters.push(forget);
}

/**
 * One target of one run: its base URL and, in mutation runs, the run's id. A module that learns of the target keys what
 * it learns by this and writes only under the current key, so that the late answer of an earlier run's test (still in
 * flight when the kept worker met the next reference, perhaps on the same port) teaches the next run nothing.
 */
export function targetKey(target: Pick<TargetInfo, 'baseUrl' | 'run'>): string {
  return `${target.baseUrl} ${target.run ?? ''}`;
}

/** The targetKey of the target this worker serves now (currentTarget's), or '' before it met one. */
export function currentTargetKey(): string {
  return cached ? targetKey(cached.info) : '';
}

/**
 * The target of this run, with one HTTP client and one state transport per worker. Workers outlive a
 * run (the mutation runner reuses them for every mutant), so the cache is keyed by the target itself.
 */
export function currentTarget(): { info: TargetInfo; http: HttpClient; states: StatesTransport } {
  const info = inject('target');
  if (!info) throw new Error('no target was provided: run the suite through `conformance run` (or `npm start`), not vitest directly');
  const key = JSON.stringify(info);
  if (cached?.key === key) return cached;
  if (cached) void cached.http.close();
  for (const forget of forgetters) forget(info);
  const road = { ...(info.caFile ? { caFile: info.caFile } : {}), ...(info.headers ? { headers: info.headers } : {}) };
  // One cap for everything this worker sends: the target's requests and the hook's calls (the run then has one worker).
  const limiter = info.rate ? new RateLimiter(info.rate) : undefined;
  const http = new HttpClient(info.baseUrl, { timeoutMs: info.timeoutMs, maxResponseBytes: info.maxResponseBytes, maxConcurrency: info.maxConcurrency, ...road, ...(limiter ? { limiter } : {}) });
  const states =
    info.states.kind === 'hook'
      ? new HookStates(info.states.url, info.states.token, info.timeoutMs, { ...road, maxResponseBytes: info.maxResponseBytes, ...(limiter ? { limiter } : {}) })
      : info.states.kind === 'file'
        ? new FileStates(info.states.path, info.states.leaseUrl)
        : new NoStates();
  cached = { key, info, http, states };
  return cached;
}
