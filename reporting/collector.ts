import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { ConformanceMeta, RunRecord } from '../helpers/check/check.js';
import { redactText } from '../helpers/net/redact.js';
import { escapeControls } from '../helpers/spec/quote.js';
import type { TestRecord } from './model.js';
import { rowLines } from './row-lines.js';
import { testId } from '../helpers/check/selection.js';
import { sourceFileOf, sourceLineOf } from './source-lines.js';
import { isFailedLogin } from '../helpers/spec/logins.js';

/** The logins of a test the target refused (helpers/spec/logins.ts), when any. */
function failedLoginsOf(run: RunRecord): { failedLogins?: number } {
  const failed = run.exchanges.filter(isFailedLogin).length;
  return failed > 0 ? { failedLogins: failed } : {};
}

/** Test ids are made where selections read them too (`run --failed`). */
export { testId } from '../helpers/check/selection.js';

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 500);
}

export function toRecord(testCase: TestCase, root: string, options: { later?: boolean } = {}): TestRecord | undefined {
  const meta = testCase.meta() as { conformance?: ConformanceMeta; run?: RunRecord; unselected?: boolean; later?: true };
  const conformance = meta.conformance;
  if (!conformance || (meta.unselected && !(options.later && meta.later))) return undefined;
  const result = testCase.result();
  const run = meta.run ?? { exchanges: [], advisories: [], observedStatus: [], schemaProblems: [], security: [], notes: [] };
  const outcome = result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped';
  // What a test says may quote the target: every control character is a visible escape from here on
  // (issue 29), in every file and on every channel; a failure's own line breaks stay its layout.
  const rawMessage = result.state === 'failed' ? redactText(result.errors?.map((e) => e.message).join('\n') ?? 'failed') : null;
  // One line per error: a line break inside a message is the target's (a quoted field), so it is escaped too.
  const errorMessage = result.state === 'failed' ? (result.errors?.map((e) => escapeControls(redactText(e.message))).join('\n') ?? 'failed') : null;
  const reason = outcome === 'skipped' ? escapeControls(redactText((result as { note?: string }).note ?? 'skipped')) : errorMessage ? firstLine(errorMessage) : null;
  const name = `${testCase.parent.type === 'suite' ? `${testCase.parent.fullName} ` : ''}${testCase.name}`;
  return {
    id: testId(name),
    name,
    group: conformance.group,
    file: relative(root, sourceFileOf(testCase.module.moduleId)).replace(/\\/g, '/'),
    line: testCase.location ? sourceLineOf(testCase.module.moduleId, testCase.location.line, testCase.location.column) : null,
    endpoint: conformance.endpoint,
    status: conformance.status,
    clauses: conformance.clauses,
    rules: conformance.rules ?? [],
    ...(conformance.instances?.length ? { instances: conformance.instances } : {}),
    ...(conformance.judges ? { judges: conformance.judges } : {}),
    constraint: conformance.constraint ?? null,
    outcome,
    reason,
    observedStatus: run.observedStatus,
    advisories: run.advisories.map(escapeControls),
    security: (run.security ?? []).map((line) => escapeControls(redactText(line))),
    notes: (run.notes ?? []).map(escapeControls),
    ...(run.suiteWarnings?.length ? { suiteWarnings: run.suiteWarnings.map((line) => escapeControls(redactText(line))) } : {}),
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    ...startedAtOf(testCase),
    failure: errorMessage ? { message: errorMessage, schemaProblems: run.schemaProblems } : null,
    exchanges: run.exchanges,
    ...(run.rateLimited ? { rateLimited: run.rateLimited } : {}),
    ...failedLoginsOf(run),
    ...(run.leftBehind?.length ? { leftBehind: run.leftBehind.map(redactText) } : {}),
    ...(outcome === 'failed' && run.checkedExchange !== undefined ? { checkedExchange: run.checkedExchange } : {}),
    ...(outcome === 'failed' && run.bodyExchanges ? { failedAt: run.bodyExchanges - 1 } : {}),
  };
}

/** When the test began (vitest's wall clock, every worker's alike): with durationMs, the run's order and overlap. */
function startedAtOf(testCase: TestCase): { startedAt?: string } {
  const start = testCase.diagnostic()?.startTime;
  return typeof start === 'number' && start > 0 ? { startedAt: new Date(start).toISOString() } : {};
}

/** A table's rows at their own lines, not the loop's (reporting/row-lines.ts); the source read once per file. */
export function atRowLines(file: string, records: TestRecord[]): TestRecord[] {
  const located = records.filter((r): r is TestRecord & { line: number } => typeof r.line === 'number');
  if (new Set(located.map((r) => r.line)).size === located.length) return records;
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return records;
  }
  const rows = rowLines(source, located);
  return records.map((r) => (rows.has(r.name) ? { ...r, line: rows.get(r.name)! } : r));
}

/** Collects every conformance test of a run as report records; other output is left to the terminal reporter. */
export class CollectingReporter implements Reporter {
  readonly records: TestRecord[] = [];
  readonly moduleErrors: string[] = [];
  /** The selected tests the main phase left to the last one (vitest.run.config.ts), as skipped: see addUnreachedLater. */
  private readonly later: TestRecord[] = [];

  constructor(private readonly root: string) {}

  /** The modules whose records are taken: each once, as it ends (the run's end then has only the rest to do). */
  private readonly taken = new WeakSet<TestModule>();

  /** A module's records as soon as it ends, while the other files still run, rather than all of them after the last test. */
  onTestModuleEnd(module: TestModule): void {
    this.take(module);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const module of testModules) this.take(module);
    for (const error of unhandledErrors) this.moduleErrors.push(escapeControls(redactText(error.message ?? String(error))));
    this.records.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
  }

  private take(module: TestModule): void {
    // One object per file of each project (vitest's reported entity): the last phase collects a file of the main phase again.
    if (this.taken.has(module)) return;
    this.taken.add(module);
    for (const error of module.errors()) this.moduleErrors.push(`${relative(this.root, sourceFileOf(module.moduleId))}: ${escapeControls(redactText(error.message ?? String(error)))}`);
    const records: TestRecord[] = [];
    for (const testCase of module.children.allTests()) {
      const record = toRecord(testCase, this.root);
      if (record) records.push(record);
      const later = record ? undefined : toRecord(testCase, this.root, { later: true });
      if (later) this.later.push(later);
    }
    this.records.push(...atRowLines(sourceFileOf(module.moduleId), records));
  }

  /** The tests the main phase left to the last one that the last phase never ran. */
  unreachedLater(): TestRecord[] {
    const ids = new Set(this.records.map((record) => record.id));
    return this.later.filter((record) => !ids.has(record.id));
  }

  /**
   * An interrupted run: the tests of the last phase that it never collected (interrupted before or while the last phase
   * started) are reported as skipped, to be marked not run, rather than left out of the report and its counts.
   */
  addUnreachedLater(): void {
    const unreached = this.unreachedLater();
    if (unreached.length === 0) return;
    this.records.push(...unreached);
    this.records.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
  }
}
