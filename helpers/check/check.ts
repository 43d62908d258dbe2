import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, test, type TestContext } from 'vitest';
import { CLAUSES, constraintById, endpointById, type Group } from '../spec/catalogue.js';
import { effectiveRules, ruleById } from '../spec/rules.js';
import { instanceById } from '../spec/instances.js';
import { orderSymbolProblems } from '../spec/orders.js';
import type { ApiResponse, Exchange, RequestSpec } from '../net/http.js';
import { RECORDED_JSON_CHARS, SuiteLimitError } from '../net/http.js';
import { RETRY_ATTEMPTS } from '../net/rate.js';
import { redactError, redactJson, redactLearntSince, redactText, registeredSecretCount } from '../net/redact.js';
import { formatProblems, schemaProblems, type SchemaProblem } from '../spec/schemas.js';
import { releaseLeases } from '../states/lease-release.js';
import { pathUserOf, scanCredentials, scanHeaders, type AnswerContext } from './security.js';
import { issuesCredentials, normalizedKey } from '../spec/credential-names.js';
import type { StateData, StateName, StateRequestOptions } from '../states/transport.js';
import { currentTarget, onNewTarget, type TargetInfo } from './target.js';
import { forgetLearntSecrets } from '../net/secrets.js';
import { isListPath, wholeList } from './pages.js';
import { STATUS_ASSERTION, statusMessage } from './status-message.js';
import { narrowedOut, narrowingOf, notHinted } from './narrowing.js';
import { selects, testId } from './selection.js';
import { JSON_MEDIA_TYPE } from '../spec/media-type.js';
import { RESTRICTED_REASON, isRestrictedLogin } from '../spec/logins.js';

// A kept worker's next run meets another target with other users: what the scan learnt of this one is forgotten.
onNewTarget(() => forgetLearntSecrets());

/** What a test checks, declared once and read by reports and coverage. */
export interface CheckMeta {
  /** Specification sections the test checks, for example ["4.2", "8"]. */
  clauses: string[];
  /** The status the test expects; a list where the specification allows several; null for a multi-step flow. */
  status: number | number[] | null;
  /** The field constraint (catalogue id) the test checks, for boundary tests. */
  constraint?: string;
  /** The specification's atomic rules the test checks (ids of helpers/spec/rules.ts); a constraint adds its own. */
  rules?: string[];
  /**
   * The instances of rules the test checks (ids of helpers/spec/instances.ts: a rule x this endpoint x
   * a path shape x a class): where a rule applies in several places, it is verified only when each of
   * them has a passing test citing it. An instance's rule is cited with it.
   */
  instances?: string[];
  /**
   * Only for a test with several branches (status null, a flow; or a list of several statuses, other
   * than section 5.6's "403 or 409"): a test there cites only rules it can fail on whichever answer
   * came. Saying why here ("each step asserts its own status and schema") declares that it judges its
   * cited rules on every branch; without it, test/rule-branches.test.ts fails a test that cites rules
   * from such a status.
   */
  rulesOnEveryBranch?: string;
  /**
   * `'advisory'`: the test judges no rule of the specification. It asks something the specification is
   * silent on and only records what came as an advisory (like every test, it still fails on a server
   * error or a credential in an answer). Such a test says so with `rules: []`, and no constraint; every
   * other test cites the rules it can fail on.
   */
  judges?: 'advisory';
  /**
   * The test provokes a restriction that may outlast it (the brute-force lockout, 425, section 5.5): `conformance run`
   * runs it after every other test of every file (vitest.run.config.ts), so that the restriction blocks none of them.
   * Also a test that needs no other test's login between two of its own requests (a verifier's state shared across
   * logins, round wb21): the last phase runs only these few.
   */
  runsLast?: true;
}

/** Section 5.6's one answer in two statuses: "403 or 409 with the message This action is unauthorized.". */
const ONE_ANSWER_IN_TWO_STATUSES: readonly number[] = [403, 409];

/**
 * True when the expected status leaves the test several branches: a flow (null), or a list of several
 * statuses (a success and an error, 422 or 403, 403 or 404 ...), except 403 and 409, which section 5.6
 * names as one answer. A rule of one status (403 wrong credentials, 412 payload invalid, the 422 format)
 * is not judged on the branch of another.
 */
export function hasSeveralBranches(status: CheckMeta['status']): boolean {
  if (status === null) return true;
  const list = [...new Set(Array.isArray(status) ? status : [status])];
  return list.length > 1 && !list.every((s) => ONE_ANSWER_IN_TWO_STATUSES.includes(s));
}

export interface ConformanceMeta extends CheckMeta {
  endpoint: string;
  group: Group;
  /** Every rule the test checks: those it cites and those of its constraint. */
  rules: string[];
}

/** What happened while the test ran: all of it already redacted. */
export interface RunRecord {
  exchanges: Exchange[];
  advisories: string[];
  observedStatus: number[];
  schemaProblems: { schema: string; problems: SchemaProblem[] }[];
  /** Security findings (credentials in answers): a category of their own, apart from clauses. */
  security: string[];
  /** Facts the run measured and reports, neither findings nor advisories (the brute-force threshold found). */
  notes: string[];
  /** Answers 429 or 503 with Retry-After that were retried; and those still rate-limited after every retry. */
  rateLimited?: number;
  stillRateLimited?: number;
  /** The suite's own bookkeeping that went wrong (restoring a leased account): run warnings, not findings about the target. */
  suiteWarnings?: string[];
  /** The index in `exchanges` of the answer last checked (status or schema): a failure's curl reproduces that request. */
  checkedExchange?: number;
  /** Why a list answer of the test could not be read whole (helpers/check/pages.ts): the test is then not verified. */
  incompleteList?: string;
  /** Why part of the test could not be verified (`notVerified`): the test ran on, and ends not verified unless it failed. */
  notVerified?: string[];
  /** How many requests the test's body sent (the clean-up's come after): a failure is in the last of them. */
  bodyExchanges?: number;
  /** Clean-up steps that failed or were cut short (an interrupted run bounds them): what may remain on the target. */
  leftBehind?: string[];
}

/**
 * How long the clean-up of a test in flight may take once the run was interrupted (its requests are
 * aborted after that): the interrupted run ends within seconds, and says what it could not delete.
 */
export const CLEANUP_AFTER_INTERRUPT_MS = 3_000;

/** Whether a test's signal was aborted by the run's interruption (Ctrl-C, SIGTERM; vitest's or ours), not by a time-out. */
function runCancelled(signal: AbortSignal): boolean {
  return signal.aborted && (signal.reason as { name?: string } | undefined)?.name === 'TestRunAbortError';
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: ConformanceMeta;
    run?: RunRecord;
    /** Declared but left out by the run's selection (--grep, --clause, --endpoint, --failed), or run in the other phase of the run (`phase`): never run here, never reported here. */
    unselected?: boolean;
    /** `conformance run`'s main phase: an unselected test only because the last phase runs it (CheckMeta.runsLast). */
    later?: true;
    /** `conformance list` only: the test body's source, read for the provider states it asks for. */
    source?: string;
  }
  export interface ProvidedContext {
    /** `conformance list`: tests are collected, never run; each carries its body's source. */
    listing: boolean;
    /** The BroadcastChannel on which `conformance run` says it was interrupted (cli/interrupt.ts); absent elsewhere. */
    interruptChannel?: string;
    /**
     * `conformance run` (vitest.run.config.ts): which of the run's two phases collects the file, `main` (every test but
     * those that run last) or `last` (only those, after every other file). Absent elsewhere: every test is declared.
     */
    phase?: 'main' | 'last';
  }
}

/** The run was interrupted (Ctrl-C, SIGTERM): what the tests in flight are aborted with. */
export class RunInterrupted extends Error {
  override name = 'TestRunAbortError';
}

let interruption: AbortController | undefined;

/**
 * Aborted when the run is interrupted. vitest's own cancellation reaches only the workers that ran a
 * test when it came; the run's BroadcastChannel reaches every worker thread at once.
 */
function runInterruptedSignal(): AbortSignal {
  if (!interruption) {
    interruption = new AbortController();
    const name = inject('interruptChannel');
    if (name) {
      const channel = new BroadcastChannel(name);
      channel.onmessage = () => interruption!.abort(new RunInterrupted('the run was interrupted'));
      // Never what keeps a worker alive.
      (channel as unknown as { unref(): void }).unref();
      // Interrupted before this worker listened (it was still loading): the run left a marker (cli/interrupt.ts).
      if (existsSync(join(tmpdir(), name))) interruption.abort(new RunInterrupted('the run was interrupted'));
    }
  }
  return interruption.signal;
}

type Method = RequestSpec['method'];
type SendOptions = Omit<RequestSpec, 'method' | 'path'>;

/**
 * A request of machinery that sends many (`conformance explore`, whose evidence is only its counterexample's replay): it
 * is scanned for credentials and a list is read whole (every page) as any request of the test is, but its exchanges go
 * to `capture` rather than the test's evidence, and the advisories its reading gives (a list read in pages) to `advise`.
 * A rate limiter's answer left after every retry is not counted against the test: the caller sees it on the exchange
 * (`rateLimited`) and judges it.
 */
export interface QuietRequest {
  capture(exchange: Exchange): void;
  advise(message: string): void;
}

export interface CheckContext {
  target: TargetInfo;
  /** Aborted when the run is interrupted: every request takes it; a test that waits passes it to its wait. */
  readonly signal: AbortSignal;
  /** `quiet`: the exchanges go to its capture, not to the test's evidence (QuietRequest). */
  request(method: Method, path: string, options?: SendOptions, quiet?: QuietRequest): Promise<ApiResponse>;
  get(path: string, options?: SendOptions): Promise<ApiResponse>;
  post(path: string, options?: SendOptions): Promise<ApiResponse>;
  delete(path: string, options?: SendOptions): Promise<ApiResponse>;
  /** Arranges a provider state; when the target does not provide it, the test is skipped with the reason. */
  state<N extends StateName>(name: N, params?: Record<string, unknown>, options?: Omit<StateRequestOptions, 'holder'>): Promise<StateData[N]>;
  /** Records something the specification leaves open: reported as an advisory, a failure only in strict mode. */
  advise(message: string): void;
  /** Reports a measured fact (not a finding): shown with the test in every report. */
  note(message: string): void;
  /** Skips the test with a reason (a skip is never a pass). */
  skip(reason: string): never;
  /**
   * Records that part of the test cannot be verified (an answer that is not the interface's, say), with the reason, and
   * lets the test run on (review-ac F4): the rest is judged, a failure it finds still fails, and a test that ends without
   * one ends not verified with every reason recorded (a skip is never a pass), not passed.
   */
  notVerified(reason: string): void;
  /** Asserts the status (one, or any of several the specification allows) and records the one observed. */
  expectStatus(response: ApiResponse, expected: number | number[]): void;
  /** Asserts the JSON body against a schema of schemas/, listing every problem. */
  expectSchema(response: ApiResponse, schema: string): any;
  /** Registers a clean-up step that runs after the test, pass or fail. */
  cleanup(step: () => Promise<unknown>): void;
}

export function validateMeta(endpointId: string, name: string, meta: CheckMeta): void {
  const where = `test "${endpointId} ${name}"`;
  const endpoint = endpointById.get(endpointId);
  if (!endpoint) throw new Error(`${where}: unknown endpoint "${endpointId}" (not in helpers/spec/catalogue.ts)`);
  if (meta.clauses.length === 0) throw new Error(`${where}: cites no clause`);
  for (const clause of meta.clauses) if (!(clause in CLAUSES)) throw new Error(`${where}: unknown clause "${clause}"`);
  if (meta.status !== null) {
    const expected = Array.isArray(meta.status) ? meta.status : [meta.status];
    const documented = new Set(endpoint.statuses.map((s) => s.status));
    if (!expected.some((s) => documented.has(s))) throw new Error(`${where}: expects ${expected.join(' or ')}, which the specification does not document for this endpoint`);
  }
  if (meta.constraint !== undefined) {
    const constraint = constraintById.get(meta.constraint);
    if (!constraint) throw new Error(`${where}: unknown constraint "${meta.constraint}"`);
    if (constraint.endpoint !== endpointId) throw new Error(`${where}: constraint ${meta.constraint} belongs to ${constraint.endpoint}`);
    if (constraint.unobservable) throw new Error(`${where}: constraint ${meta.constraint} cannot be observed by a client (${constraint.unobservable}); no test may claim it`);
  }
  for (const id of meta.rules ?? []) {
    const rule = ruleById.get(id);
    if (!rule) throw new Error(`${where}: unknown rule "${id}" (not in helpers/spec/rules.ts)`);
    if (rule.unobservable) throw new Error(`${where}: rule ${id} cannot be observed by a client (${rule.unobservable}); no test may claim it`);
  }
  for (const id of meta.instances ?? []) {
    const instance = instanceById.get(id);
    if (!instance) throw new Error(`${where}: unknown rule instance "${id}" (not derived in helpers/spec/instances.ts)`);
    if (instance.endpoint !== null && instance.endpoint !== endpointId) throw new Error(`${where}: rule instance "${id}" belongs to ${instance.endpoint}`);
    if (ruleById.get(instance.rule)?.unobservable) throw new Error(`${where}: rule instance "${id}" is of an unobservable rule`);
  }
  if (meta.rulesOnEveryBranch !== undefined) {
    if (typeof meta.rulesOnEveryBranch !== 'string' || meta.rulesOnEveryBranch.trim().length < 10) throw new Error(`${where}: rulesOnEveryBranch must say, in words, why its rules are judged on every branch`);
    if (!hasSeveralBranches(meta.status)) throw new Error(`${where}: declares rulesOnEveryBranch, but its status ${JSON.stringify(meta.status)} leaves it one branch (it applies to a flow, status null, or to a list of several statuses other than 403 or 409)`);
  }
  if (meta.judges === 'advisory') {
    if (!Array.isArray(meta.rules) || meta.rules.length > 0 || meta.constraint !== undefined) throw new Error(`${where}: judges only advisories, so it cites no rule and no constraint (rules: [])`);
    return;
  }
  if (effectiveRules(meta.rules, meta.constraint).length === 0 && (meta.instances ?? []).length === 0) throw new Error(`${where}: cites no rule of helpers/spec/rules.ts (rules, or a constraint that states one; a test that only advises where the specification is silent declares rules: [] and judges: 'advisory')`);
}

/** Section 1.2's JSON media types (helpers/spec/media-type.ts, shared with `conformance proxy`). */
export { JSON_MEDIA_TYPE };

function snippet(response: ApiResponse): string {
  return response.isJson ? JSON.stringify(response.json).slice(0, 300) : JSON.stringify(response.text.slice(0, 200));
}

/** The start of the note on an answer too large to keep for the rescan. */
const LARGE_ANSWER_NOTE = 'a large answer';

/**
 * Issue 27, round wb28 (fix-wb28a): the characters of large answers (over RECORDED_JSON_CHARS) one test keeps for the
 * rescan at its end, in all: a reset token learnt after forgot-password answered is looked for in them too. Within it a
 * large answer keeps its JSON whole but its `data:` URIs (an image's bytes, no text); past it, the strings that no
 * longer fit are dropped (and the run notes it). 8 tests in flight a worker hold at most 8 of them.
 */
export const LARGE_RESCAN_CHARS = 1024 * 1024;

/**
 * A large JSON answer as the rescan keeps it: its structure, numbers and booleans, and its strings and member names
 * while `budget` characters last (member names and strings count their length, any other value 1); `data:` URIs are
 * dropped. Answers the copy, the characters it holds and whether every string was kept.
 */
export function keptForRescan(value: unknown, budget: number): { value: unknown; chars: number; complete: boolean } {
  let chars = 0;
  let complete = true;
  const fits = (cost: number) => {
    if (chars + cost > budget) {
      complete = false;
      return false;
    }
    chars += cost;
    return true;
  };
  const copy = (item: unknown, depth: number): unknown => {
    if (depth > 64) {
      complete = false;
      return undefined;
    }
    if (typeof item === 'string') return /^data:[^,]{0,200},/i.test(item) || !fits(item.length) ? undefined : item;
    if (Array.isArray(item)) {
      if (!fits(1)) return undefined;
      return item.map((inner) => copy(inner, depth + 1) ?? null);
    }
    if (item !== null && typeof item === 'object') {
      if (!fits(1)) return undefined;
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(item)) {
        if (!fits(key.length)) continue;
        const kept = copy(inner, depth + 1);
        if (kept !== undefined) out[key] = kept;
      }
      return out;
    }
    return fits(1) ? item : undefined;
  };
  return { value: copy(value, 0), chars, complete };
}

/** An answer of the test, kept unredacted until its end so that the security scan can run again with every secret learnt since. */
interface ScannedAnswer {
  line: string;
  /** The parsed JSON body (undefined when the answer has none). */
  body: unknown;
  /** Whether the answer had a JSON body (only such a body is scanned). */
  json: boolean;
  /** The answer's headers (issue 27, round wb27: scanned too, each named, never its value). */
  headers: Readonly<Record<string, string>>;
  /**
   * Round wb28 (fix-wb28a): the fields of the interim answers read before it and of its trailer, named `<field> (interim
   * <status>)` and `<field> (trailer)`; scanned as headers are (a 1xx or a trailer may carry anything a header may).
   */
  outside: Readonly<Record<string, string>>;
  context: AnswerContext;
}

/** The fields of an answer's interim answers and trailer, each named by where it came (ScannedAnswer.outside). */
export function fieldsOutsideHead(response: ApiResponse): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => {
    let key = name;
    for (let i = 2; key in out; i++) key = `${name} #${i}`;
    out[key] = value;
  };
  for (const interim of response.interim) for (const [name, value] of Object.entries(interim.headers)) add(`${name} (interim ${interim.status})`, value);
  for (const [name, value] of Object.entries(response.trailers)) add(`${name} (trailer)`, value);
  return out;
}

/** The security scan of one answer: its findings go to the run's security category, its advisories (shared constants) to the advisories, once each. */
function scanAnswer(run: RunRecord, answer: ScannedAnswer, final = true): void {
  const { findings, advisories } = answer.json ? scanCredentials(answer.body, answer.context) : { findings: [], advisories: [] };
  for (const finding of findings) {
    const line = redactText(`${answer.line} whose body ${finding}`);
    if (!run.security.includes(line)) run.security.push(line);
  }
  const inHeaders = scanHeaders(answer.headers, answer.json ? answer.body : undefined, answer.context, { final });
  for (const finding of inHeaders.findings) {
    const line = redactText(`${answer.line} whose ${finding}`);
    if (!run.security.includes(line)) run.security.push(line);
  }
  // Round wb28 (fix-wb28a): the interim answers' and the trailer's fields, as headers.
  const outside = Object.keys(answer.outside).length > 0 ? scanHeaders(answer.outside, answer.json ? answer.body : undefined, answer.context, { final }) : { findings: [], advisories: [] };
  for (const finding of outside.findings) {
    const line = redactText(`${answer.line} whose ${finding}`);
    if (!run.security.includes(line)) run.security.push(line);
  }
  // Review-ay S1: headers holding more encoded text than the scan decodes of one answer are said to be partly unread.
  for (const advisory of [...inHeaders.advisories, ...outside.advisories]) {
    const line = redactText(`security: ${answer.line} whose ${advisory}`);
    if (!run.advisories.includes(line)) run.advisories.push(line);
  }
  for (const advisory of advisories) {
    const line = redactText(`security: ${answer.line} whose body ${advisory}`);
    if (!run.advisories.includes(line)) run.advisories.push(line);
  }
}

/**
 * Issue 27 item 5: the scan runs again at the end of the test over all its answers, with every secret
 * learnt meanwhile (the reset token a state gives after forgot-password answered, a token issued later).
 */
function rescanAnswers(run: RunRecord, answers: readonly ScannedAnswer[]): void {
  for (const answer of answers) scanAnswer(run, answer, true);
}

/** How many secrets the worker knew when an exchange was recorded (and redacted). */
const secretsWhenRecorded = new WeakMap<Exchange, number>();

/**
 * Redacts again what the test recorded before it learnt a secret: the reset token a state gives after
 * forgot-password answered, a token issued after an answer that carried it. The rescan above makes
 * such an answer a finding; its evidence must not then show the value (principle 4). Exchanges are
 * already redacted copies, so this only replaces what was learnt since.
 */
function redactLateSecrets(run: RunRecord, since: number): void {
  const known = registeredSecretCount();
  if (since >= known) return;
  for (const exchange of run.exchanges) {
    const recorded = secretsWhenRecorded.get(exchange) ?? since;
    if (recorded >= known) continue;
    const again = <T>(value: T): T => redactLearntSince(value, recorded) as T;
    exchange.request = again(exchange.request);
    if (exchange.response) exchange.response = again(exchange.response);
    if (exchange.error !== undefined) exchange.error = again(exchange.error);
    secretsWhenRecorded.set(exchange, known);
  }
  run.schemaProblems = redactLearntSince(run.schemaProblems, since) as RunRecord['schemaProblems'];
  run.advisories = redactLearntSince(run.advisories, since) as string[];
  run.notes = redactLearntSince(run.notes, since) as string[];
}

/**
 * The credentials a request itself sends, wherever it puts them: its bearer token, a `Token` header's
 * JWT, an `Authorization` value in any scheme (`Basic <token>`, the bare token), a header whose name ends in
 * `token` (`X-Auth-Token`, `X-Access-Token`), the values of its Cookie header, and a token in the query
 * (`?token=`, `api_token`, `access_token`: section 5.3's wrong places) or in a JSON body's or a form's member whose
 * name ends in `token` (round wb27's `api_token`). All are the caller's own (review-ax F1: a cookie middleware that
 * renews the token it was sent, a 401 naming the token it found elsewhere).
 */
function sentCredentials(options: SendOptions): string[] {
  const sent: string[] = [];
  const tokenValues = (name: string, value: unknown) => {
    if (!normalizedKey(name).endsWith('token')) return;
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string' && item !== '') sent.push(item);
  };
  if (options.token) sent.push(options.token);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const key = name.toLowerCase();
    if (key === 'token') sent.push(value);
    else if (key === 'authorization') sent.push(value, value.replace(/^[A-Za-z][\w-]*\s+/, ''));
    else if (key === 'cookie') {
      for (const pair of value.split(';')) {
        const at = pair.indexOf('=');
        if (at < 0) continue;
        const cookie = pair.slice(at + 1).trim();
        if (cookie === '') continue;
        sent.push(cookie);
        try {
          sent.push(decodeURIComponent(cookie));
        } catch {
          // Not percent-encoded: the value as sent is enough.
        }
      }
    } else tokenValues(key, value);
  }
  for (const [name, value] of Object.entries(options.query ?? {})) tokenValues(name, value);
  if (options.json && typeof options.json === 'object' && !Array.isArray(options.json)) for (const [name, value] of Object.entries(options.json)) tokenValues(name, value);
  for (const [name, value] of options.form?.entries() ?? []) tokenValues(name, value);
  return sent;
}

function createContext(ctx: TestContext, run: RunRecord, cleanups: (() => Promise<unknown>)[], holder: { id: string }, answers: ScannedAnswer[], phase: { signal: AbortSignal; inFlight: AbortSignal }): CheckContext {
  // The characters of large answers kept for the rescan so far (LARGE_RESCAN_CHARS).
  const largeKept = { chars: 0 };
  const { info, http, states } = currentTarget();
  const exchangeOf = new WeakMap<ApiResponse, number>();
  // List answers that say they hold more than the suite could read (helpers/check/pages.ts), with the reason.
  const incompleteLists = new WeakMap<ApiResponse, string>();
  const checked = (response: ApiResponse) => {
    const index = exchangeOf.get(response);
    if (index !== undefined) run.checkedExchange = index;
  };
  // Each distinct password the test sends has its own variable in reproductions: $PASSWORD, the new one a reset sets $NEW_PASSWORD, others $PASSWORD_2 ...
  const passwordVariables = new Map<string, string>();
  const namePasswords = (exchange: Exchange, path: string, json: unknown) => {
    if (!json || typeof json !== 'object' || Array.isArray(json)) return;
    for (const [key, value] of Object.entries(json)) {
      if (!key.toLowerCase().includes('password') || typeof value !== 'string' || value === '') continue;
      let variable = passwordVariables.get(value);
      if (!variable) {
        const base = path.includes('reset-password') ? 'NEW_PASSWORD' : 'PASSWORD';
        const taken = new Set(passwordVariables.values());
        variable = base;
        for (let n = 2; taken.has(variable); n++) variable = `${base}_${n}`;
        passwordVariables.set(value, variable);
      }
      if (variable !== 'PASSWORD') (exchange.request.variables ??= {})[key] = variable;
    }
  };
  // A list answered in pages is read whole before any check judges it (helpers/check/pages.ts: section 8 leaves
  // pagination open; reading round r16), whichever way the test asks it (t.get, t.request).
  const request = async (method: Method, path: string, options: SendOptions = {}, quiet?: QuietRequest): Promise<ApiResponse> => {
    const first = await send(method, path, options, quiet);
    if (method !== 'GET' || !isListPath(path)) return first;
    const whole = await wholeList(
      first,
      { path, ...(options.query ? { query: options.query } : {}) },
      info.baseUrl,
      (next, query) => send('GET', next, { ...options, query }, quiet),
      (message) => {
        if (quiet) quiet.advise(message);
        else if (!run.advisories.includes(message)) run.advisories.push(message);
      },
      // A list that says it holds more than the suite could read cannot be judged whole (review-t): marked, so that a
      // test that takes its 200 is not verified (expectStatus, and the end of the test), while a test that expects
      // another status still fails on the 200 (a list answered where 401 is due is no paging question).
      (reason) => {
        incompleteLists.set(first, reason);
        run.incompleteList ??= reason;
      },
      info.maxResponseBytes,
    );
    const index = exchangeOf.get(first);
    if (whole !== first && index !== undefined) exchangeOf.set(whole, index);
    if (whole !== first && incompleteLists.has(first)) incompleteLists.set(whole, incompleteLists.get(first)!);
    return whole;
  };
  const send = async (method: Method, path: string, options: SendOptions = {}, quiet?: QuietRequest) => {
    let index: number | undefined;
    const response = await http.send(
      { method, path, signal: phase.signal, inFlight: phase.inFlight, ...options },
      (exchange) => {
        namePasswords(exchange, path, options.json);
        secretsWhenRecorded.set(exchange, registeredSecretCount());
        if (quiet) return quiet.capture(exchange);
        index = run.exchanges.push(exchange) - 1;
        if ((exchange.rateLimited ?? 0) > RETRY_ATTEMPTS) run.stillRateLimited = (run.stillRateLimited ?? 0) + 1;
      },
      () => (run.rateLimited = (run.rateLimited ?? 0) + 1),
    );
    if (index !== undefined) exchangeOf.set(response, index);
    const issues = response.status >= 200 && response.status < 300 && issuesCredentials(method, path);
    const answer: ScannedAnswer = { line: `${method} ${path.split('?')[0]} answered ${response.status}`, body: response.isJson ? response.json : undefined, json: response.isJson, headers: response.headers, outside: fieldsOutsideHead(response), context: { sent: sentCredentials(options), issues, pathUser: pathUserOf(path) } };
    // Kept for the rescan (the condition below): what only the rescan may judge (a code that may be public text, review-ay
    // F1) waits for it; an answer not kept is judged whole now.
    scanAnswer(run, answer, !(!response.isJson || response.length <= RECORDED_JSON_CHARS));
    // Kept for the rescan at the test's end only up to RECORDED_JSON_CHARS (issue 29): a target padding every answer
    // would otherwise hold megabytes per answer of each test in flight (8 tests a worker) until the test ends.
    // An answer without a JSON body is kept for its headers alone (issue 27, round wb27), whatever its length.
    if (!response.isJson) answers.push(answer);
    else if (response.length <= RECORDED_JSON_CHARS) answers.push(answer);
    else {
      // Round wb28 (fix-wb28a): a large answer is kept too, its strings within the test's LARGE_RESCAN_CHARS (keptForRescan).
      const kept = keptForRescan(answer.body, LARGE_RESCAN_CHARS - largeKept.chars);
      largeKept.chars += kept.chars;
      answers.push({ ...answer, body: kept.value });
      if (!kept.complete && !run.notes.some((note) => note.startsWith(LARGE_ANSWER_NOTE))) run.notes.push(`${LARGE_ANSWER_NOTE} (${answer.line}: ${response.length} characters, over ${RECORDED_JSON_CHARS}) was scanned for credentials when it came, and again at the end of the test with the secrets learnt since only in part: the test's large answers hold more than the ${LARGE_RESCAN_CHARS} characters the rescan keeps`);
    }
    return response;
  };
  const context: CheckContext = {
    target: info,
    get signal() {
      return phase.signal;
    },
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    delete: (path, options) => request('DELETE', path, options),
    async state(name, params = {}, options = {}) {
      const outcome = await states.get(name, params, { ...options, holder, onRateLimited: () => (run.rateLimited = (run.rateLimited ?? 0) + 1) });
      if (!outcome.provided) context.skip(outcome.reason);
      return (outcome as { data: StateData[typeof name] }).data;
    },
    advise(message) {
      run.advisories.push(message);
    },
    note(message) {
      run.notes.push(message);
    },
    skip(reason): never {
      ctx.skip(reason);
      throw new Error('unreachable: skip did not stop the test');
    },
    notVerified(reason) {
      (run.notVerified ??= []).push(reason);
    },
    expectStatus(response, expected) {
      run.observedStatus.push(response.status);
      checked(response);
      const allowed = Array.isArray(expected) ? expected : [expected];
      const incomplete = incompleteLists.get(response);
      if (incomplete !== undefined && allowed.includes(response.status)) ctx.skip(`not verified: ${incomplete}`);
      expect(allowed, statusMessage(allowed, response.status, snippet(response))).toContain(response.status);
    },
    expectSchema(response, schema) {
      checked(response);
      const body = response.json;
      // Section 1.2: responses are JSON, and in HTTP the Content-Type is what a representation is, so an
      // answer labelled as anything but application/json (or a +json type, any parameters) is not one.
      const type = response.headers['content-type'] ?? '';
      expect(JSON_MEDIA_TYPE.test(type), `section 1.2: responses are JSON, but the ${response.status} answer's Content-Type is ${type ? JSON.stringify(type) : 'missing'}, not application/json (or +json)`).toBe(true);
      const problems = schemaProblems(schema, body);
      if (problems.length > 0) {
        const shown = problems.map((problem) => ({ ...problem, value: redactJson(problem.value) }));
        run.schemaProblems.push({ schema, problems: shown });
        expect.fail(formatProblems(schema, shown));
      }
      // Section 2.7 in every read of a bonus's order: each asset summary is the asset its symbol names (round wb19).
      if (schema === 'bonus-response' || schema === 'bonus-list-response') {
        const mismatched = orderSymbolProblems(body);
        if (mismatched.length > 0) expect.fail(`section 2.7: an order's fromAsset is the summary of the asset fromSymbol names, and its toAsset of the one toSymbol names (letter case aside); ${mismatched.join('; ')}`);
      }
      return body;
    },
    cleanup(step) {
      cleanups.push(step);
    },
  };
  return context;
}

function failOnSecurity(run: RunRecord): void {
  if (run.security.length > 0) expect.fail(`security: ${run.security.length} credential(s) in answers: ${run.security.join('; ')}`);
}

/** Declares a test of one endpoint with its metadata; the body receives the check context. */
function defineCheck(endpointId: string, name: string, meta: CheckMeta, body: (t: CheckContext, test: TestContext) => Promise<void>): void {
  validateMeta(endpointId, name, meta);
  const group = endpointById.get(endpointId)!.group;
  const rules = [...new Set([...effectiveRules(meta.rules, meta.constraint), ...(meta.instances ?? []).map((id) => instanceById.get(id)!.rule)])];
  const conformance: ConformanceMeta = { ...meta, rules, endpoint: endpointId, group };
  // The name reports carry (and test ids derive from): the describe's title, then the test's.
  const fullName = describing ? `${describing} ${name}` : name;
  const phase = inject('phase');
  const inOtherPhase = phase !== undefined && phase !== (meta.runsLast ? 'last' : 'main');
  const selected = selects(inject('selection'), { name: fullName, endpoint: endpointId, clauses: meta.clauses, rules: conformance.rules });
  if (inOtherPhase || !selected) {
    // A selected test the main phase leaves to the last one: an interrupt before the last phase collects it still reports it as not run.
    const later = inOtherPhase && selected && phase === 'main' ? { later: true as const } : {};
    test.concurrent.skip(name, { meta: { conformance, unselected: true, ...later } }, () => {});
    return;
  }
  const listed = inject('listing') ? { source: body.toString() } : {};
  test.concurrent(name, { meta: { conformance, ...listed } }, async (ctx) => {
    const run: RunRecord = { exchanges: [], advisories: [], observedStatus: [], schemaProblems: [], security: [], notes: [] };
    ctx.task.meta.run = run;
    const cleanups: (() => Promise<unknown>)[] = [];
    const holder = { id: `${ctx.task.id}:${Math.random().toString(36).slice(2)}` };
    const answers: ScannedAnswer[] = [];
    const secretsAtStart = registeredSecretCount();
    // Interrupted, the test sends no new request and its waits end at once; a request in flight may finish
    // (a create the target has made is then known, and deleted) and the clean-up runs, both within
    // CLEANUP_AFTER_INTERRUPT_MS of the interrupt.
    const cancelled = AbortSignal.any([ctx.signal, runInterruptedSignal()]);
    const deadline = new AbortController();
    const startDeadline = () => setTimeout(() => deadline.abort(new Error(`cut short: an interrupted test's requests in flight and clean-up are bounded to ${CLEANUP_AFTER_INTERRUPT_MS / 1000} s`)), CLEANUP_AFTER_INTERRUPT_MS).unref();
    if (cancelled.aborted) startDeadline();
    else cancelled.addEventListener('abort', startDeadline, { once: true });
    const phase = { signal: cancelled, inFlight: deadline.signal };
    if (cancelled.aborted) ctx.skip('aborted by the user: the run was interrupted before this test began');
    const t = createContext(ctx, run, cleanups, holder, answers, phase);
    const focus = t.target.focusClauses;
    if (focus !== undefined && !meta.clauses.some((clause) => focus.includes(clause))) ctx.skip(`cites none of the clauses ${focus.join(', ')}`);
    const narrowed = notHinted(t.target, () => testId(fullName)) ?? narrowedOut(narrowingOf(t.target), conformance.rules);
    if (narrowed) ctx.skip(narrowed);
    const rateLimited = `not verified: rate limited, the target still answered 429 or 503 with Retry-After after ${RETRY_ATTEMPTS} retries; lower --rate or raise the target's limit`;
    // Sections 5.5 and 8 give neither the threshold of the brute-force restriction nor whose failures count: a login
    // answered 425 in a test that does not expect 425 is the restriction of other tests' failed logins (per client
    // address, per platform ...). It passed or failed on the restriction, not on what it checks: not verified.
    const provokesRestriction = (Array.isArray(meta.status) ? meta.status : [meta.status]).includes(425);
    const restrictedUnprovoked = () => !provokesRestriction && run.exchanges.some(isRestrictedLogin);
    // Before a skip in the catch below: a credential in an answer is a failure whatever else ended the test.
    const failOnSecurityRedacted = () => {
      try {
        failOnSecurity(run);
      } catch (failure) {
        throw redactError(failure);
      }
    };
    try {
      await body(t, ctx);
      rescanAnswers(run, answers);
      failOnSecurity(run);
      // A test that passed on a rate limiter's answer checked the road, not the target: not verified either.
      if (run.stillRateLimited) ctx.skip(rateLimited);
      if (restrictedUnprovoked()) ctx.skip(RESTRICTED_REASON);
      // A pass over a list that could not be read whole judged part of it.
      if (run.incompleteList !== undefined) ctx.skip(`not verified: ${run.incompleteList}`);
      // Parts the test recorded as not verifiable: it ran to its end without a failure, which is still no pass.
      if (run.notVerified !== undefined) ctx.skip(run.notVerified.join('; '));
      if (t.target.strict && run.advisories.length > 0) expect.fail(`strict mode: ${run.advisories.length} advisory finding(s): ${run.advisories.join('; ')}`);
    } catch (error) {
      // Also when the test failed or skipped: the report lists every credential its answers carried.
      rescanAnswers(run, answers);
      // Interrupted (Ctrl-C, SIGTERM): not a failure of the target; the run reports the test as not run.
      if (runCancelled(cancelled)) ctx.skip('aborted by the user: the run was interrupted while this test ran');
      // A credential in an answer is a failure even when the test then skipped (say, a state it needed next was missing).
      if ((error as { code?: unknown } | undefined)?.code === 'VITEST_PENDING') {
        failOnSecurityRedacted();
      }
      // A rate limiter's answer is about the road, not the target's conformance: not verified.
      if (run.stillRateLimited) ctx.skip(rateLimited);
      if (restrictedUnprovoked()) {
        failOnSecurityRedacted();
        ctx.skip(RESTRICTED_REASON);
      }
      // A failure over a list that could not be read whole may be of the part not read: not verified, unless it is a
      // status assertion's (a 200 list where the test expects another status fails as it would unpaged).
      if (run.incompleteList !== undefined && (error as { code?: unknown } | undefined)?.code !== 'VITEST_PENDING' && !STATUS_ASSERTION.test(String((error as Error | undefined)?.message ?? ''))) {
        failOnSecurityRedacted();
        ctx.skip(`not verified: ${run.incompleteList}`);
      }
      // An answer stopped by a limit of the suite's own (the specification sets no size): not verified, with the fix.
      // A 5xx is a failure whatever its body: the status alone says so (a target cannot hide it behind a large body).
      if (error instanceof SuiteLimitError && error.status < 500) {
        failOnSecurityRedacted();
        ctx.skip(`not verified: ${redactError(error).message.split('\n')[0]}; ${error.fix}`);
      }
      throw redactError(error);
    } finally {
      run.bodyExchanges = run.exchanges.length;
      // The clean-up runs even when the test was interrupted, bounded from the moment of the interrupt.
      phase.signal = deadline.signal;
      for (const step of cleanups.reverse()) {
        const before = run.exchanges.length;
        try {
          if (phase.signal.aborted) throw new Error(`not attempted: the clean-up of an interrupted test is bounded to ${CLEANUP_AFTER_INTERRUPT_MS / 1000} s`);
          await step();
        } catch (error) {
          const attempted = run.exchanges.slice(before).filter((e) => e.request.method === 'DELETE' || e.request.url.includes('/logout'));
          const what = attempted.length > 0 ? attempted.map((e) => `${e.request.method} ${e.request.url}`).join(', ') : 'a clean-up step (it never sent its request)';
          (run.leftBehind ??= []).push(`${what}: ${redactError(error as Error).message.split('\n')[0]}`);
          run.advisories.push(`clean-up failed: ${redactError(error as Error).message}`);
        }
      }
      await releaseLeases(currentTarget().states, { post: t.post, warn: (message) => (run.suiteWarnings ??= []).push(message), signal: phase.signal }, holder, run.exchanges);
      redactLateSecrets(run, secretsAtStart);
    }
  });
}

export interface EndpointChecks {
  id: string;
  /** Groups this endpoint's tests under its "METHOD /path" title. */
  describe(body: () => void): void;
  /** `test` is vitest's context of the running test, for machinery such as `conformance explore` that records more than requests. */
  check(name: string, meta: CheckMeta, body: (t: CheckContext, test: TestContext) => Promise<void>): void;
}

/** The title of the `describe` whose body is being collected (its tests' names begin with it). */
let describing: string | undefined;

/** The tests of one endpoint: `endpoint('POST /api/v1/authenticate').check('answers 200 ...', meta, body)`. */
export function endpoint(id: string): EndpointChecks {
  if (!endpointById.has(id)) throw new Error(`unknown endpoint "${id}" (not in helpers/spec/catalogue.ts)`);
  return {
    id,
    describe: (body) =>
      describe(id, () => {
        const outer = describing;
        describing = id;
        try {
          body();
        } finally {
          describing = outer;
        }
      }),
    check: (name, meta, body) => defineCheck(id, name, meta, body),
  };
}
