import type { Group } from '../helpers/spec/catalogue.js';
import type { Exchange } from '../helpers/net/http.js';
import type { SchemaProblem } from '../helpers/spec/schemas.js';

/** The version of report.json's own schema (schemas/report.json): minor for additions (1.3.0: rules' `pending`, tests' `judges`; 1.4.0: `implementation`, rule instances, `seed`, failed logins, expected failures, `failedAt`, `leftBehind`), major for an incompatible change. */
export const REPORT_VERSION = '1.4.0';

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface TestRecord {
  /** Stable across runs: derived from the test's name, which is unique. */
  id: string;
  name: string;
  group: Group;
  file: string;
  /** The line of the test's declaration in `file`, or of its row for a row of a data-driven table (absent in reports before 1.1). */
  line?: number | null;
  endpoint: string;
  /** The status the test expects; a list where the specification allows several; null for a flow. */
  status: number | number[] | null;
  clauses: string[];
  /** The specification's atomic rules the test checks (helpers/spec/rules.ts ids); absent in reports before 1.2. */
  rules?: string[];
  /** The rule instances the test cites (helpers/spec/instances.ts ids); since 1.4.0, absent when none. */
  instances?: string[];
  /** `'advisory'`: the test judges no rule, only advises where the specification is silent (its rules are empty); since 1.3.0. */
  judges?: 'advisory';
  constraint: string | null;
  outcome: Outcome;
  /** Why it was skipped, or the failure's first line. */
  reason: string | null;
  /** Statuses the target answered to the requests whose status the test asserted. */
  observedStatus: number[];
  advisories: string[];
  /**
   * Security findings: credentials in the target's answers (a password or its hash, a secret that never
   * travels, the reset token, a token of another session or user). A category of its own; any makes the verdict
   * nonconformant. Absent in reports before 1.1.
   */
  security?: string[];
  /** Facts the run measured (the brute-force threshold found); neither findings nor advisories. */
  notes?: string[];
  durationMs: number;
  /** Since 1.4.0, a test that ran: when it began (ms precision); with durationMs, the order and overlap of the run's tests. */
  startedAt?: string;
  failure: { message: string; schemaProblems: { schema: string; problems: SchemaProblem[] }[] } | null;
  exchanges: Exchange[];
  /** Run warnings this test's bookkeeping raised; moved into the report's `warnings` before it is written (never in report.json). */
  suiteWarnings?: string[];
  /** For a failed test: the index in `exchanges` of the answer it checked last, the one its curl reproduces (since 1.2.0). */
  checkedExchange?: number;
  /** Answers of a rate limiter (429, or 503 with Retry-After) this test's requests got and retried; absent when none. */
  rateLimited?: number;
  /** Logins this test sent that the target refused (4xx but 422; issue 28): what a brute-force counter may count. Absent when none. */
  failedLogins?: number;
  /** Since 1.4.0, failed tests only: the index in `exchanges` of the last request the test sent before it failed (the clean-up's come after); its reproduction ends there. */
  failedAt?: number;
  /** Since 1.4.0: clean-up steps that failed or that an interrupt cut short (what may remain on the target: the request it could not finish). */
  leftBehind?: string[];
  /** Since 1.4.0, failed tests only: an entry of the expectations file (--expected-failures) expected this failure. */
  expectedFailure?: { reason: string; until?: string; entry: string };
}

/** What became of one entry of the expectations file in a run. */
export interface ExpectationOutcome {
  test?: string;
  rule?: string;
  reason: string;
  until?: string;
  /** `passed` and `expired` fail the gate; `not run`: none of its tests ran (a selection, a skip). */
  outcome: 'failed as expected' | 'passed' | 'expired' | 'not run';
  /** Ids of the tests it covered: the failed ones, or those that ran. */
  tests: string[];
}

/** Since 1.4.0, a run given an expectations file: its entries, what became of them, and what fails the gate. */
export interface ExpectedFailures {
  file: string;
  entries: ExpectationOutcome[];
  /** One line per entry that fails the gate (an expected failure passed, an entry past its date). */
  problems: string[];
}

export type PairOutcome = 'passed' | 'failed' | 'not verified';

export interface PairCoverage {
  endpoint: string;
  status: number;
  condition: string;
  outcome: PairOutcome;
  tests: string[];
  reason: string | null;
  /**
   * Since 1.2.0, a passed pair whose tests allow several statuses (403 or 409) and saw another one:
   * the statuses the target answered, so the pair says it was verified through an allowed alternative.
   */
  observed?: number[];
}

export interface ConstraintCoverage {
  id: string;
  endpoint: string;
  field: string;
  rule: string;
  outcome: PairOutcome;
  tests: string[];
  reason: string | null;
  /** Since 1.2.0: false for a constraint the catalogue marks as not observable by a client; counted apart from the verified ones. */
  observable?: false;
}

/** One atomic rule of the specification, with the tests that cite it. */
export interface RuleCoverage {
  id: string;
  sections: string[];
  quote: string;
  /** False for a rule no client can observe: listed with its reason, never counted. */
  observable: boolean;
  outcome: PairOutcome;
  tests: string[];
  /** Why it is not verified (unobservable, no test checks it yet, the tests skipped), or the first failure. */
  reason: string | null;
  /**
   * Since 1.3.0: true for an observable rule no test of this suite version checks (PENDING_RULES): the
   * suite's gap, not the target's. Never verified; `run` may still call the target conformant on the
   * rules the suite checks, but a certificate never does. Absent for every other rule.
   */
  pending?: true;
  /**
   * Since 1.4.0, for a rule that applies in several places (helpers/spec/instances.ts): how many of its
   * instances a passing test checked, and the ids of those no passing test checked. Such a rule is
   * verified only when each instance is.
   */
  instances?: { total: number; verified: number; notVerified: string[] };
}

/** One place a rule applies (since 1.4.0): a rule x an endpoint x a path shape x a class, with the tests that cite it. */
export interface InstanceCoverage {
  id: string;
  rule: string;
  endpoint: string | null;
  shape: string | null;
  variant: string | null;
  observable: boolean;
  outcome: PairOutcome;
  tests: string[];
  reason: string | null;
}

/** Instances verified out of the instances of observable rules (since 1.4.0). */
export interface InstanceTally {
  observable: number;
  verified: number;
  failed: number;
  notVerified: number;
}

/** Rule coverage of one section (the first a rule names), or of the whole specification. */
export interface RuleTally {
  observable: number;
  verified: number;
  failed: number;
  notVerified: number;
  /** Since 1.3.0: of `notVerified`, the rules no test of this suite version checks (pending). */
  pending?: number;
  unobservable: number;
}

export interface RuleSectionCoverage extends RuleTally {
  section: string;
  title: string;
}

export type Verdict = 'conformant' | 'nonconformant' | 'incomplete';

export interface Report {
  reportVersion: string;
  suite: { name: string; version: string };
  spec: { title: string; version: string };
  /** `mutant` (since 1.4.0): the embedded reference ran as this mutant (`run --mutant NAME`); reproductions repeat it. */
  target: { baseUrl: string; embedded: boolean; states: string; mutant?: string };
  /** Since 1.4.0: what the target is, as the operator declared it (`--implementation "NAME VERSION"`); absent when not declared. */
  implementation?: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  strict: boolean;
  /** The seed the run drew its value classes from: `--seed` with it replays the draw. Since 1.4.0. */
  seed?: string;
  verdict: Verdict;
  /** `failed` counts every failed test, expected ones included; `expectedFailures` (since 1.4.0) those of them an expectations entry expected. */
  summary: { total: number; passed: number; failed: number; skipped: number; advisories: number; security?: number; rateLimited?: number; failedLogins?: number; expectedFailures?: number };
  /** Since 1.4.0: the expectations file of the run (--expected-failures) and what became of each entry. */
  expectedFailures?: ExpectedFailures;
  /** The endpoint groups this run ran (all of them unless --group); since 1.1.0. */
  groups?: string[];
  /** True when the run was interrupted (Ctrl-C): tests that did not finish are skipped; since 1.1.0. */
  interrupted?: boolean;
  /**
   * Only when the run selected tests (--grep, --clause, --endpoint, --failed): what it selected. Such a
   * run's verdict is at best incomplete and it is never certified. Since 1.2.0.
   */
  selection?: { text: string; grep?: string; clauses?: string[]; endpoints?: string[]; ids?: string[] };
  /**
   * Only in a report of `conformance proxy`: the target it stood in front of and what passed through it.
   * Its verdict is at best incomplete (it judged the traffic, not the interface) and it is never certified. Since 1.2.0.
   */
  proxy?: { target: string; exchanges: number; judged: number; notJudged: number };
  warnings: string[];
  tests: TestRecord[];
  coverage: {
    pairs: PairCoverage[];
    constraints: ConstraintCoverage[];
    /** Every atomic rule of the specification; since 1.2.0. */
    rules?: RuleCoverage[];
    /** Rules verified out of observable rules, in all and per section; since 1.2.0. */
    ruleSummary?: RuleTally & { sections: RuleSectionCoverage[] };
    /** Since 1.4.0: every instance of every rule (a rule of one place has one, its own id). */
    instances?: InstanceCoverage[];
    /** Since 1.4.0: instances verified out of the instances of observable rules. */
    instanceSummary?: InstanceTally;
  };
  /** Only in the report of `conformance explore`: what replays it and what it created. */
  exploration?: { seed: number; runs: number; properties: number; generatedRuns: number; cardsCreated: number };
}
