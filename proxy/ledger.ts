import { buildReport } from '../reporting/build.js';
import type { Report, TestRecord } from '../reporting/model.js';
import { suiteVersion } from '../helpers/spec/version.js';
import { judgeExchange, unjudgedReason, type SeenExchange } from './judge.js';

/**
 * Exchanges held for the report: passed ones up to this many (later ones are counted, not listed),
 * failed and unjudged ones up to as many again. With bodies each at most MAX_RESPONSE_BYTES.
 */
export const MAX_LISTED_EXCHANGES = 1000;

/** Bytes of bodies the listed exchanges may hold in all: past it, exchanges are counted, not listed. */
export const MAX_LISTED_BODY_BYTES = 64 * 1024 * 1024;

/** Distinct reasons an exchange was not judged (each path outside the interface is one): past it, they share one line. */
export const MAX_UNJUDGED_REASONS = 50;
const OTHER_UNJUDGED = 'other reasons (more distinct paths outside the interface, or failures, than the report lists one by one)';

/** What the traffic showed so far, bounded in memory. */
export class TrafficLedger {
  readonly records: TestRecord[] = [];
  private listedPassed = 0;
  private listedOther = 0;
  passedNotListed = 0;
  otherNotListed = 0;
  judged = 0;
  readonly unjudged = new Map<string, number>();

  constructor(
    private readonly target: string,
    private readonly strict: boolean,
  ) {}

  private listedBodyBytes = 0;
  private readonly kinds = new Set<string>();

  add(seen: SeenExchange): TestRecord | undefined {
    const reason = unjudgedReason(seen);
    if (reason) {
      // Each path outside the interface is a reason of its own: their number is bounded too.
      const key = this.unjudged.has(reason) || this.unjudged.size < MAX_UNJUDGED_REASONS ? reason : OTHER_UNJUDGED;
      this.unjudged.set(key, (this.unjudged.get(key) ?? 0) + 1);
      return undefined;
    }
    const record = judgeExchange(seen, this.target, this.strict)!;
    this.judged++;
    const bodyBytes = (seen.requestBody?.length ?? 0) + (seen.responseBody?.length ?? 0);
    const overBudget = this.listedBodyBytes + bodyBytes > MAX_LISTED_BODY_BYTES;
    // The first exchange of each endpoint, status and outcome is always listed, past every bound: the
    // coverage and the verdict are computed from the listed ones, so a pair exercised late, or a
    // nonconformance seen after many passes, is never lost (their number is bounded by the catalogue).
    const kind = `${record.endpoint} ${seen.status} ${record.outcome}`;
    if (!this.kinds.has(kind)) {
      this.kinds.add(kind);
      if (record.outcome === 'passed') this.listedPassed++;
      else this.listedOther++;
      this.listedBodyBytes += bodyBytes;
      this.records.push(record);
      return record;
    }
    if (record.outcome === 'passed') {
      if (this.listedPassed >= MAX_LISTED_EXCHANGES || overBudget) {
        this.passedNotListed++;
        return record;
      }
      this.listedPassed++;
    } else {
      if (this.listedOther >= MAX_LISTED_EXCHANGES || overBudget) {
        this.otherNotListed++;
        return record;
      }
      this.listedOther++;
    }
    this.listedBodyBytes += bodyBytes;
    this.records.push(record);
    return record;
  }

  get total(): number {
    return this.judged + [...this.unjudged.values()].reduce((n, c) => n + c, 0);
  }

  warnings(): string[] {
    const out = [`conformance proxy judged the answers of the traffic that passed through it, without requests of its own: the verdict is at best incomplete, and its report is never certified (certify the report of a whole \`conformance run\`)`];
    for (const [reason, count] of this.unjudged) out.push(`${count} exchange(s) passed through unjudged: ${reason}`);
    if (this.passedNotListed > 0) out.push(`${this.passedNotListed} more exchange(s) passed and are not listed (each endpoint and status they answered is, by an earlier exchange) (the report lists at most ${MAX_LISTED_EXCHANGES}, and bodies of at most ${MAX_LISTED_BODY_BYTES / 1024 / 1024} MB in all)`);
    if (this.otherNotListed > 0) out.push(`${this.otherNotListed} more failed or not judged exchange(s) are not listed (each endpoint, status and outcome of theirs is, by an earlier exchange) (the report lists at most ${MAX_LISTED_EXCHANGES}, and bodies of at most ${MAX_LISTED_BODY_BYTES / 1024 / 1024} MB in all)`);
    return out;
  }

  /** The report of what passed through; every documented pair no exchange answered is not verified, with that reason. */
  report(startedAt: Date, finishedAt: Date, strict: boolean): Report {
    const report = buildReport(this.records, {
      suiteVersion: suiteVersion(),
      target: { baseUrl: this.target, embedded: false, states: 'none' },
      startedAt,
      finishedAt,
      strict,
      warnings: this.warnings(),
      proxy: { target: this.target, exchanges: this.total, judged: this.judged, notJudged: this.total - this.judged },
    });
    for (const pair of report.coverage.pairs) if (pair.tests.length === 0) pair.reason = 'no exchange of the traffic was answered with it';
    for (const constraint of report.coverage.constraints) if (constraint.tests.length === 0 && constraint.outcome === 'not verified' && constraint.reason === 'no test expects it') constraint.reason = 'the proxy does not judge field limits (it cannot know what a request was meant to test)';
    return report;
  }
}
