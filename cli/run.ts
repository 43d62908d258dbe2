import { exitCodeOf } from './exit-code.js';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { createVitest } from 'vitest/node';
import { COMPILED_ROOT, PACKAGE_ROOT } from '../helpers/spec/package-root.js';
import { type Config, ConfigError, roadOf } from '../helpers/net/config.js';
import type { TargetInfo } from '../helpers/check/target.js';
import type { Mutation } from '../reference/mutation.js';
import type { RunningReference } from '../reference/app.js';
import { buildReport } from '../reporting/build.js';
import { CollectingReporter } from '../reporting/collector.js';
import type { Report } from '../reporting/model.js';
import { annotations, appendStepSummary, inGitHubActions, stopCommands } from '../reporting/github.js';
import { escapeControls } from '../helpers/spec/quote.js';
import { toMarkdown } from '../reporting/markdown.js';
import { ProgressReporter, summaryLines } from '../reporting/terminal.js';
import { reportFiles, writeReports } from '../reporting/write.js';
import { Interruption, markNotRun } from './interrupt.js';
import { MainPhaseEnd } from './main-phase.js';
import { GROUPS } from '../helpers/spec/catalogue.js';
import { preflight } from '../helpers/states/preflight.js';
import { suiteVersion } from '../helpers/spec/version.js';
import { weakSecretWarning, withoutCredentials } from '../helpers/net/redact.js';
import { LEASE_MAX_WAIT_MS, LEASE_WAIT_MS, startLeaseServer, waitingLine } from '../helpers/states/leases.js';
import { HOOK_WOULD_ADD, filePlatform, loadStatesFile } from '../helpers/states/file.js';
import { proxyFor } from '../helpers/net/transport.js';
import { notVerifiedWhenLimitedTimeout } from '../helpers/net/rate.js';
import type { Selection } from '../helpers/check/selection.js';
import type { Expectation } from '../reporting/expectations.js';

export { PACKAGE_ROOT };

/**
 * The suite's vitest configuration (compiled JavaScript, dist/) is imported as it is, not bundled
 * first by Vite with Rolldown: some 50 ms less at every start.
 */
export const SUITE_CONFIG_LOADER = { configLoader: 'native' } as const;

export interface SuiteRunOptions {
  config: Config;
  /** Only these endpoint groups (suite file names without `.test.ts`). */
  groups?: string[];
  /** For the embedded reference only: run against a mutant of it. */
  mutation?: Mutation;
  /** The mutant's name (`run --mutant NAME`): the report records it, and every exact reproduction repeats it. */
  mutantName?: string;
  /** Write report files (the mutation runner does not). */
  writeFiles?: boolean;
  write?: (line: string) => void;
  /** Another set of test files than suites/ (`conformance explore`): its vitest config, a group's file, and values provided to the workers. */
  files?: { config: string; ofGroup: (group: string) => string; provide?: Record<string, unknown> };
  /** Only the tests this selects (--grep, --clause, --endpoint, --failed): the verdict is then at best incomplete. */
  selection?: { selection: Selection; text: string };
  /** Adds to the report before it is written (explore records its seed and budget). */
  extendReport?: (report: Report) => void;
  /** Ctrl-C stops the run cleanly (default); the mutation runner leaves signals alone. */
  handleSignals?: boolean;
  /**
   * `run --expected-failures FILE`: the entries read, and the check of their names against the suite
   * (cli/expected-failures.ts), awaited before any test runs: an unknown name stops the run there.
   */
  expectations?: { file: string; entries: Expectation[]; namesChecked?: Promise<void> };
}

export interface SuiteRunResult {
  report: Report;
  exitCode: 0 | 1 | 2 | 130;
  files: Record<string, string>;
  moduleErrors: string[];
}

/** How to invoke this CLI again from the current directory. */
function cliName(): string {
  const script = process.argv[1] ? relative(process.cwd(), process.argv[1]) : '';
  return script.endsWith('conformance.mjs') && !script.startsWith('..') && !isAbsolute(script) ? `node ${script}` : 'conformance';
}

/** After a run: the one command that compares it with the previous run, when there is one. */
function runHints(dir: string): string[] {
  const paths = reportFiles(dir);
  if (!existsSync(paths.previous)) return [];
  const shown = (path: string) => (relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path));
  return [`Compare with the previous run: ${cliName()} diff ${shown(paths.previous)} ${shown(paths.json)}`];
}

/** Runs the suite once: resolves the target (starting the embedded reference when BASE_URL is unset), checks it, runs every test, builds the report. */
/** Why a run in which nothing failed exits 1: --fail-on-incomplete; a run of some groups is incomplete whatever they verified. */
export function failOnIncompleteLine(report: Pick<Report, 'groups'> & Partial<Pick<Report, 'verdict'>>): string {
  const partial = report.groups !== undefined && report.groups.length < GROUPS.length;
  const what = report.verdict === 'nonconformant' ? 'the expected failures aside, the run is incomplete (a test skipped, or a documented pair or rule not verified)' : 'the verdict is incomplete';
  return `exit 1: --fail-on-incomplete (FAIL_ON_INCOMPLETE) and ${what}${partial ? `; a run of some groups (--group, GROUP) is always incomplete, since the other groups' documented pairs are not verified` : ''}`;
}

export async function runSuite(options: SuiteRunOptions): Promise<SuiteRunResult> {
  const { config } = options;
  const writeLine = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  // Every line as data (issue 29): no control character, wherever it came from, reaches the terminal or the CI log.
  const write = (line: string) => writeLine(escapeControls(line));
  // In GitHub Actions the run's output before its own annotations is no workflow command, whatever a target put in it.
  const github = options.writeFiles !== false && inGitHubActions() ? stopCommands() : undefined;
  let commandsStopped = false;
  if (github) {
    writeLine(github.stop);
    commandsStopped = true;
  }
  const resumeCommands = () => {
    if (github && commandsStopped) writeLine(github.resume);
    commandsStopped = false;
  };
  const startedAt = new Date();
  let reference: RunningReference | undefined;
  let leases: Awaited<ReturnType<typeof startLeaseServer>> | undefined;
  const interruption = new Interruption(options.handleSignals !== false);
  // Set once the reports are written: a signal while the run closes says whether they were.
  let reported = false;
  const collector = new CollectingReporter(PACKAGE_ROOT);
  const mainPhase = new MainPhaseEnd();
  // vitest gets ready (its configuration, Vite's server: about half a second of start-up) while the reference starts
  // and the preflight checks the target; the target is provided once known, before any test starts.
  const starting = createVitest(
    'test',
    {
      // The compiled suites run (dist/); reports name their TypeScript sources (reporting/source-lines.ts).
      root: COMPILED_ROOT,
      // Two phases, long waits first and the brute-force provocation last (vitest.run.config.ts).
      config: join(COMPILED_ROOT, options.files?.config ?? 'vitest.run.config.js'),
      watch: false,
      reporters: [collector, new ProgressReporter(PACKAGE_ROOT, write), interruption.reporter, mainPhase.reporter],
      provide: { ...options.files?.provide, selection: options.selection?.selection, interruptChannel: interruption.channelName, mainPhaseChannel: mainPhase.channelName },
      // A file run may wait for free accounts (two at most in a test), each wait bounded by LEASE_MAX_WAIT_MS (then the test is skipped).
      testTimeout: Math.max(statesFileRun(config) ? 2 * LEASE_MAX_WAIT_MS + 60_000 : 60_000, config.REQUEST_TIMEOUT_MS * 6),
      // A requests-per-second cap holds for the whole run only when one worker sends every request.
      ...(config.MAX_REQUESTS_PER_SECOND ? { maxWorkers: 1 } : {}),
      ...SUITE_CONFIG_LOADER,
    },
    {},
    { stdout: process.stdout, stderr: process.stderr },
  );
  // Awaited once the preflight passed; a run that stops before (a refused target) closes it unused.
  let vitestOwned = false;
  starting.catch(() => undefined);
  try {
    let states: TargetInfo['states'] = { kind: 'none' };
    let baseUrl = config.BASE_URL;
    if (!baseUrl) {
      const statesToken = randomBytes(24).toString('hex');
      // Loaded only when embedded: a run against a target never needs the reference's native SQLite module.
      const { loadReference, startingReference, ReferenceUnavailableError } = await import('../reference/load.js');
      try {
        const { startReference } = await loadReference();
        reference = await startingReference(() => startReference({ states: true, statesToken, ...(options.mutation ? { mutation: options.mutation } : {}) }));
      } catch (error) {
        throw error instanceof ReferenceUnavailableError ? new ConfigError(error.message) : error;
      }
      baseUrl = reference.baseUrl;
      states = { kind: 'hook', url: reference.statesUrl!, token: statesToken };
    } else if (config.STATES_URL) {
      states = { kind: 'hook', url: config.STATES_URL, ...(config.STATES_TOKEN ? { token: config.STATES_TOKEN } : {}) };
    }
    const warnings = await preflight(config, baseUrl, states.kind === 'hook' ? { url: states.url, ...(states.token ? { token: states.token } : {}) } : {});
    const weak = weakSecretWarning([
      ...(config.STATES_URL ? [{ name: 'STATES_TOKEN', value: config.STATES_TOKEN }] : []),
      ...Object.entries(config.EXTRA_HEADERS).map(([name, value]) => ({ name: `the value of the header ${name}`, value })),
    ]);
    // Its words are all the suite's: redacting a weak secret that is one of them would show the secret.
    const ownWarnings = weak ? [weak] : [];
    let statesFilePlatform: { id: string; privateKeyFile: string } | undefined;
    if (statesFileRun(config)) {
      // Accounts of a static file are leased to one test at a time, across the workers: one lease server decides.
      const path = resolve(config.STATES_FILE!);
      statesFilePlatform = filePlatform(path, loadStatesFile(path));
      leases = await startLeaseServer(LEASE_WAIT_MS, (notice) => write(waitingLine(notice)));
      states = { kind: 'file', path, leaseUrl: leases.url };
    }
    if (states.kind === 'none') warnings.push('no provider states configured (STATES_URL or STATES_FILE): every test that needs a state is reported as not verified');

    const target: TargetInfo = {
      baseUrl,
      embedded: Boolean(reference),
      states,
      ...(config.JWT_PLATFORM_ID && config.JWT_PRIVATE_KEY_FILE
        ? { jwtPlatform: { id: config.JWT_PLATFORM_ID, privateKeyFile: resolve(config.JWT_PRIVATE_KEY_FILE) } }
        : statesFilePlatform
          ? { jwtPlatform: statesFilePlatform }
          : {}),
      timeoutMs: config.REQUEST_TIMEOUT_MS,
      maxResponseBytes: config.MAX_RESPONSE_BYTES,
      maxConcurrency: config.MAX_CONCURRENCY,
      strict: config.STRICT,
      ...(config.BRUTE_FORCE ? { bruteForce: true } : {}),
      ...roadOf(config),
      ...(config.MAX_REQUESTS_PER_SECOND ? { rate: config.MAX_REQUESTS_PER_SECOND } : {}),
      // The value classes are drawn from it (helpers/arrange/draw.ts); report.json records it, --seed replays it.
      seed: config.SEED ?? freshSeed(),
    };
    interruption.throwIfInterrupted();
    const proxy = proxyFor(baseUrl);
    write(`Target ${withoutCredentials(baseUrl)}${reference ? ' (embedded reference)' : ''}${config.IMPLEMENTATION ? `, declared as ${config.IMPLEMENTATION.name} ${config.IMPLEMENTATION.version}` : ''}${proxy ? ` through the proxy ${withoutCredentials(proxy)}` : ''}; provider states: ${states.kind === 'hook' ? `hook ${withoutCredentials(states.url)}` : states.kind === 'file' ? `file ${states.path}` : 'none'}`);

    // What runs is the build's (dist/): a file it lacks (a checkout never built, or built before the file
    // existed) is named with the fix, where vitest would only say that it found no test file.
    const ofGroup = options.files?.ofGroup ?? ((group: string) => `suites/${group}.test.js`);
    const unbuilt = (options.groups ?? GROUPS).map(ofGroup).filter((file) => !existsSync(join(COMPILED_ROOT, file)));
    if (unbuilt.length > 0) throw new ConfigError(`not built: ${unbuilt.map((file) => relative(PACKAGE_ROOT, join(COMPILED_ROOT, file))).join(', ')} missing; run \`npm run build\` in ${PACKAGE_ROOT}`);

    await options.expectations?.namesChecked;
    interruption.throwIfInterrupted();
    const vitest = await starting;
    vitestOwned = true;
    vitest.provide('target', target);
    try {
      interruption.silenceOthers();
      interruption.onInterrupt(
        () => {
          // The last phase's tests, waiting for the main phase to end, end at once too (reported as not run).
          mainPhase.release();
          return vitest.cancelCurrentRun('keyboard-input');
        },
        () => vitest.close(),
      );
      await vitest.start(options.groups?.map(ofGroup) ?? []);
    } finally {
      await vitest.close();
      interruption.testsEnded();
    }
    if (interruption.interrupted) {
      collector.addUnreachedLater();
      markNotRun(collector.records, interruption.signal);
    } else {
      // Not interrupted, every test the main phase left to the last one ran there: one that did not is the suite's fault
      // (a test marked to run last in a file the last phase does not collect), never a silent gap in the report.
      for (const test of collector.unreachedLater()) collector.moduleErrors.push(`${test.file}: "${test.name}" was left to the last phase, which never ran it (vitest.run.config.ts RUNS_LAST)`);
    }
    // An interrupted run ran only the groups it reached: one whose tests never started is not reported as run.
    const requestedGroups = options.groups ? [...new Set(options.groups)] : undefined;
    const planned: string[] = requestedGroups ?? [...GROUPS];
    const reached = new Set<string>(collector.records.map((record) => record.group));
    const unreached = interruption.interrupted ? planned.filter((group) => !reached.has(group)) : [];
    const groups = interruption.interrupted ? planned.filter((group) => reached.has(group)) : requestedGroups;
    notVerifiedWhenLimitedTimeout(collector.records);

    const hookWouldAdd = collector.records.filter((record) => record.reason?.includes(HOOK_WOULD_ADD));
    if (hookWouldAdd.length > 0) warnings.push(`${hookWouldAdd.length} test(s) skipped that a provider-state hook would have added (see their reasons)`);
    if (options.selection && collector.records.length === 0 && collector.moduleErrors.length === 0 && !interruption.interrupted) {
      throw new ConfigError(`selection: ${options.selection.text} selects no test${options.groups ? ` of the groups ${options.groups.join(', ')}` : ''}; \`conformance list\` with the same flags shows what a selection takes`);
    }
    const report = buildReport(collector.records, {
      suiteVersion: suiteVersion(),
      target: { baseUrl, embedded: Boolean(reference), states: states.kind === 'hook' ? 'hook' : states.kind, ...(reference && options.mutation && options.mutantName ? { mutant: options.mutantName } : {}) },
      startedAt,
      finishedAt: new Date(),
      strict: config.STRICT,
      ...(config.IMPLEMENTATION ? { implementation: config.IMPLEMENTATION } : {}),
      seed: target.seed!,
      warnings,
      ownWarnings,
      ...(groups ? { groups } : {}),
      interrupted: interruption.interrupted,
      ...(options.selection ? { selection: options.selection } : {}),
      ...(options.expectations ? { expectations: { file: options.expectations.file, entries: options.expectations.entries } } : {}),
    });
    options.extendReport?.(report);
    const files = options.writeFiles === false ? {} : writeReports(report, resolve(config.REPORT_DIR));
    reported = options.writeFiles !== false;
    for (const error of collector.moduleErrors) write(`error: ${error}`);
    // A gate that fails on `incomplete` alone: its gate line says so too, never "gate passed" above an exit 1.
    const incompleteFails = !interruption.interrupted && exitCodeOf(report, collector.moduleErrors.length, config.FAIL_ON_INCOMPLETE) === 1 && exitCodeOf(report, collector.moduleErrors.length) === 0;
    for (const line of summaryLines(report, files, options.writeFiles === false ? [] : runHints(resolve(config.REPORT_DIR)), { incompleteFails })) write(line);
    if (github) {
      resumeCommands();
      for (const line of annotations(report)) writeLine(line);
      appendStepSummary(toMarkdown(report));
    }
    const configFailure = report.tests.find((t) => t.reason?.startsWith('configuration error'));
    if (configFailure) throw new ConfigError(configFailure.reason!);
    if (interruption.interrupted) {
      process.stderr.write(`${interruption.summaryLine(report.tests, unreached, files.json)}\n`);
      return { report, exitCode: 130, files, moduleErrors: collector.moduleErrors };
    }
    const exitCode = exitCodeOf(report, collector.moduleErrors.length, config.FAIL_ON_INCOMPLETE);
    // A gate that failed on `incomplete` alone says so: nothing failed, and the counts above read green.
    if (incompleteFails) write(failOnIncompleteLine(report));
    return { report, exitCode, files, moduleErrors: collector.moduleErrors };
  } finally {
    resumeCommands();
    // Still listening while the lease server and the reference close: a signal then ends the process with its line.
    interruption.ending(reported);
    try {
      mainPhase.close();
      // A run that stopped before its tests (a refused target) says so at once; the process ends once vitest, still getting ready, is closed.
      if (!vitestOwned) void starting.then((unused) => unused.close(), () => undefined);
      await leases?.close();
      await reference?.close();
    } finally {
      interruption.dispose();
    }
  }
}

/** A run against a target whose accounts come from a static file (STATES_FILE, no hook): they are leased to one test at a time. */
function statesFileRun(config: Config): boolean {
  return Boolean(config.BASE_URL && !config.STATES_URL && config.STATES_FILE);
}

/** A seed for a run that names none: eight hex digits, what report.json records and `--seed` takes back. */
function freshSeed(): string {
  return randomBytes(4).toString('hex');
}
