import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { inject, type TestContext } from 'vitest';
import type { CheckContext, CheckMeta, EndpointChecks } from '../helpers/check/check.js';
import { endpointById } from '../helpers/spec/catalogue.js';
import { TransportError, type ApiResponse, type Exchange, type RequestSpec } from '../helpers/net/http.js';
import { RETRY_ATTEMPTS } from '../helpers/net/rate.js';
import { RESTRICTED_REASON, isRestrictedLogin } from '../helpers/spec/logins.js';

/**
 * The machinery of `conformance explore`: a property is one conformance test (named by the
 * property, citing its clauses like any check) whose body lets fast-check generate inputs from the
 * field rules, shrinks a failing input to the smallest one that still fails, and replays that one
 * input once more so the report carries its exchanges (and the terminal a curl to replay it).
 */

export interface ExplorationSettings {
  /** The run's seed; each property derives its own from it and its name. */
  seed: number;
  /** Runs per property at scale 1 (the default budget); properties that create records use fewer. */
  runs: number;
  /** A file each property appends one JSON line to: its name, runs and the cards it created. */
  ledger?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    exploration: ExplorationSettings;
  }
}

export function settings(): ExplorationSettings {
  const value = inject('exploration');
  if (!value) throw new Error('no exploration settings were provided: run the properties through `conformance explore`');
  return value;
}

/**
 * What a property's probe uses: requests (recorded only when the shrunk counterexample is replayed), advisories, states.
 * Requests go through the test's context as the suites' do (`CheckContext.request`, quietly): every answer is scanned
 * for credentials (a finding fails the property's test, as in `conformance run`) and a list answered in pages is read
 * whole before the probe judges it (helpers/check/pages.ts). An answer that is about the road, not the rule under test,
 * ends the run as not verified (`NotVerified`): a 425 to a login (the brute-force restriction, RESTRICTED_REASON) and a
 * rate limiter's answer left after every retry.
 */
export interface Probe {
  t: CheckContext;
  /** The request under test: the last exchange of a replay (its first page, for a list), so the report's curl replays it. */
  send(spec: RequestSpec): Promise<ApiResponse>;
  /** Follow-up requests (a read that shows whether a refused value was stored, a clean-up). */
  read(spec: RequestSpec): Promise<ApiResponse>;
  /** Ends the run as not verified, with the reason (never a counterexample; once a failure is found, it ends the shrinking). */
  notVerified(reason: string): never;
  /**
   * An observation where the specification leaves the answer open (ambiguous counting, trimming,
   * normalisation). `kind` groups observations that differ only in the value (default: the message).
   */
  advise(message: string, kind?: string): void;
  /** Counts a card created (cards cannot be deleted; each run says how many it created). */
  cardCreated(): void;
}

export interface PropertyOptions<T, S> {
  arbitrary: fc.Arbitrary<T>;
  /** Runs of this property from the base budget (default: the base budget). */
  runs?: (base: number) => number;
  /** Inputs tried before the generated ones: the boundaries of the rule. */
  examples?: T[];
  /** false: report the first counterexample unshrunk (each accepted shrink step would create a card that cannot be deleted). */
  shrink?: false;
  /** How the counterexample is shown (secret fields by their shape, never their value). */
  show?: (value: T) => string;
  /** Arranged once for the property (a user and token); skipped tests skip here. */
  arrange: (t: CheckContext) => Promise<S>;
  /** One run: throws (an assertion) when the answer breaks a rule the specification states. */
  probe: (probe: Probe, value: T, arranged: S) => Promise<void>;
}

const MAX_ADVISORIES = 5;
/** Shrink steps tried per failing property (each one request or a few). */
const MAX_SHRINK_PROBES = 80;

/** vitest's skip (`context.skip`, which `t.skip` and a missing provider state call) throws this. */
export function isSkip(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'VITEST_PENDING';
}

/** A run that could not be judged (Probe.notVerified): the property ends not verified, or, after a failure, stops shrinking. */
export class NotVerified extends Error {
  override name = 'NotVerified';
}

/**
 * vitest's skip marks the running test as skipped before it throws (`result.pending`), and a test so marked ends skipped
 * whatever it throws next. A skip met while a failure found is being shrunk (a state refused, say) only ends the
 * shrinking: the mark is taken off again, so that the failure is reported as one (review-an).
 */
function unmarkSkip(test: TestContext): void {
  const result = test.task.result as { pending?: boolean } | undefined;
  if (result) delete result.pending;
}

/** The answer about the road, not the target's rules, that one of `exchanges` got, if any (Probe). */
export function roadBlock(exchanges: readonly Exchange[]): string | undefined {
  if (exchanges.some(isRestrictedLogin)) return RESTRICTED_REASON;
  const limited = exchanges.find((exchange) => (exchange.rateLimited ?? 0) > RETRY_ATTEMPTS);
  if (limited) return `not verified: rate limited, the target still answered ${limited.response?.status ?? 429} with Retry-After after ${RETRY_ATTEMPTS} retries; lower --rate or raise the target's limit`;
  return undefined;
}

/** Why a run was not judged: a NotVerified's reason, or a skip's note. */
function reasonOf(error: unknown): string {
  if (error instanceof NotVerified) return error.message;
  const note = (error as { note?: unknown }).note;
  return typeof note === 'string' && note !== '' ? note : 'a step was skipped';
}

/** What `search` found: fast-check's details, and what ended it otherwise. */
export interface SearchOutcome<T> {
  details: fc.RunDetails<[T]>;
  /** A failing transport: it ended the search at once (no shrinking over a dead link). */
  transport?: TransportError;
  /** A skip or a run not verified before any failure: the property is not verified, unshrunk. */
  skipped?: unknown;
  /** Why the shrinking of a failure found stopped early: a step that could not be judged. */
  shrinkStopped?: string;
}

/**
 * Runs one property's inputs with fast-check and shrinks a failure. A skip (a missing state, no disposable account) or a
 * run not verified (NotVerified: a 425 to a login, a rate limiter) is not a counterexample: before any failure it ends
 * the search as skipped, unshrunk; once a failure was found it only ends the shrinking (`onSkipWhileShrinking` hears of a
 * vitest skip, whose mark on the test must come off), and the smallest failure so far stands as the failure (review-an).
 * Shrinking is bounded: each step is a request to the target; past MAX_SHRINK_PROBES the smallest failure so far stands.
 */
export async function search<T>(
  arbitrary: fc.Arbitrary<T>,
  run: (value: T) => Promise<void>,
  options: { seed: number; numRuns: number; shrink: boolean; examples?: T[]; onSkipWhileShrinking?: () => void },
): Promise<SearchOutcome<T>> {
  let transport: TransportError | undefined;
  let skipped: unknown;
  let shrinkStopped: string | undefined;
  let shrinkProbes = -1;
  const guarded = async (value: T) => {
    if (transport) throw transport;
    if (skipped) return;
    if (shrinkProbes >= 0 && (shrinkStopped !== undefined || ++shrinkProbes > MAX_SHRINK_PROBES)) throw new fc.PreconditionFailure(true);
    try {
      await run(value);
    } catch (error) {
      if (isSkip(error) || error instanceof NotVerified) {
        if (shrinkProbes < 0) return void (skipped = error);
        if (isSkip(error)) options.onSkipWhileShrinking?.();
        shrinkStopped = reasonOf(error);
        return;
      }
      if (error instanceof TransportError) transport = error;
      if (shrinkProbes < 0) shrinkProbes = 0;
      throw error;
    }
  };
  const details = await fc.check(fc.asyncProperty(arbitrary, guarded), {
    seed: options.seed,
    numRuns: options.numRuns,
    endOnFailure: !options.shrink,
    ...(options.examples ? { examples: options.examples.map((e) => [e] as [T]) } : {}),
  });
  return { details, ...(transport ? { transport } : {}), ...(skipped ? { skipped } : {}), ...(shrinkStopped !== undefined ? { shrinkStopped } : {}) };
}

function propertySeed(seed: number, name: string): number {
  return createHash('sha256').update(`${seed}\u0000${name}`).digest().readInt32LE(0);
}

/** Declares one property of `endpoint` as a conformance test. */
export function property<T, S>(endpoint: EndpointChecks, name: string, meta: CheckMeta, options: PropertyOptions<T, S>): void {
  endpoint.check(`property: ${name}`, meta, async (t, test) => {
    const { seed, runs, ledger } = settings();
    const group = endpointById.get(endpoint.id)!.group;
    const numRuns = Math.max(1, Math.round(options.runs ? options.runs(runs) : runs));
    const arranged = await options.arrange(t);
    // By kind: the first message of each kind, and how many runs observed it.
    const advisories = new Map<string, { message: string; count: number }>();
    let cards = 0;
    const advise = (message: string, kind = message) => {
      const seen = advisories.get(kind);
      if (seen) seen.count++;
      else advisories.set(kind, { message, count: 1 });
    };
    // One request through the test's context (scanned, a list read whole); `record` hears of each of its exchanges.
    const request = async ({ method, path, ...options }: RequestSpec, record: (exchange: Exchange) => void = () => {}) => {
      const exchanges: Exchange[] = [];
      const response = await t.request(method, path, options, { capture: (exchange) => (exchanges.push(exchange), record(exchange)), advise: (message) => advise(message, 'list read in pages') });
      const blocked = roadBlock(exchanges);
      if (blocked !== undefined) throw new NotVerified(blocked);
      return response;
    };
    const notVerified = (reason: string): never => {
      throw new NotVerified(reason);
    };
    const quiet: Probe = {
      t,
      send: (spec) => request(spec),
      read: (spec) => request(spec),
      notVerified,
      advise,
      cardCreated: () => void cards++,
    };
    const ownSeed = propertySeed(seed, name);
    const { details, transport, skipped, shrinkStopped } = await search(options.arbitrary, (value) => options.probe(quiet, value, arranged), {
      seed: ownSeed,
      numRuns,
      shrink: options.shrink !== false,
      ...(options.examples ? { examples: options.examples } : {}),
      onSkipWhileShrinking: () => unmarkSkip(test),
    });
    const shown = [...advisories].slice(0, MAX_ADVISORIES);
    for (const [, { message, count }] of shown) t.advise(`${message}${count > 1 ? ` (${count} runs observed this kind; the first is shown)` : ''}`);
    if (advisories.size > MAX_ADVISORIES) t.advise(`${advisories.size - MAX_ADVISORIES} more kinds of advisory observation`);
    const record = () => ledger && appendFileSync(ledger, `${JSON.stringify({ property: name, runs: details.numRuns, cards })}\n`);
    if (transport) {
      record();
      throw transport;
    }
    if (skipped) {
      record();
      if (skipped instanceof NotVerified) t.skip(skipped.message);
      throw skipped;
    }
    if (!details.failed) return void record();

    const value = details.counterexample![0] as T;
    const shownValue = options.show ? options.show(value) : JSON.stringify(value);
    const where = `after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s); replay: conformance explore --seed ${seed} --runs ${runs} --group ${group} (property seed ${ownSeed}, path ${details.counterexamplePath})`;
    const run = test.task.meta.run!;
    const reads: Exchange[] = [];
    let sent: Exchange | undefined;
    const replay: Probe = {
      t,
      // The request under test is the first exchange of its send (a list's further pages are reads).
      send: (spec) => {
        let first = true;
        return request(spec, (exchange) => (first ? ((sent = exchange), (first = false)) : reads.push(exchange)));
      },
      read: (spec) => request(spec, (exchange) => reads.push(exchange)),
      notVerified,
      advise: () => {},
      cardCreated: () => void cards++,
    };
    let replayError: unknown;
    // A replay that cannot be judged (a 425, a state refused) leaves the failure found as it was found.
    let replayBlocked: string | undefined;
    try {
      await options.probe(replay, value, arranged);
    } catch (error) {
      if (isSkip(error) || error instanceof NotVerified) {
        if (isSkip(error)) unmarkSkip(test);
        replayBlocked = reasonOf(error);
      } else replayError = error;
    }
    record();
    run.exchanges.push(...reads, ...(sent ? [sent] : []));
    const cause = (replayError ?? details.errorInstance) as Error | undefined;
    const notes = [shrinkStopped !== undefined ? `shrinking stopped: ${shrinkStopped}` : '', replayBlocked !== undefined ? `not replayed: ${replayBlocked}` : ''].filter(Boolean);
    throw new Error(`counterexample ${shownValue}: ${cause?.message ?? String(cause)} (${where}${notes.map((note) => `; ${note}`).join('')})`);
  });
}

