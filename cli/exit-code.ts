import type { Report } from '../reporting/model.js';

/**
 * The exit code of a run, from its verdict: 1 for any nonconformance (a failed test, or a security
 * finding even on a test that then skipped), for a suite file that did not load, or for a run that
 * ran nothing; with `failOnIncomplete` (--fail-on-incomplete) also for the verdict `incomplete`;
 * 0 otherwise (skips are listed, not failed).
 */
export function exitCodeOf(report: Pick<Report, 'verdict' | 'summary' | 'tests'>, moduleErrors: number, failOnIncomplete = false): 0 | 1 {
  if (failOnIncomplete && report.verdict === 'incomplete') return 1;
  return report.verdict === 'nonconformant' || report.summary.failed > 0 || moduleErrors > 0 || report.tests.length === 0 ? 1 : 0;
}
