import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import type { Report } from './model.js';

type Write = (line: string) => void;

/** One line per finished suite file while the run goes on. */
export class ProgressReporter implements Reporter {
  constructor(
    private readonly root: string,
    private readonly write: Write,
  ) {}

  onTestModuleEnd(module: TestModule): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed') failed++;
      else skipped++;
    }
    const mark = failed > 0 ? 'x' : '\u2713';
    this.write(`  ${mark} ${relative(this.root, module.moduleId)}  ${passed} passed${failed ? `, ${failed} failed` : ''}${skipped ? `, ${skipped} skipped` : ''}`);
  }
}

/** The closing summary: failures with their clause, skips with their reason, then the counts. */
export function summaryLines(report: Report, files: Record<string, string>): string[] {
  const lines: string[] = [''];
  const failed = report.tests.filter((t) => t.outcome === 'failed');
  const skipped = report.tests.filter((t) => t.outcome === 'skipped');
  if (failed.length > 0) {
    lines.push(`Nonconformances (${failed.length}):`);
    for (const test of failed) lines.push(`  x ${test.name}`, `      clauses ${test.clauses.join(', ')}: ${test.reason}`);
  }
  if (skipped.length > 0) {
    lines.push(`Not verified (${skipped.length}):`);
    const reasons = new Map<string, number>();
    for (const test of skipped) reasons.set(test.reason ?? 'skipped', (reasons.get(test.reason ?? 'skipped') ?? 0) + 1);
    for (const [reason, count] of reasons) lines.push(`  - ${count} test${count > 1 ? 's' : ''}: ${reason}`);
  }
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  const s = report.summary;
  const verified = report.coverage.pairs.filter((p) => p.outcome === 'passed').length;
  lines.push(`Coverage: ${verified}/${report.coverage.pairs.length} documented endpoint x status pairs verified`);
  lines.push(`Reports: ${Object.values(files).join(', ')}`);
  lines.push(`Verdict: ${report.verdict} (${(report.durationMs / 1000).toFixed(1)} s, ${report.summary.advisories} advisories)`);
  lines.push(`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
  return lines;
}
