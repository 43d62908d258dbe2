import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { BroadcastChannel } from 'node:worker_threads';
import { createVitest, type InlineConfig, type Reporter, type TestCase, type TestModule } from 'vitest/node';
import type { TargetInfo } from '../helpers/check/target.js';
import { SUITE_CONFIG_LOADER } from '../cli/run.js';
import { RUNS_LAST } from '../cli/main-phase.js';
import { COMPILED_ROOT, PACKAGE_ROOT } from '../helpers/spec/package-root.js';
import { startReference } from '../reference/app.js';
import type { Mutation } from '../reference/mutation.js';
import type { Mutant } from '../reference/mutants/types.js';
import { toRecord } from '../reporting/collector.js';
import type { TestRecord } from '../reporting/model.js';
import { exploreFiles } from '../cli/explore.js';
import { keptThreads } from './kept-workers.js';
import { SKIPPED_ONCE, together, togetherVerdict } from './compose.js';
import { NARROWED_REASON, NOT_HINTED_REASON } from '../helpers/check/narrowing.js';
import { judgedGroups } from './judged.js';
import { cpuNow, nothingSpent, type Spent } from './spent.js';
import type { WorkItem } from './balance.js';

export interface MutantResult {
  name: string;
  clause: string;
  group: string;
  description: string;
  /** Killed: at least one test that cites the mutant's clause failed. */
  killed: boolean;
  /** An allowed reading (must survive). */
  allowed: boolean;
  /** For an allowed reading: no test it can affect failed (see Mutant.judgedBy), so the verdict stays conformant. */
  conformant: boolean;
  /** Ids of the failing tests that cite the clause. */
  killedBy: string[];
  /** The specification's rules those tests cite: the rules this mutant pins. */
  killedRules: string[];
  /**
   * Ids of failing tests that do not cite the clause. Mutation runs focus on the tests citing the
   * mutant's clause (the others skip at once); an allowed reading also runs the tests of the groups
   * and clauses it declares it can affect, whose failures show here.
   */
  otherFailures: string[];
  durationMs: number;
  /** An allowed reading judged in a clean run together with others (mutation/compose.ts): how many readings that run carried. */
  together?: number;
  /** An allowed reading judged alone after a run together was not clean: why it was not. */
  aloneBecause?: string;
  /** A deviation killed by the tests that killed it last time (mutation/hints.ts), run first and alone. */
  byHint?: boolean;
  /** An allowed reading judged in a clean run together with others: the names of that run's readings (mutation/hints.ts). */
  judgedWith?: string[];
  /** An allowed reading that changed no answer of its run, where no other reading did either: the suite did not put it to the test. */
  vacuous?: boolean;
  /** Judged the wrong way first and the right way when judged again alone: the first verdict (runner's wrongVerdict). */
  flaky?: string;
}

export interface BaselineProblem {
  group: string;
  tests: string[];
}

/** Collects the records of one run; reset before each mutant. */
class RunRecords implements Reporter {
  records: TestRecord[] = [];
  /** Hears each test's result as it comes (the kill watch of a deviation's run), if set. */
  onResult: ((testCase: TestCase) => void) | undefined;
  onTestCaseResult(testCase: TestCase): void {
    this.onResult?.(testCase);
  }
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const record = toRecord(test, PACKAGE_ROOT);
        if (record) this.records.push(record);
      }
    }
  }
}

const silent = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * Watches a deviation's run: once a test citing the mutant's clause failed (killed), the rules the tests not yet finished
 * cite, less those pinned by earlier mutants and by this run's failures, are all a test still to come may add. `tell` sends
 * them to the workers (helpers/check/narrowing.ts), where a test citing none of them skips at once. The mutation score
 * and the rules pinned stay what a whole run would give: a test that could pin a rule no mutant pinned yet still runs.
 */
export class KillWatch {
  private killed = false;
  private pending: Set<string>;
  private told: string | undefined;

  constructor(
    private readonly clause: string,
    candidates: readonly string[],
    private readonly rulesOf: ReadonlyMap<string, readonly string[]>,
    private readonly pinned: Set<string>,
  ) {
    this.pending = new Set(candidates);
  }

  /**
   * Another run of the same mutant (the groups alone, after a side-by-side run that skipped a test): its tests are all to
   * come again, and its channel has heard nothing. Without this, the tests the earlier run heard would no longer count as
   * to come, and a kill in the new run would tell its workers that no rule is needed any more: the tests after it would
   * skip though they could pin a rule no mutant pinned. A kill of the earlier run still counts (its failures do).
   */
  restart(candidates: readonly string[]): void {
    this.pending = new Set(candidates);
    this.told = undefined;
  }

  /**
   * The first run of a deviation, of its hinted tests alone (mutation/hints.ts), killed it: their failures pin their rules,
   * and `rest`, the candidates that did not run, are all that is to come. The rules they could still pin: the second run
   * starts narrowed to them, and needs no run at all when there are none.
   */
  killedFirst(failures: readonly Pick<TestRecord, 'clauses' | 'rules'>[], rest: readonly string[]): string[] {
    for (const record of failures) if (record.clauses.includes(this.clause)) for (const rule of record.rules ?? []) this.pinned.add(rule);
    this.killed = true;
    this.pending = new Set(rest);
    const needed = this.needed();
    this.told = needed.join(' ');
    return needed;
  }

  private needed(): string[] {
    return [...new Set([...this.pending].flatMap((id) => this.rulesOf.get(id) ?? []))].filter((rule) => !this.pinned.has(rule)).sort();
  }

  heard(record: Pick<TestRecord, 'id' | 'outcome' | 'clauses' | 'rules'>, tell: (needed: string[]) => void): void {
    this.pending.delete(record.id);
    if (record.outcome === 'failed' && record.clauses.includes(this.clause)) {
      this.killed = true;
      for (const rule of record.rules ?? []) this.pinned.add(rule);
    }
    if (!this.killed) return;
    const needed = this.needed();
    const key = needed.join(' ');
    if (key === this.told) return;
    this.told = key;
    tell(needed);
  }
}

/** The worker threads of a mutation run (MUTANTS_WORKERS, default 2 as in `conformance run`): a whole number from 1. */
export function mutationWorkers(value: string | undefined): number {
  if (value === undefined || value === '') return 2;
  const workers = Number(value);
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`MUTANTS_WORKERS expects a whole number from 1, got "${value}"`);
  return workers;
}

/** Which tests judge the mutants: the suites (default) or the properties of `conformance explore` with a seed and budget. */
export interface MutantSuite {
  config: string;
  ofGroup: (group: string) => string;
  provide?: Record<string, unknown>;
}

export const EXPLORE_SUITE = (seed: number, runs: number): MutantSuite => exploreFiles({ seed, runs });

export { judgedGroups } from './judged.js';

/** The tests that passed against the unmutated reference and skipped in `records`, other than by the focus on a mutant's clauses or the narrowing of a killed one. */
export function newlySkipped(records: readonly TestRecord[], passedUnmutated: ReadonlySet<string>): string[] {
  return records.filter((r) => r.outcome === 'skipped' && passedUnmutated.has(r.id) && !(r.reason ?? '').startsWith('cites none of the clauses') && r.reason !== NARROWED_REASON && r.reason !== NOT_HINTED_REASON).map((r) => r.id);
}

/** A deviation that survived or a reading refused: a verdict against what the registry says of the mutant. */
export function wrongVerdict(result: MutantResult): boolean {
  return result.allowed ? !result.conformant : !result.killed;
}

/** What a wrong verdict was, for the line that shows it was not steady. */
export function firstVerdict(result: MutantResult): string {
  const failed = [...result.killedBy, ...result.otherFailures];
  return result.allowed ? `refused by ${failed.join(', ')}` : failed.length > 0 ? `survived, failed only by tests not citing ${result.clause}: ${failed.join(', ')}` : 'survived, no test failed';
}

function resultOf(mutant: Mutant, failed: readonly TestRecord[], durationMs: number): MutantResult {
  // The quickest first: the kill hints take the first ones (mutation/hints.ts), so a later run tries the cheapest killers.
  const citing = failed.filter((r) => r.clauses.includes(mutant.clause)).sort((a, b) => (a.durationMs ?? 0) - (b.durationMs ?? 0));
  return {
    name: mutant.name,
    clause: mutant.clause,
    group: mutant.group,
    description: mutant.description,
    killed: citing.length > 0,
    allowed: mutant.allowed === true,
    conformant: failed.length === 0,
    killedBy: citing.map((r) => r.id),
    killedRules: [...new Set(citing.flatMap((r) => r.rules ?? []))],
    otherFailures: failed.filter((r) => !r.clauses.includes(mutant.clause)).map((r) => r.id),
    durationMs: Math.round(durationMs),
  };
}

/**
 * Where a shard's work comes from: the units of the whole run (judged by `groups`), handed out one at a time.
 * `next` tells the rules this shard pinned and hears those pinned elsewhere; `requeue` gives back the parts of a unit.
 */
export interface WorkSource {
  groups: readonly string[];
  next(pinnedHere: readonly string[]): Promise<{ item: WorkItem<Mutant> | undefined; pinnedElsewhere: readonly string[] }>;
  requeue(items: readonly WorkItem<Mutant>[]): void;
}

/** The work of one process: `units` in order, parts given back first. */
export function localSource(units: readonly (readonly Mutant[])[]): WorkSource {
  const queue: WorkItem<Mutant>[] = units.map((unit) => ({ unit: [...unit] }));
  return {
    groups: [...new Set(units.flat().flatMap((m) => judgedGroups(m)))],
    next: async () => ({ item: queue.shift(), pinnedElsewhere: [] }),
    requeue: (items) => void queue.unshift(...items),
  };
}

/**
 * The tests of the mutation runner's last phase, learnt from the first (unmutated) run: a later run leaves the last
 * phase out when none of them could run in it (none cites a focused clause, none is among the tests it narrows to), which
 * spares a vitest run of the file for most mutants.
 */
export function lastPhaseTests() {
  let known: { id: string; clauses: readonly string[] }[] | undefined;
  return {
    heard(records: readonly TestRecord[]) {
      if (known !== undefined) return;
      // The first last phase is the unmutated run's, which is never narrowed: one that recorded no test would switch the
      // phase off for every later run unseen (review-al R1), so it is the runner's fault, said at once.
      if (records.length === 0) throw new Error(`the last phase (${RUNS_LAST.join(', ')}) of the unmutated run recorded no test: its tests marked runsLast did not run`);
      known = records.map((r) => ({ id: r.id, clauses: r.clauses }));
    },
    wanted(focusClauses: readonly string[] | undefined, only: readonly string[] | undefined): boolean {
      if (known === undefined) return true;
      return known.some((test) => (focusClauses === undefined || test.clauses.some((c) => focusClauses.includes(c))) && (only === undefined || only.includes(test.id)));
    },
  };
}

/**
 * Runs the suite of each mutant's group against the reference with that one deviation. One vitest
 * instance serves every run (its workers and transforms are reused), so a mutant costs about as
 * much as its group's requests.
 */
export async function runMutants(work: readonly (readonly Mutant[])[] | WorkSource, onResult: (result: MutantResult) => void = () => {}, suite?: MutantSuite, hints: ReadonlyMap<string, readonly string[]> = new Map()): Promise<{ results: MutantResult[]; baseline: BaselineProblem[]; citedRules: string[]; spent: Spent }> {
  const source = Array.isArray(work) ? localSource(work as readonly (readonly Mutant[])[]) : (work as WorkSource);
  const records = new RunRecords();
  const statesToken = randomBytes(24).toString('hex');
  const threads = keptThreads();
  // The suite's configuration, given inline rather than as a file: vitest merges a file's `pool: 'threads'`
  // over an inline pool object (its deepMerge cannot turn a string into an object), which left the kept
  // threads below unused and every run starting a thread and evaluating the suite's modules again.
  const configFile = join(COMPILED_ROOT, suite?.config ?? 'vitest.suite.config.js');
  const { pool: _filePool, ...fileTest } = ((await import(pathToFileURL(configFile).href)) as { default: { test: InlineConfig } }).default.test;
  const vitest = await createVitest(
    'test',
    {
      ...fileTest,
      root: COMPILED_ROOT,
      config: false,
      watch: false,
      reporters: [records],
      // The reference is on loopback, so the runs can be more concurrent than a run against staging.
      maxConcurrency: 16,
      // Two threads, as `conformance run` has (MUTANTS_WORKERS to change it). Six (a thread for each group's file, so that
      // a run's waits overlap the other files) made a run about 2.4 times shorter, but a reading judged after a JWT
      // deviation in the same kept threads was then refused (test/mutation.test.ts "forget between runs"): something a
      // thread learnt of the earlier reference outlives onNewTarget there. One way it could: a test of the earlier run still
      // in flight wrote what it learnt after the worker met the next reference (closed since: helpers/arrange/jwt.ts learns
      // only under the current targetKey); not reproduced since, with six or two (2026-11-26), so two stay the default.
      maxWorkers: mutationWorkers(process.env.MUTANTS_WORKERS),
      ...SUITE_CONFIG_LOADER,
      // The same files run again for every mutant: Vite's module runner evaluates them again from its
      // transforms, where the native imports of a `conformance run` (lighter, slower to repeat) made
      // the mutation run about 40% slower. Memory is not this runner's constraint; the tests are the same.
      experimental: { viteModuleRunner: true },
      // The workers outlive each run (mutation/kept-workers.ts): a run no longer starts threads and
      // evaluates the suite's modules again, only its test files. Not isolated, as in `conformance run`.
      pool: threads.pool,
      isolate: false,
    },
    {},
    { stdout: silent(), stderr: silent() },
  );
  // A vitest that ignored the pool would still run every mutant, only several times slower: say so instead.
  if (vitest.config.pool !== threads.pool.name) throw new Error(`vitest runs the mutants in its "${vitest.config.pool}" pool, not in the kept threads (mutation/kept-workers.ts)`);
  const specifications = await vitest.globTestSpecifications();
  const fileOf = suite?.ofGroup ?? ((group: string) => `/suites/${group}.test.js`);
  const specsOf = (group: string) => specifications.filter((s) => s.moduleId.replace(/\\/g, '/').endsWith(fileOf(group)));

  const lastPhase = lastPhaseTests();

  /**
   * Runs the tests of `groups` against one reference carrying `mutation`, in one vitest run: the
   * groups' files run side by side, as in `conformance run`, so one group's waits overlap another's work.
   */
  async function runGroups(groups: readonly string[], mutation?: Mutation, focusClauses?: readonly string[], watch?: KillWatch, narrow: { only?: readonly string[]; needed?: readonly string[] } = {}): Promise<TestRecord[]> {
    const reference = await startReference({ states: true, statesToken, ...(mutation ? { mutation } : {}) });
    const narrowChannel = watch ? `conformance-narrow-${randomUUID()}` : undefined;
    const channel = narrowChannel ? new BroadcastChannel(narrowChannel) : undefined;
    try {
      const target: TargetInfo = {
        baseUrl: reference.baseUrl,
        embedded: true,
        states: { kind: 'hook', url: reference.statesUrl!, token: statesToken },
        // Generous: the shards share two cores with the rest of `npm test`, and cards upload 10 MB files.
        timeoutMs: 30_000,
        maxResponseBytes: 5 * 1024 * 1024,
        maxConcurrency: 16,
        strict: false,
        // The reference restricts after 5 failures, so the opt-in brute-force check costs a handful of requests here.
        bruteForce: true,
        ...(focusClauses ? { focusClauses } : {}),
        run: randomUUID(),
        ...(narrowChannel ? { narrowChannel } : {}),
        ...(narrow.only ? { onlyTests: narrow.only } : {}),
        ...(narrow.needed ? { neededRules: narrow.needed } : {}),
      };
      vitest.provide('target', target);
      for (const [key, value] of Object.entries(suite?.provide ?? {})) vitest.provide(key as 'target', value as TargetInfo);
      records.records = [];
      records.onResult =
        watch && channel
          ? (testCase) => {
              const record = toRecord(testCase, PACKAGE_ROOT);
              if (record) watch.heard(record, (needed) => channel.postMessage({ needed }));
            }
          : undefined;
      const specs = groups.flatMap((group) => {
        const mine = specsOf(group);
        if (mine.length === 0) throw new Error(`no test file ${fileOf(group)}`);
        return mine;
      });
      // The suite's two phases, as in `conformance run` (vitest.run.config.ts): the tests run last (CheckMeta.runsLast)
      // start once every other test has ended, so that no other test's login comes between their steps (another 2FA
      // account's code, round wb21) and no restriction they provoke blocks another test. The explore properties have none.
      const phased = suite === undefined;
      if (phased) vitest.provide('phase', 'main');
      await vitest.runTestSpecifications(specs);
      const lastSpecs = phased ? specs.filter((s) => RUNS_LAST.some((file) => s.moduleId.replace(/\\/g, '/').endsWith(`/${file}`))) : [];
      if (lastSpecs.length > 0 && lastPhase.wanted(focusClauses, narrow.only)) {
        const main = records.records.length;
        vitest.provide('phase', 'last');
        await vitest.runTestSpecifications(lastSpecs);
        lastPhase.heard(records.records.slice(main));
      }
      // Every group ran: a file that did not load would otherwise judge nothing and fail nothing.
      const silentGroups = groups.filter((group) => !records.records.some((r) => r.group === group));
      if (silentGroups.length > 0) throw new Error(`no test of ${silentGroups.join(', ')} ran`);
      return records.records;
    } finally {
      records.onResult = undefined;
      channel?.close();
      await reference.close();
    }
  }

  try {
    const baseline: BaselineProblem[] = [];
    // The rules the tests of the judged groups cite, from the unmutated runs: each must be pinned by a mutant.
    const citedRules = new Set<string>();
    const judged = [...source.groups];
    const spent = nothingSpent();
    const spend = (kind: keyof Spent, since: number) => {
      spent[kind].runs += 1;
      spent[kind].cpuMs += cpuNow() - since;
    };
    const unmutatedSince = cpuNow();
    const unmutated = await runGroups(judged);
    spend('unmutated', unmutatedSince);
    for (const record of unmutated) for (const rule of record.rules ?? []) citedRules.add(rule);
    for (const group of judged) {
      const failed = unmutated.filter((r) => r.group === group && r.outcome !== 'passed');
      if (failed.length > 0) baseline.push({ group, tests: failed.map((r) => `${r.id} (${r.outcome}: ${r.reason})`) });
    }
    const passedUnmutated = new Set(unmutated.filter((r) => r.outcome === 'passed').map((r) => r.id));
    const results: MutantResult[] = [];
    // The rules a killed deviation pinned so far: a later deviation's run, once killed, leaves out the tests that pin no other.
    const pinned = new Set<string>();
    const rulesOf = new Map(unmutated.map((r) => [r.id, r.rules ?? []]));
    /** Judges one mutant alone: its groups side by side, else each group alone (below). */
    async function judgeAlone(mutant: Mutant): Promise<MutantResult> {
      const started = performance.now();
      const clauses = mutant.allowed && mutant.judgedBy ? mutant.judgedBy.clauses : [mutant.clause];
      const groups = judgedGroups(mutant);
      const focus = clauses === 'all' ? undefined : clauses;
      // A deviation's run ends early once it is killed (KillWatch): the tests that could still pin a rule run, the others skip.
      const candidates = (of: readonly string[]) => unmutated.filter((r) => r.clauses.includes(mutant.clause) && of.includes(r.group)).map((r) => r.id);
      const candidateIds = candidates(groups);
      const watch = mutant.allowed ? undefined : new KillWatch(mutant.clause, candidateIds, rulesOf, pinned);
      // A deviation with kill hints runs its hinted tests alone first; killed by them, the tests that could still pin a
      // rule run next (most often none). Not killed by them (a hint gone stale), its whole run decides, as without hints.
      const hinted = watch ? (hints.get(mutant.name) ?? []).filter((id) => candidateIds.includes(id)) : [];
      if (watch && hinted.length > 0) {
        const first = await runGroups(groups, mutant.mutation, focus, undefined, { only: hinted });
        const kills = first.filter((r) => r.outcome === 'failed' && r.clauses.includes(mutant.clause));
        if (kills.length > 0) {
          const ran = first.filter((r) => r.outcome !== 'skipped');
          const needed = watch.killedFirst(kills, candidateIds.filter((id) => !hinted.includes(id)));
          const rest = needed.length > 0 ? (await runGroups(groups, mutant.mutation, focus, watch, { needed })).filter((r) => !hinted.includes(r.id)) : [];
          const result = resultOf(mutant, [...ran, ...rest].filter((r) => r.outcome === 'failed'), performance.now() - started);
          for (const rule of result.killedRules) pinned.add(rule);
          return { ...result, byHint: true };
        }
      }
      let records = await runGroups(groups, mutant.mutation, focus, watch);
      // Side by side, one group's tests could restrict or slow another's into a skip (a brute-force
      // restriction per address, say): a test the unmutated run passed that skipped here judged nothing.
      // Then each group runs alone, as a run of one group would, and that verdict stands.
      // A failure of the side-by-side run still counts: `conformance run` runs the groups side by side too, so a
      // reading refused only there would fail a conformant implementation (the runs alone must not hide it).
      if (groups.length > 1 && newlySkipped(records, passedUnmutated).length > 0) {
        const sideBySide = records.filter((r) => r.outcome === 'failed');
        records = [];
        for (const group of groups) {
          watch?.restart(candidates([group]));
          records.push(...(await runGroups([group], mutant.mutation, focus, watch)));
        }
        records.push(...sideBySide.filter((f) => !records.some((r) => r.id === f.id && r.outcome === 'failed')));
      }
      const result = resultOf(mutant, records.filter((r) => r.outcome === 'failed'), performance.now() - started);
      if (!mutant.allowed) for (const rule of result.killedRules) pinned.add(rule);
      return result;
    }

    // Each unit of work: mutants to judge in one run, and why they are no longer with the others of their first run.
    for (;;) {
      const { item, pinnedElsewhere } = await source.next([...pinned]);
      for (const rule of pinnedElsewhere) pinned.add(rule);
      if (!item) break;
      const { unit, why } = item;
      const since = cpuNow();
      if (unit.length === 1) {
        let result = await judgeAlone(unit[0]!);
        // A deviation that survived is judged once more, alone: a kill that a run's load or timing (a TOTP step, a
        // session's lifetime) took away must not decide the score by one draw, nor be hidden. A second verdict the right
        // way stands, and the first is kept (`flaky`) and printed; a second the wrong way is the verdict. Never a reading:
        // a check that fails a conformant target once is a false failure a user's CI would meet (review-ae F3).
        if (!result.allowed && wrongVerdict(result)) {
          const again = await judgeAlone(unit[0]!);
          if (!wrongVerdict(again)) result = { ...again, durationMs: result.durationMs + again.durationMs, flaky: firstVerdict(result) };
        }
        spend(unit[0]!.allowed ? 'reading alone' : 'deviation', since);
        results.push(why ? { ...result, aloneBecause: why } : result);
        onResult(results.at(-1)!);
        continue;
      }
      // Readings judged together (mutation/compose.ts): a clean run judges every one of them. When two of them
      // changed the same thing, the fewest that account for every such pair run again apart from the rest (each
      // part together again); when a test failed or skipped, each half runs again, down to the reading alone.
      const started = performance.now();
      const joint = together(unit);
      const records = await runGroups(judgedGroups(unit[0]!), joint.mutation);
      spend('readings together', since);
      const failed = records.filter((r) => r.outcome === 'failed').map((r) => r.id);
      const skipped = newlySkipped(records, passedUnmutated);
      const conflicts = joint.conflicts();
      const clean = failed.length === 0 && skipped.length === 0 && conflicts.length === 0;
      const verdict = togetherVerdict(
        unit.map((m) => m.name),
        { failed, skipped, skippedWhy: (id) => records.find((r) => r.id === id)?.reason ?? '', retried: why?.startsWith(SKIPPED_ONCE) === true, conflicts, unchanged: clean ? joint.unchanged() : [] },
      );
      const share = (performance.now() - started) / unit.length;
      for (const { names, vacuous } of verdict.judged) {
        for (const name of names) {
          const result: MutantResult = { ...resultOf(unit.find((m) => m.name === name)!, [], share), together: unit.length, judgedWith: names, ...(vacuous ? { vacuous: true } : {}) };
          results.push(result);
          onResult(result);
        }
      }
      if (verdict.again.length > 0) source.requeue(verdict.again.filter((part) => part.names.length > 0).map((part) => ({ unit: part.names.map((name) => unit.find((m) => m.name === name)!), why: part.why })));
    }
    return { results, baseline, citedRules: [...citedRules], spent };
  } finally {
    await vitest.close();
    await threads.close();
  }
}
