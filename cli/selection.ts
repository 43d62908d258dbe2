import { existsSync } from 'node:fs';
import { MAX_REPORT_FILE_BYTES, parseBoundedJson, readBounded } from '../helpers/spec/bounded.js';
import { relative, resolve } from 'node:path';
import { ConfigError } from '../helpers/net/config.js';
import { endpointById, GROUPS } from '../helpers/spec/catalogue.js';
import { isEmptySelection, normalizeEndpoint, selectionProblem, selectionText, type Selection } from '../helpers/check/selection.js';
import { reportFiles } from '../reporting/write.js';
import type { Report } from '../reporting/model.js';

/** The selection flags of `run`, `explore` and `list`; every one given must hold (AND). */
export const SELECTION_OPTIONS = {
  grep: { type: 'string' },
  clause: { type: 'string', multiple: true },
  endpoint: { type: 'string', multiple: true },
  id: { type: 'string', multiple: true },
} as const;

export const SELECTION_HELP = `            --grep PATTERN      only tests whose name matches PATTERN (a regular expression, any case)
            --clause N          only tests citing section N or one of its sub-clauses (4.10; 4 takes 4.1 to 4.11), or a
                                numbered item of sections 1 and 5 as reports cite them (5.6, 1.4: the tests checking
                                one of its rules); repeated: tests citing every one given
            --id ID             only the test of this id (report.json tests[].id, as conformance list shows it; repeatable:
                                any of them): what every failure prints as its exact reproduction
            --endpoint 'M /p'   only tests of this endpoint, e.g. 'POST /api/v1/user/{user}/bank' (repeatable: any of them)
                                selections combine as AND; a selected run's verdict is at best incomplete
                                (never certified), and its reports say what was selected`;

export interface ChosenSelection {
  selection: Selection;
  text: string;
  /** The groups that can hold a selected test (an endpoint's group, the groups of the tests to rerun), within --group. */
  groups?: string[];
}

interface SelectionValues {
  grep?: string;
  clause?: string[];
  endpoint?: string[];
  id?: string[];
  group?: string[];
}

/** A selection's one-line problem stops the command with exit code 2, before anything starts. */
export function selectionOf(command: string, values: SelectionValues, failed?: { reportDir: string }): ChosenSelection | undefined {
  const selection: Selection = {
    ...(values.grep !== undefined ? { grep: values.grep } : {}),
    ...(values.clause?.length ? { clauses: values.clause.map((c) => c.trim().replace(/^§\s*/, '')) } : {}),
    ...(values.endpoint?.length ? { endpoints: values.endpoint.map(normalizeEndpoint) } : {}),
    ...(values.id?.length ? { ids: values.id.map((id) => id.trim()) } : {}),
  };
  const problem = selectionProblem(selection);
  if (problem) throw new ConfigError(`${command} ${problem}`);
  let from: string | undefined;
  let failedGroups: string[] | undefined;
  if (failed) {
    const rerun = testsToRerun(failed.reportDir);
    selection.ids = selection.ids ? rerun.ids.filter((id) => selection.ids!.includes(id)) : rerun.ids;
    from = rerun.from;
    failedGroups = rerun.groups;
  }
  if (isEmptySelection(selection)) return undefined;
  const endpointGroups = selection.endpoints?.map((id) => endpointById.get(id)!.group);
  let groups: string[] | undefined = values.group;
  for (const narrowing of [endpointGroups, failedGroups]) {
    if (narrowing) groups = (groups ?? [...GROUPS]).filter((group) => narrowing.includes(group as never));
  }
  const text = selectionText(selection, from);
  if (groups && groups.length === 0) throw new ConfigError(`${command}: ${text}${values.group ? ` --group ${values.group.join(' --group ')}` : ''} selects no test`);
  return { selection, text, ...(groups ? { groups } : {}) };
}

/** `run --failed`: the ids of the tests that failed or were not verified in the report directory's last report.json. */
export function testsToRerun(reportDir: string): { ids: string[]; from: string; groups: string[] } {
  const path = reportFiles(resolve(reportDir)).json;
  const shown = relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path);
  if (!existsSync(path)) throw new ConfigError(`run --failed: no previous report at ${shown}; run \`conformance run\` first (or give its --report-dir)`);
  let report: Report;
  try {
    report = parseBoundedJson(readBounded(path, MAX_REPORT_FILE_BYTES, 'report').toString('utf8'), 'the report') as Report;
    if (!Array.isArray(report.tests)) throw new Error('it has no tests');
  } catch (error) {
    throw new ConfigError(`run --failed: ${shown} is not a conformance report.json (${(error as Error).message}); run \`conformance run\` again`);
  }
  if (report.exploration) throw new ConfigError(`run --failed: ${shown} is the report of \`conformance explore\`, whose properties run replays with --seed ${report.exploration.seed}, not --failed`);
  if (report.proxy) throw new ConfigError(`run --failed: ${shown} is the report of \`conformance proxy\`; it judged traffic, there are no tests to rerun`);
  const rerun = report.tests.filter((test) => test.outcome === 'failed' || test.outcome === 'skipped');
  if (rerun.length === 0) throw new ConfigError(`run --failed: nothing to rerun: every one of the ${report.tests.length} test(s) of ${shown} passed`);
  return { ids: rerun.map((test) => test.id), from: shown, groups: [...new Set(rerun.map((test) => test.group))] };
}
