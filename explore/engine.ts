import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { inject } from 'vitest';
import type { CheckContext, CheckMeta, EndpointChecks } from '../helpers/check/check.js';
import { endpointById } from '../helpers/spec/catalogue.js';
import { TransportError, type ApiResponse, type Exchange, type RequestSpec } from '../helpers/net/http.js';
import { currentTarget } from '../helpers/check/target.js';

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

/** What a property's probe uses: requests (recorded only when the shrunk counterexample is replayed), advisories, states. */
export interface Probe {
  t: CheckContext;
  /** The request under test: the last exchange of a replay, so the report's curl replays it. */
  send(spec: RequestSpec): Promise<ApiResponse>;
  /** Follow-up requests (a read that shows whether a refused value was stored, a clean-up). */
  read(spec: RequestSpec): Promise<ApiResponse>;
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
    const { http } = currentTarget();
    // By kind: the first message of each kind, and how many runs observed it.
    const advisories = new Map<string, { message: string; count: number }>();
    let cards = 0;
    const quiet: Probe = {
      t,
      send: (spec) => http.send(spec),
      read: (spec) => http.send(spec),
      advise: (message, kind = message) => {
        const seen = advisories.get(kind);
        if (seen) seen.count++;
        else advisories.set(kind, { message, count: 1 });
      },
      cardCreated: () => void cards++,
    };
    const ownSeed = propertySeed(seed, name);
    // A failing transport is about the road, not the target: it ends the property at once (no shrinking over a dead link).
    let transport: TransportError | undefined;
    // A skip (a missing state, no disposable account) is not a counterexample: it ends the property as skipped, unshrunk.
    let skipped: unknown;
    // Shrinking is bounded: each step is a request to the target. Past the budget the smallest failure so far is reported.
    let shrinkProbes = -1;
    const guarded = async (value: T) => {
      if (transport) throw transport;
      if (skipped) return;
      if (shrinkProbes >= 0 && ++shrinkProbes > MAX_SHRINK_PROBES) throw new fc.PreconditionFailure(true);
      try {
        await options.probe(quiet, value, arranged);
      } catch (error) {
        if (isSkip(error)) return void (skipped = error);
        if (error instanceof TransportError) transport = error;
        if (shrinkProbes < 0) shrinkProbes = 0;
        throw error;
      }
    };
    const details = await fc.check(
      fc.asyncProperty(options.arbitrary, guarded),
      { seed: ownSeed, numRuns, endOnFailure: options.shrink === false, ...(options.examples ? { examples: options.examples.map((e) => [e] as [T]) } : {}) },
    );
    const shown = [...advisories].slice(0, MAX_ADVISORIES);
    for (const [, { message, count }] of shown) t.advise(`${message}${count > 1 ? ` (${count} runs observed this kind; the first is shown)` : ''}`);
    if (advisories.size > MAX_ADVISORIES) t.advise(`${advisories.size - MAX_ADVISORIES} more kinds of advisory observation`);
    const record = () => ledger && appendFileSync(ledger, `${JSON.stringify({ property: name, runs: details.numRuns, cards })}\n`);
    if (transport || skipped) {
      record();
      throw transport ?? skipped;
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
      send: (spec) => http.send(spec, (exchange) => (sent = exchange)),
      read: (spec) => http.send(spec, (exchange) => reads.push(exchange)),
      advise: () => {},
      cardCreated: () => void cards++,
    };
    let replayError: unknown;
    try {
      await options.probe(replay, value, arranged);
    } catch (error) {
      replayError = error;
    }
    record();
    run.exchanges.push(...reads, ...(sent ? [sent] : []));
    const cause = (replayError ?? details.errorInstance) as Error | undefined;
    throw new Error(`counterexample ${shownValue}: ${cause?.message ?? String(cause)} (${where})`);
  });
}

