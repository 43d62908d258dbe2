import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { escapeControls } from '../helpers/spec/quote.js';
import { clausesText, expectedActual, failedTests, reasonDetail } from './facts.js';
import type { Report } from './model.js';

/**
 * GitHub Actions: failures as `::error` workflow commands (annotations on the suite file) and the
 * Markdown summary appended to the file named by GITHUB_STEP_SUMMARY.
 * Escaping follows @actions/core (toolkit/packages/core/src/command.ts).
 */

/** Data (the message): %, CR and LF are encoded; every other control character a visible escape (issue 29). */
export function escapeData(text: string): string {
  return escapeControls(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/**
 * The run's untrusted output (everything before its own annotations) between `::stop-commands::TOKEN`
 * and `::TOKEN::`, as GitHub documents: the runner then executes no workflow command in it, whatever
 * a target managed to put there. The token is drawn at random for each run, so no target can guess it.
 */
export function stopCommands(): { stop: string; resume: string } {
  const token = randomBytes(16).toString('hex');
  return { stop: `::stop-commands::${token}`, resume: `::${token}::` };
}

/** Properties (file, title): additionally `:` and `,`, which separate properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(kind: 'error' | 'warning' | 'notice', properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties)
    .map(([name, value]) => `${name}=${escapeProperty(value)}`)
    .join(',');
  return `::${kind}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** GitHub shows a limited number of annotations per step; the rest stay in the summary and report files. */
const MAX_ANNOTATIONS = 50;

/** One `::error` per failed test (file = its suite file, title = the test), `::warning` per run warning. */
export function annotations(report: Report): string[] {
  const failed = failedTests(report);
  const lines = failed.slice(0, MAX_ANNOTATIONS).map((test) => {
    // Each part quoted on its own: a line break of the target's is a visible escape, the suite's own join is the annotation's layout.
    const detail = [escapeControls(`${clausesText(test)}: ${expectedActual(test)}`)];
    const reason = reasonDetail(test, 400);
    if (reason && !test.failure?.schemaProblems.length) detail.push(escapeControls(reason));
    return command('error', { file: test.file, ...(test.line ? { line: String(test.line) } : {}), title: test.name }, detail.join('\n'));
  });
  if (failed.length > MAX_ANNOTATIONS) {
    lines.push(command('notice', { title: 'conformance' }, `${failed.length - MAX_ANNOTATIONS} more nonconformances: see the job summary and the report files`));
  }
  for (const warning of report.warnings) lines.push(command('warning', { title: 'conformance' }, warning));
  return lines;
}

export function inGitHubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** Appends the Markdown summary to the job summary; answers the file written, or null outside Actions. */
export function appendStepSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return null;
  appendFileSync(file, `${markdown}\n`);
  return file;
}
