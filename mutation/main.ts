import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Mutant } from '../reference/mutants/types.js';
import type { BaselineProblem, MutantResult } from './runner.js';
import { missingResults, MUTANTS_USAGE, MutantsUsageError, parseMutantsArgs, unknownSelection, type MutantsArgs } from './args.js';
import { scoreLines, unpinnedRules } from './score.js';
import { mutantCost, unitCost, WorkQueue } from './balance.js';
import type { WorkSource } from './runner.js';
import { nothingSpent, RUN_KINDS, type Spent } from './spent.js';
import { HINTS_FILE, readHints, readUnitHints, writeHints, writeUnitHints } from './hints.js';

/**
 * `npm run mutants [-- --group G] [--mutant NAME] [--shards N]`: runs the suite against every mutant
 * of the reference. Exit 0 when every mutant is killed by a test citing its clause, 1 otherwise,
 * 2 on a usage error. Shards run in parallel child processes (default: one per core).
 * `--explore [--seed N] [--runs N]` judges the mutants with the properties of `conformance explore`
 * instead of the suites (default seed 1, 20 runs per property).
 */
// The arguments are checked before anything heavy is loaded: this process only spawns the shards
// and adds up their results; each shard (runShard) loads vitest and the reference.
let values: MutantsArgs;
try {
  values = parseMutantsArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof MutantsUsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}
if (values.help) {
  console.log(MUTANTS_USAGE);
  process.exit(0);
}
const { MUTANTS } = await import('../reference/mutants/index.js');
const unknown = unknownSelection(values, MUTANTS);
if (unknown) {
  console.error(unknown);
  process.exit(2);
}

function selected(): Mutant[] {
  let list = [...MUTANTS];
  if (values.group) list = list.filter((m) => values.group!.includes(m.group));
  if (values.mutant) list = list.filter((m) => values.mutant!.includes(m.name));
  return list;
}

function checkRegistry(): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const m of MUTANTS) {
    if (names.has(m.name)) problems.push(`duplicate mutant name ${m.name}`);
    names.add(m.name);
    if (!m.mutation.deviation && !m.mutation.transform && !m.mutation.transforms?.length && !m.mutation.contentType && !m.mutation.wire && !m.mutation.request && !m.mutation.state) problems.push(`mutant ${m.name} changes nothing`);
  }
  return problems;
}

function line(result: MutantResult): string {
  if (result.allowed) {
    const mark = result.conformant ? 'allowed ' : 'REFUSED ';
    const others = result.together ? `${result.together - 1} other reading${result.together === 2 ? '' : 's'}` : '';
    const how = result.vacuous ? ` (changed no answer of its run, nor did the ${others} with it: not put to the test)` : result.together ? ` (judged together with ${others})` : result.aloneBecause ? ` (judged alone: ${result.aloneBecause})` : '';
    const by = result.conformant ? `conformant, as it must be${how}` : `an allowed reading fails: ${[...result.killedBy, ...result.otherFailures].join(', ')}${how}`;
    return `  ${mark} ${result.name} [${result.group}, clause ${result.clause}] ${by}`;
  }
  const mark = result.killed ? 'killed  ' : 'SURVIVED';
  const by = result.killed ? `by ${result.killedBy[0]}${result.killedBy.length > 1 ? ` (+${result.killedBy.length - 1})` : ''}` : result.otherFailures.length > 0 ? `only by tests not citing ${result.clause}: ${result.otherFailures.join(', ')}` : 'no test failed';
  return `  ${mark} ${result.name} [${result.group}, clause ${result.clause}] ${by}`;
}

/** The messages between the parent and a shard (over the child's IPC channel). */
type ToParent = { kind: 'next'; pinned: string[] } | { kind: 'requeue'; items: { names: string[]; why?: string }[] };
type ToShard = { kind: 'work'; names: string[]; why?: string; pinned: string[] } | { kind: 'done' };

async function runShard(out: string): Promise<void> {
  // Only a shard runs the suite: vitest and the reference are loaded here, never by the parent.
  const { EXPLORE_SUITE, judgedGroups, runMutants } = await import('./runner.js');
  const byName = new Map(MUTANTS.map((m) => [m.name, m]));
  let answer: ((message: ToShard) => void) | undefined;
  process.on('message', (message: ToShard) => answer?.(message));
  // The parent hands out the work (mutation/balance.ts WorkQueue); this shard asks for the next unit when it is free.
  const source: WorkSource = {
    groups: [...new Set(selected().flatMap((m) => judgedGroups(m)))],
    next: (pinned) =>
      new Promise((resolve) => {
        answer = (message) => {
          answer = undefined;
          if (message.kind === 'done') resolve({ item: undefined, pinnedElsewhere: [] });
          else resolve({ item: { unit: message.names.map((name) => byName.get(name)!), ...(message.why ? { why: message.why } : {}) }, pinnedElsewhere: message.pinned });
        };
        process.send!({ kind: 'next', pinned: [...pinned] } satisfies ToParent);
      }),
    requeue: (items) => void process.send!({ kind: 'requeue', items: items.map((item) => ({ names: item.unit.map((m) => m.name), ...(item.why ? { why: item.why } : {}) })) } satisfies ToParent),
  };
  const suite = values.explore ? EXPLORE_SUITE(Number(values.seed ?? 1), Number(values.runs ?? 20)) : undefined;
  // The kill hints are the suites' (never those of --explore, whose tests are other).
  const hints = values.explore || values.noHints ? new Map<string, string[]>() : readHints();
  const outcome = await runMutants(source, (result) => console.log(`${line(result)} ${(result.durationMs / 1000).toFixed(1)} s`), suite, hints);
  writeFileSync(out, JSON.stringify(outcome));
  process.disconnect();
}

/** How long each shard spent on its units, and when it ended (from the run's start): shards ending far apart mean poor balance. */
interface ShardTime {
  busyMs: number;
  endedMs: number;
}

function spawnShard(index: number, count: number, out: string, queue: WorkQueue<string>, times: ShardTime[], started: number): Promise<number> {
  const args = [process.argv[1]!, '--shard', `${index}/${count}`, '--json', out];
  if (values.noHints) args.push('--no-hints');
  for (const g of values.group ?? []) args.push('--group', g);
  for (const m of values.mutant ?? []) args.push('--mutant', m);
  if (values.explore) args.push('--explore', '--seed', values.seed ?? '1', '--runs', values.runs ?? '20');
  const time: ShardTime = { busyMs: 0, endedMs: 0 };
  times[index] = time;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let since: number | undefined;
    child.on('message', (message: ToParent) => {
      if (message.kind === 'requeue') return queue.requeue(message.items.map((item) => ({ unit: item.names, ...(item.why ? { why: item.why } : {}) })));
      if (since !== undefined) time.busyMs += performance.now() - since;
      since = undefined;
      void queue.next(index, message.pinned).then((item) => {
        if (!child.connected) return;
        if (item) since = performance.now();
        child.send(item ? ({ kind: 'work', names: item.unit, ...(item.why ? { why: item.why } : {}), pinned: [...queue.pinned] } satisfies ToShard) : ({ kind: 'done' } satisfies ToShard));
      });
    });
    child.on('exit', (code) => {
      time.endedMs = performance.now() - started;
      queue.leave(index);
      resolve(code ?? 1);
    });
  });
}

async function main(): Promise<number> {
  if (values.shard) {
    await runShard(values.json!);
    return 0;
  }
  const problems = checkRegistry();
  const mutants = selected();
  if (mutants.length === 0) {
    console.error('no mutant matches the selection (see reference/mutants/)');
    return 2;
  }
  const shards = Math.max(1, Math.min(values.shards ?? availableParallelism(), mutants.length));
  console.log(`Running the suite against ${mutants.length} mutants of the reference in ${shards} shard${shards > 1 ? 's' : ''}...`);
  const dir = mkdtempSync(join(tmpdir(), 'mutants-'));
  const started = performance.now();
  const times: ShardTime[] = [];
  const spent = nothingSpent();
  let results: MutantResult[] = [];
  const baseline: BaselineProblem[] = [];
  const citedRules = new Set<string>();
  try {
    const outs = Array.from({ length: shards }, (_, i) => join(dir, `shard-${i}.json`));
    // The parent needs the runner's grouping only (not vitest): the units, costliest first, handed out as the shards ask.
    const { judgedGroups } = await import('./judged.js');
    const { unitsOf } = await import('./compose.js');
    const units = unitsOf(mutants, judgedGroups, values.explore || values.noHints ? undefined : readUnitHints()).map((unit) => unit.map((m) => m.name));
    const byName = new Map(mutants.map((m) => [m.name, m]));
    const queue = new WorkQueue(units, (unit) => unitCost(unit, (name) => mutantCost(byName.get(name)!, judgedGroups(byName.get(name)!))), shards);
    const codes = await Promise.all(outs.map((out, i) => spawnShard(i, shards, out, queue, times, started)));
    if (codes.some((c) => c !== 0)) {
      console.error('a mutation shard crashed; see its output above');
      return 1;
    }
    for (const out of outs) {
      const part = JSON.parse(readFileSync(out, 'utf8')) as { results: MutantResult[]; baseline: BaselineProblem[]; citedRules: string[]; spent: Spent };
      results.push(...part.results);
      for (const kind of RUN_KINDS) {
        spent[kind].runs += part.spent[kind].runs;
        spent[kind].cpuMs += part.spent[kind].cpuMs;
      }
      for (const rule of part.citedRules) citedRules.add(rule);
      for (const b of part.baseline) if (!baseline.some((x) => x.group === b.group)) baseline.push(b);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const order = new Map(mutants.map((m, i) => [m.name, i]));
  results = results.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
  const survivors = results.filter((r) => !r.killed && !r.allowed);
  if (survivors.length > 0) console.log('\nSurvivors (each is a missing check):');
  for (const result of survivors) console.log(line(result));
  const refused = results.filter((r) => r.allowed && !r.conformant);
  if (refused.length > 0) console.log('\nAllowed readings the suite fails (each is a check stricter than the specification):');
  for (const result of refused) console.log(line(result));
  // Shown, never hidden: a verdict that changed when judged again is a check (or a run) that is not steady.
  const flaky = results.filter((r) => r.flaky);
  if (flaky.length > 0) console.log('\nDeviations that survived at first and were killed when judged again alone (each a check or a run that is not steady):');
  for (const result of flaky) console.log(`  FLAKY    ${result.name} [${result.group}, clause ${result.clause}] first ${result.flaky}`);
  for (const b of baseline) console.log(`baseline: the ${b.group} suite does not pass against the unmutated reference: ${b.tests.join('; ')}`);
  for (const p of problems) console.log(`registry: ${p}`);
  const missing = missingResults(mutants.map((m) => m.name), results.map((r) => r.name));
  // The score counts every selected mutant: one that produced no result is not killed.
  for (const l of scoreLines(results)) console.log(missing.length > 0 && l.startsWith('Mutation score:') ? `Mutation score: ${results.filter((r) => r.killed).length}/${mutants.filter((m) => !m.allowed).length} selected killed; ${missing.length} not run` : l);
  if (missing.length > 0) console.log(`not run: ${missing.length} of ${mutants.length} selected mutants produced no result (${missing.join(', ')}); the run cannot pass`);
  // Every rule a test cites must be pinned by a mutant that a test citing it kills. Judged on a run of
  // every mutant against the suites: a selection may leave a rule to a mutant of another group.
  const unpinned = unpinnedRules(citedRules, results);
  const judgesRules = !values.group && !values.mutant && !values.explore;
  // A selection leaves most rules to mutants it did not run: listing them would bury the score.
  if (judgesRules) for (const rule of unpinned) console.log(`  UNPINNED ${rule}: no mutant is killed by a test citing it`);
  console.log(`Rules pinned by a mutant: ${citedRules.size - unpinned.length}/${citedRules.size}${judgesRules ? '' : ' (a selection: not judged)'}`);
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(`(${seconds(performance.now() - started)} s; shards busy ${times.map((t) => `${seconds(t.busyMs)} s`).join(', ')}, ended at ${times.map((t) => `${seconds(t.endedMs)} s`).join(', ')})`);
  // Where the CPU went (bench/ keeps the measured figures): the runs of each kind, with the CPU of the shard processes over them.
  console.log(`(CPU: ${RUN_KINDS.filter((kind) => spent[kind].runs > 0).map((kind) => `${kind} ${spent[kind].runs} run${spent[kind].runs === 1 ? '' : 's'} ${seconds(spent[kind].cpuMs)} s`).join('; ')})`);
  const deviations = results.filter((r) => !r.allowed);
  if (!values.explore && deviations.length > 0) {
    const byHint = deviations.filter((r) => r.byHint).length;
    const advice = values.writeHints ? `; written to ${relative(process.cwd(), HINTS_FILE)}` : byHint < deviations.length ? '; `npm run mutants -- --write-hints` records the others' : '';
    console.log(`Kill hints: ${byHint}/${deviations.length} deviations killed by the tests that killed them last time${advice}`);
  }
  if (values.writeHints) {
    const killed = new Map(deviations.filter((r) => r.killed).map((r) => [r.name, r.killedBy]));
    const known = new Set(MUTANTS.map((m) => m.name));
    writeHints(killed, readHints(), (name) => known.has(name));
    // The units of the readings only from a run of all of them: a selection's units say nothing of the others.
    const readings = results.filter((r) => r.allowed);
    // Only the readings that may be judged together: one judged alone by rule (canJudgeTogether) is no hint, and
    // listing it as alone would keep it alone after the rule admits it.
    const { canJudgeTogether } = await import('./compose.js');
    const mutantOf = new Map(MUTANTS.map((m) => [m.name, m]));
    if (readings.length === MUTANTS.filter((m) => m.allowed).length) writeUnitHints(readings.filter((r) => canJudgeTogether(mutantOf.get(r.name)!)));
    else if (readings.length > 0) console.log(`Unit hints not written: ${readings.length} of ${MUTANTS.filter((m) => m.allowed).length} readings ran (a run of every reading writes them)`);
  }
  const rulesPinned = !judgesRules || unpinned.length === 0;
  return missing.length === 0 && results.length > 0 && results.every((r) => (r.allowed ? r.conformant : r.killed)) && baseline.length === 0 && problems.length === 0 && rulesPinned ? 0 : 1;
}

process.exitCode = await main();
