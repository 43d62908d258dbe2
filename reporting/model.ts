import type { Group } from '../helpers/catalogue.js';
import type { Exchange } from '../helpers/http.js';
import type { SchemaProblem } from '../helpers/schemas.js';

/** The version of report.json's own schema (schemas/report.json); bumped on any incompatible change. */
export const REPORT_VERSION = '1.1.0';

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface TestRecord {
  /** Stable across runs: derived from the test's name, which is unique. */
  id: string;
  name: string;
  group: Group;
  file: string;
  /** The line of the test's declaration in `file` (absent in reports before 1.1). */
  line?: number | null;
  endpoint: string;
  /** The status the test expects; a list where the specification allows several; null for a flow. */
  status: number | number[] | null;
  clauses: string[];
  constraint: string | null;
  outcome: Outcome;
  /** Why it was skipped, or the failure's first line. */
  reason: string | null;
  /** Statuses the target answered to the requests whose status the test asserted. */
  observedStatus: number[];
  advisories: string[];
  durationMs: number;
  failure: { message: string; schemaProblems: { schema: string; problems: SchemaProblem[] }[] } | null;
  exchanges: Exchange[];
}

export type PairOutcome = 'passed' | 'failed' | 'not verified';

export interface PairCoverage {
  endpoint: string;
  status: number;
  condition: string;
  outcome: PairOutcome;
  tests: string[];
  reason: string | null;
}

export interface ConstraintCoverage {
  id: string;
  endpoint: string;
  field: string;
  rule: string;
  outcome: PairOutcome;
  tests: string[];
  reason: string | null;
}

export type Verdict = 'conformant' | 'nonconformant' | 'incomplete';

export interface Report {
  reportVersion: string;
  suite: { name: string; version: string };
  spec: { title: string; version: string };
  target: { baseUrl: string; embedded: boolean; states: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  strict: boolean;
  verdict: Verdict;
  summary: { total: number; passed: number; failed: number; skipped: number; advisories: number };
  warnings: string[];
  tests: TestRecord[];
  coverage: { pairs: PairCoverage[]; constraints: ConstraintCoverage[] };
}
