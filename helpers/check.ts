import { describe, expect, test, type TestContext } from 'vitest';
import { CLAUSES, constraintById, endpointById, type Group } from './catalogue.js';
import type { ApiResponse, Exchange, RequestSpec } from './http.js';
import { RETRY_ATTEMPTS } from './rate.js';
import { redactError, redactJson } from './redact.js';
import { formatProblems, schemaProblems, type SchemaProblem } from './schemas.js';
import type { StateData, StateName } from './states.js';
import { currentTarget, type TargetInfo } from './target.js';

/** What a test checks, declared once and read by reports and coverage. */
export interface CheckMeta {
  /** Specification sections the test checks, for example ["4.2", "8"]. */
  clauses: string[];
  /** The status the test expects; a list where the specification allows several; null for a multi-step flow. */
  status: number | number[] | null;
  /** The field constraint (catalogue id) the test checks, for boundary tests. */
  constraint?: string;
}

export interface ConformanceMeta extends CheckMeta {
  endpoint: string;
  group: Group;
}

/** What happened while the test ran: all of it already redacted. */
export interface RunRecord {
  exchanges: Exchange[];
  advisories: string[];
  observedStatus: number[];
  schemaProblems: { schema: string; problems: SchemaProblem[] }[];
  /** Answers 429 or 503 with Retry-After that were retried; and those still rate-limited after every retry. */
  rateLimited?: number;
  stillRateLimited?: number;
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: ConformanceMeta;
    run?: RunRecord;
  }
}

type Method = RequestSpec['method'];
type SendOptions = Omit<RequestSpec, 'method' | 'path'>;

export interface CheckContext {
  target: TargetInfo;
  request(method: Method, path: string, options?: SendOptions): Promise<ApiResponse>;
  get(path: string, options?: SendOptions): Promise<ApiResponse>;
  post(path: string, options?: SendOptions): Promise<ApiResponse>;
  delete(path: string, options?: SendOptions): Promise<ApiResponse>;
  /** Arranges a provider state; when the target does not provide it, the test is skipped with the reason. */
  state<N extends StateName>(name: N, params?: Record<string, unknown>, options?: { mutates?: boolean }): Promise<StateData[N]>;
  /** Records something the specification leaves open: reported as an advisory, a failure only in strict mode. */
  advise(message: string): void;
  /** Skips the test with a reason (a skip is never a pass). */
  skip(reason: string): never;
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
  if (!endpoint) throw new Error(`${where}: unknown endpoint "${endpointId}" (not in helpers/catalogue.ts)`);
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
}

function snippet(response: ApiResponse): string {
  return response.isJson ? JSON.stringify(response.json).slice(0, 300) : JSON.stringify(response.text.slice(0, 200));
}

function createContext(ctx: TestContext, run: RunRecord, cleanups: (() => Promise<unknown>)[]): CheckContext {
  const { info, http, states } = currentTarget();
  const request = (method: Method, path: string, options: SendOptions = {}) =>
    http.send({ method, path, ...options }, (exchange) => {
      run.exchanges.push(exchange);
      if (exchange.rateLimited) {
        run.rateLimited = (run.rateLimited ?? 0) + exchange.rateLimited;
        if (exchange.rateLimited > RETRY_ATTEMPTS) run.stillRateLimited = (run.stillRateLimited ?? 0) + 1;
      }
    });
  const context: CheckContext = {
    target: info,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    delete: (path, options) => request('DELETE', path, options),
    async state(name, params = {}, options = {}) {
      const outcome = await states.get(name, params, options);
      if (!outcome.provided) context.skip(outcome.reason);
      return (outcome as { data: StateData[typeof name] }).data;
    },
    advise(message) {
      run.advisories.push(message);
    },
    skip(reason): never {
      ctx.skip(reason);
      throw new Error('unreachable: skip did not stop the test');
    },
    expectStatus(response, expected) {
      run.observedStatus.push(response.status);
      const allowed = Array.isArray(expected) ? expected : [expected];
      expect(allowed, `expected status ${allowed.join(' or ')}, got ${response.status}; body: ${snippet(response)}`).toContain(response.status);
    },
    expectSchema(response, schema) {
      const body = response.json;
      // Section 1.2 says responses are JSON but names no response header: a different one is only noted.
      const type = response.headers['content-type'] ?? '';
      if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) run.advisories.push(`the ${response.status} answer is JSON but its Content-Type is ${type ? JSON.stringify(type) : 'missing'}, not application/json`);
      const problems = schemaProblems(schema, body);
      if (problems.length > 0) {
        const shown = problems.map((problem) => ({ ...problem, value: redactJson(problem.value) }));
        run.schemaProblems.push({ schema, problems: shown });
        expect.fail(formatProblems(schema, shown));
      }
      return body;
    },
    cleanup(step) {
      cleanups.push(step);
    },
  };
  return context;
}

/** Declares a test of one endpoint with its metadata; the body receives the check context. */
function defineCheck(endpointId: string, name: string, meta: CheckMeta, body: (t: CheckContext) => Promise<void>): void {
  validateMeta(endpointId, name, meta);
  const group = endpointById.get(endpointId)!.group;
  const conformance: ConformanceMeta = { ...meta, endpoint: endpointId, group };
  test.concurrent(name, { meta: { conformance } }, async (ctx) => {
    const run: RunRecord = { exchanges: [], advisories: [], observedStatus: [], schemaProblems: [] };
    ctx.task.meta.run = run;
    const cleanups: (() => Promise<unknown>)[] = [];
    const t = createContext(ctx, run, cleanups);
    if (t.target.focusClause !== undefined && !meta.clauses.includes(t.target.focusClause)) ctx.skip(`does not cite clause ${t.target.focusClause}`);
    try {
      await body(t);
      if (t.target.strict && run.advisories.length > 0) expect.fail(`strict mode: ${run.advisories.length} advisory finding(s): ${run.advisories.join('; ')}`);
    } catch (error) {
      // A rate limiter's answer is about the road, not the target's conformance: not verified.
      if (run.stillRateLimited) ctx.skip(`not verified: rate limited, the target still answered 429 or 503 with Retry-After after ${RETRY_ATTEMPTS} retries; lower --rate or raise the target's limit`);
      throw redactError(error);
    } finally {
      for (const step of cleanups.reverse()) {
        try {
          await step();
        } catch (error) {
          run.advisories.push(`clean-up failed: ${redactError(error as Error).message}`);
        }
      }
    }
  });
}

export interface EndpointChecks {
  id: string;
  /** Groups this endpoint's tests under its "METHOD /path" title. */
  describe(body: () => void): void;
  check(name: string, meta: CheckMeta, body: (t: CheckContext) => Promise<void>): void;
}

/** The tests of one endpoint: `endpoint('POST /api/v1/authenticate').check('answers 200 ...', meta, body)`. */
export function endpoint(id: string): EndpointChecks {
  if (!endpointById.has(id)) throw new Error(`unknown endpoint "${id}" (not in helpers/catalogue.ts)`);
  return {
    id,
    describe: (body) => describe(id, body),
    check: (name, meta, body) => defineCheck(id, name, meta, body),
  };
}
