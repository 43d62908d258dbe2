import type { Report } from '../reporting/model.js';

/**
 * The exit code of a run, from its verdict: 1 for any nonconformance (a failed test, or a security
 * finding even on a test that then skipped), for a suite file that did not load, or for a run that
 * ran nothing; with `failOnIncomplete` (--fail-on-incomplete) also for the verdict `incomplete`;
 * 0 otherwise (skips are listed, not failed). With an expectations file, failures it expected do not
 * count (the verdict stays nonconformant), but an expected failure that passed or an entry past its date does.
 */
export function exitCodeOf(report: Pick<Report, 'verdict' | 'summary' | 'tests' | 'expectedFailures'> & { coverage?: Pick<Report['coverage'], 'pairs' | 'rules'> }, moduleErrors: number, failOnIncomplete = false): 0 | 1 {
  if (failOnIncomplete && report.verdict === 'incomplete') return 1;
  // The verdict nonconformant of expected failures hides whether the rest verified everything: --fail-on-incomplete asks it.
  if (failOnIncomplete && report.expectedFailures && incompleteBesidesFailures(report)) return 1;
  if (moduleErrors > 0 || report.tests.length === 0 || (report.expectedFailures?.problems.length ?? 0) > 0) return 1;
  // An expectations file (--expected-failures) excuses the failures it lists, never a security finding.
  if (report.expectedFailures) return report.tests.some((t) => (t.outcome === 'failed' && !t.expectedFailure) || (t.security?.length ?? 0) > 0) ? 1 : 0;
  return report.verdict === 'nonconformant' || report.summary.failed > 0 ? 1 : 0;
}

/** Whether, failures aside, a test was skipped or a documented pair or an observable rule was not verified (reporting/build.ts verdictOf). */
function incompleteBesidesFailures(report: Pick<Report, 'tests'> & { coverage?: Pick<Report['coverage'], 'pairs' | 'rules'> }): boolean {
  if (report.tests.some((t) => t.outcome === 'skipped')) return true;
  if ((report.coverage?.pairs ?? []).some((p) => p.outcome === 'not verified')) return true;
  return (report.coverage?.rules ?? []).some((r) => r.observable && r.outcome === 'not verified' && r.pending !== true);
}
