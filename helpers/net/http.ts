import { createHash, type Hash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { pipeline, Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, gunzipSync, inflateSync } from 'node:zlib';
import type { Transform } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { request as undiciRequest, type Dispatcher } from 'undici';
import type { MultipartForm } from './multipart.js';
import { RateLimiter, withRetries } from './rate.js';
import { redactHeaders, redactJson, redactText, registerSecretHeader, withoutCredentials } from './redact.js';
import { learnIssuedCredentials, learnPasswordWithEmail, learnSecret } from './secrets.js';
import { isCredentialHeaderName, issuesCredentials } from '../spec/credential-names.js';
import { dispatcherFor, proxyFor, TLS_CODES } from './transport.js';
import { tooDeep } from '../spec/quote.js';
import { withUserAgent } from './user-agent.js';
import type { InterimAnswer, InterimBox } from './interim.js';

/** The largest JSON answer a report keeps whole (the interface's documents are a few kilobytes; a list of every record, a few hundred). */
export const RECORDED_JSON_CHARS = 256 * 1024;

/** Longer than any secret: what is redacted beyond the cut, so a secret across it is found whole. */
const REDACTION_MARGIN = 4096;

/** What a report keeps of a body that is not kept whole: its first characters. */
const EXCERPT_CHARS = 2000;

/** The start of a body, redacted before it is cut (a secret across the cut is never half-written), the rest never walked. */
function startOf(text: string, max: number, length = text.length, sha256?: string): string {
  if (length <= max) return redactText(text);
  return `${redactText(text.slice(0, max + REDACTION_MARGIN)).slice(0, max)}\u2026 (${length} characters${sha256 ? `, sha256 ${sha256}` : ''}; the report keeps the first ${max})`;
}

/**
 * Issue 29: the memory a target can take with large answers, bounded by construction. An answer over LARGE_ANSWER_BYTES
 * is read only with bytes of this worker's budget (LARGE_ANSWER_BUDGET), taken before its body is read and given back
 * once it is parsed and its text dropped (the ApiResponse keeps an excerpt, its length and its hash); one answer larger than
 * the whole budget is read alone. A holder gives its bytes back without waiting on anything (no deadlock): the budget is
 * held only while one answer is read and parsed. What is left of released answers, garbage V8 may collect late (external
 * buffers especially), is collected once LARGE_ANSWER_BUDGET bytes of them have been released since the last collection.
 */
export const LARGE_ANSWER_BYTES = RECORDED_JSON_CHARS;
export const LARGE_ANSWER_BUDGET = 4 * 1024 * 1024;

class ByteBudget {
  used = 0;
  /** Bytes of large answers released since the last collection. */
  released = 0;
  /** The highest `used` seen (the self-tests read it). */
  peak = 0;
  collections = 0;
  private readonly waiting: { bytes: number; go: () => void }[] = [];
  constructor(readonly capacity: number) {}

  async acquire(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.waiting.length === 0 && this.fits(bytes)) return this.take(bytes);
    // An 'abort' listener added to a signal already aborted never fires: the wait would last until the budget frees.
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const entry = { bytes, go: () => { signal?.removeEventListener('abort', onAbort); resolve(); } };
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal!.reason);
        this.wake();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  release(bytes: number): void {
    this.used -= bytes;
    this.released += bytes;
    if (this.released >= this.capacity) {
      this.released = 0;
      if (collectGarbage()) this.collections++;
    }
    this.wake();
  }

  private fits(bytes: number): boolean {
    return this.used === 0 || this.used + bytes <= this.capacity;
  }

  private take(bytes: number): void {
    this.used += bytes;
    this.peak = Math.max(this.peak, this.used);
  }

  /** In order: a large answer waiting first is not passed by smaller ones forever. */
  private wake(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.bytes)) {
      const next = this.waiting.shift()!;
      this.take(next.bytes);
      next.go();
    }
  }
}

let gcFunction: (() => void) | null | undefined;
/** A full collection of this isolate's heap; false where V8 does not offer one. */
function collectGarbage(): boolean {
  if (gcFunction === undefined) {
    try {
      // Node runs V8 with --no-freeze-flags-after-init; under --freeze-flags-after-init (a V8 flag an operator may pass)
      // setFlagsFromString is a fatal CHECK that aborts the process, which no catch stops: not tried then.
      const given = (globalThis as { gc?: unknown }).gc;
      if (typeof given === 'function') gcFunction = given as () => void;
      else if (process.execArgv.some((arg) => /^--freeze[-_]flags[-_]after[-_]init(=|$)/.test(arg)) && !process.execArgv.some((arg) => /^--no[-_]freeze[-_]flags[-_]after[-_]init/.test(arg))) gcFunction = null;
      else {
        setFlagsFromString('--expose-gc');
        gcFunction = runInNewContext('gc') as () => void;
      }
    } catch {
      gcFunction = null;
    }
  }
  gcFunction?.();
  return Boolean(gcFunction);
}

/** One budget per isolate: each test worker (a thread) has its own, so a run holds at most workers x LARGE_ANSWER_BUDGET. */
export const largeAnswers = new ByteBudget(LARGE_ANSWER_BUDGET);

/** One request/response pair as the report shows it: secrets already redacted, bodies cut short. */
export interface Exchange {
  /**
   * `variables` (since 1.4.0): the shell variable that stands for a redacted password of the JSON body, by its key, where it is
   * not `$PASSWORD`: a second password of the same test (a reset's new one, `$NEW_PASSWORD`) is told apart in its reproduction.
   */
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown; variables?: Record<string, string> };
  response?: { status: number; headers: Record<string, string>; body?: unknown; bodyText?: string };
  error?: string;
  durationMs: number;
  /** Answers 429 or 503 with Retry-After the request got and retried before this one; absent when none. */
  rateLimited?: number;
}

export interface HttpOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  maxConcurrency: number;
  /** PEM file of extra CA certificates (CA_FILE). */
  caFile?: string;
  /** Extra headers on every request (EXTRA_HEADERS); their values are secrets. */
  headers?: Record<string, string>;
  /** At most this many requests per second from this client (MAX_REQUESTS_PER_SECOND). */
  rate?: number;
  /** A limiter shared with the provider-state hook, so that `rate` caps everything the run sends (wins over `rate`). */
  limiter?: RateLimiter;
}

/** A failure of the target's transport rather than of a clause: unreachable, too slow, too large, not JSON. */
export class TransportError extends Error {
  override name = 'TransportError';
}

/**
 * An answer the suite did not read because of a limit of its own (MAX_RESPONSE_BYTES, the budget of large answers):
 * the specification sets no size, so the test it stopped is not verified, never a nonconformance (principles 1, 7).
 */
export class SuiteLimitError extends TransportError {
  override name = 'SuiteLimitError';
  /**
   * `status`: the status the target answered before the suite stopped reading (a 5xx fails whatever its body).
   * `fix`: what lets the suite judge it, as the reason of the test left not verified says.
   */
  constructor(
    message: string,
    readonly status: number,
    readonly fix = 'raise MAX_RESPONSE_BYTES (or REQUEST_TIMEOUT_MS) to judge it',
  ) {
    super(message);
  }
}

/** The trailer fields kept of one answer, and the characters kept of each value (a trailer section is a header section). */
export const MAX_TRAILER_FIELDS = 64;
export const MAX_TRAILER_CHARS = 16 * 1024;

/** undici's trailers of an answer (filled once its body was read), bounded: names in lower case, lists joined with ", ". */
export function boundedTrailers(trailers: Record<string, string | string[] | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(trailers ?? {}).slice(0, MAX_TRAILER_FIELDS)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = (Array.isArray(value) ? value.join(', ') : value).slice(0, MAX_TRAILER_CHARS);
  }
  return out;
}

export class ApiResponse {
  /** The body's length in characters (`text` may be only its start). */
  readonly length: number;
  /** False for an answer over LARGE_ANSWER_BYTES: `text` is then its first characters only (issue 29). */
  readonly whole: boolean;
  /** The SHA-256 of a large answer's bytes (hex), evidence of what was dropped. */
  readonly sha256: string | undefined;
  /**
   * Issue 27, round wb28 (fix-wb28a): the interim answers (1xx) read through before this one (helpers/net/interim.ts; at
   * most MAX_KEPT_INTERIM, each bounded as a header section is) and the trailer fields after a chunked body (at most
   * MAX_TRAILER_FIELDS, each value cut at MAX_TRAILER_CHARS): parts of the answer the client reads, scanned as headers.
   */
  interim: readonly InterimAnswer[] = [];
  trailers: Readonly<Record<string, string>> = {};
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly text: string,
    private readonly parsed: { ok: true; value: unknown } | { ok: false },
    large?: { length: number; sha256: string },
  ) {
    this.length = large?.length ?? text.length;
    this.whole = large === undefined;
    this.sha256 = large?.sha256;
  }

  get isJson(): boolean {
    return this.parsed.ok;
  }

  /** The parsed JSON body; a body that is not JSON fails the test naming the content type and first bytes. */
  get json(): any {
    if (!this.parsed.ok) {
      throw new TransportError(
        `expected a JSON body but the response (status ${this.status}, content-type ${this.headers['content-type'] ?? 'none'}) begins: ${JSON.stringify(redactText(this.text).slice(0, 120))}`,
      );
    }
    return this.parsed.value;
  }
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | string[] | undefined>;
  /** Bearer token for `Authorization: Bearer <token>`. */
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** Sent as-is (for malformed bodies). */
  rawBody?: string;
  form?: MultipartForm;
  /** Once aborted, no request is sent (a rate limiter's wait before it ends): an interrupted run sends nothing new. */
  signal?: AbortSignal;
  /** Aborts a request already sent (default: `signal`): an interrupted test's create in flight may still finish, so that it is cleaned up. */
  inFlight?: AbortSignal;
}

/**
 * A request's deadline: aborted with a TimeoutError after `ms` (as AbortSignal.timeout), or with `signal`'s reason when
 * that is aborted first (as AbortSignal.any). One controller and one timer, both let go by `dispose` once the answer is
 * read. AbortSignal.any over AbortSignal.timeout (weak references and finalizers for every signal) cost ≈48 µs of CPU a
 * request, this ≈20 µs (bench/peers.md).
 */
export function deadlineOf(ms: number, signal?: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  // As AbortSignal.timeout's: never what keeps the process alive.
  timer.unref();
  if (!signal) return { signal: controller.signal, dispose: () => clearTimeout(timer) };
  if (signal.aborted) {
    controller.abort(signal.reason);
    return { signal: controller.signal, dispose: () => clearTimeout(timer) };
  }
  const unfollow = follow(signal, controller);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      unfollow();
    },
  };
}

/** The deadlines in flight under each signal, all aborted by its one listener. */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

/**
 * Has `controller` aborted with `signal`'s reason. One 'abort' listener a signal, however many requests it bounds: a
 * listener per request would pass EventTarget's limit of 10 (a MaxListenersExceededWarning in the CI log) as soon as a
 * test sends more than 10 requests at once under --concurrency 11 or more. Returns what lets go of the controller.
 */
function follow(signal: AbortSignal, controller: AbortController): () => void {
  let live = followers.get(signal);
  if (!live) {
    const controllers = new Set<AbortController>();
    followers.set(signal, (live = controllers));
    signal.addEventListener(
      'abort',
      () => {
        for (const each of controllers) each.abort(signal.reason);
        controllers.clear();
      },
      { once: true },
    );
  }
  live.add(controller);
  const controllers = live;
  return () => controllers.delete(controller);
}

/** A tiny counting semaphore: the suite's load on a target stays bounded per worker. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * A query string, each key and value percent-encoded as RFC 3986 3.4 wants: a space is `%20`, never `+` (the HTML form
 * encoding of URLSearchParams, which Spring WebFlux and other RFC 3986 readers keep as a plus sign; round r14).
 */
export function buildQuery(query: RequestSpec['query']): string {
  if (!query) return '';
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    // A lone surrogate (a value taken from the target's own text may carry one) is sent as U+FFFD, as URLSearchParams
    // did, rather than thrown by encodeURIComponent (URIError; review-n).
    const encode = (text: string) => encodeURIComponent(String(text).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
    for (const item of Array.isArray(value) ? value : [value]) pairs.push(`${encode(key)}=${encode(item)}`);
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function describeFormBody(form: MultipartForm): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    out[name] = typeof value === 'string' ? value : `<file ${value.name}, ${value.size} bytes, ${value.type || 'no type'}>`;
  }
  return out;
}

/** A request body; a multipart form is encoded again for each attempt, as its files are read while it is sent. */
type Body = string | (() => Iterable<Uint8Array>) | undefined;

export class HttpClient {
  private readonly agent: Dispatcher;
  private readonly gate: Gate;
  private readonly limiter: RateLimiter | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly options: HttpOptions,
  ) {
    this.agent = dispatcherFor(baseUrl, { keepAliveTimeout: 10_000, connections: options.maxConcurrency, timeoutMs: options.timeoutMs, ...(options.caFile ? { caFile: options.caFile } : {}) });
    this.gate = new Gate(options.maxConcurrency);
    this.limiter = options.limiter ?? (options.rate ? new RateLimiter(options.rate) : undefined);
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      registerSecretHeader(name);
      learnSecret(value, isCredentialHeaderName(name) ? 'configured' : 'header-value');
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * Sends one request; `capture` receives the redacted exchange even when the request fails, and
   * `onRateLimited` hears of each rate limiter's answer at once (a test may time out while it waits).
   */
  async send(spec: RequestSpec, capture?: (exchange: Exchange) => void, onRateLimited?: () => void): Promise<ApiResponse> {
    const url = `${this.baseUrl}${spec.path}${buildQuery(spec.query)}`;
    const headers: Record<string, string> = withUserAgent({ accept: 'application/json', ...this.options.headers, ...spec.headers });
    if (spec.token !== undefined) headers.authorization = `Bearer ${spec.token}`;
    let body: Body;
    let shownBody: unknown;
    if (spec.json !== undefined) {
      // A learnt password sent with an e-mail (a login, a reset): its Basic credential is the password too (round wb25).
      if (spec.json && typeof spec.json === 'object' && !Array.isArray(spec.json)) learnPasswordWithEmail((spec.json as Record<string, unknown>).email, (spec.json as Record<string, unknown>).password);
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(spec.json);
      shownBody = redactJson(spec.json);
    } else if (spec.rawBody !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = spec.rawBody;
      shownBody = redactText(spec.rawBody);
    } else if (spec.form) {
      const form = spec.form;
      body = () => form.chunks();
      shownBody = redactJson(describeFormBody(form));
    } else {
      // Section 1.2: clients send Content-Type: application/json, also on requests without a body.
      headers['content-type'] ??= 'application/json';
    }
    // The URL too: a token a test sends as a query parameter (section 5.3's wrong places) is a secret there as well.
    const exchange: Exchange = { request: { method: spec.method, url: redactText(url), headers: redactHeaders(headers), ...(shownBody === undefined ? {} : { body: shownBody }) }, durationMs: 0 };
    // Set where undici set them for its FormData: not recorded, so that the curl command's -F makes its own.
    if (spec.form) Object.assign(headers, { 'content-type': spec.form.contentType, 'content-length': String(spec.form.length) });
    const started = performance.now();
    try {
      const response = await this.gate.run(() => this.performRetrying(url, spec.method, headers, body, exchange, onRateLimited, spec.signal, spec.inFlight ?? spec.signal));
      exchange.durationMs = Math.round(performance.now() - started);
      // The credentials a login or a reset issues, learnt with whose they are (helpers/net/secrets.ts), before any check reads the answer.
      if (response.isJson && response.status >= 200 && response.status < 300 && issuesCredentials(spec.method, spec.path)) learnIssuedCredentials(response.json);
      exchange.response = {
        status: response.status,
        headers: redactHeaders(response.headers),
        // A JSON answer is kept whole as evidence up to RECORDED_JSON_CHARS; a larger one as its start, like a body that is
        // not JSON (issue 29): every exchange stays in memory until the report is written, so a target padding each answer
        // to just under MAX_RESPONSE_BYTES would otherwise hold gigabytes of the runner's memory by the end of a run.
        ...(response.isJson && response.length <= RECORDED_JSON_CHARS
          ? { body: redactJson(response.json) }
          : { bodyText: startOf(response.text, EXCERPT_CHARS, response.length, response.sha256) }),
      };
      return response;
    } catch (error) {
      exchange.durationMs = Math.round(performance.now() - started);
      exchange.error = redactText(error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      capture?.(exchange);
    }
  }

  /**
   * A rate limiter's answer (429 or 503 with Retry-After) is retried after the wait it asks for:
   * a few attempts, each wait capped; every attempt keeps the request timeout.
   */
  private performRetrying(url: string, method: string, headers: Record<string, string>, body: Body, exchange: Exchange, onRateLimited?: () => void, signal?: AbortSignal, inFlight?: AbortSignal): Promise<ApiResponse> {
    return withRetries(
      async () => {
        signal?.throwIfAborted();
        await this.limiter?.take();
        signal?.throwIfAborted();
        return this.perform(url, method, headers, body, inFlight);
      },
      (response) => ({ status: response.status, retryAfter: response.headers['retry-after'] }),
      this.options.timeoutMs,
      () => {
        exchange.rateLimited = (exchange.rateLimited ?? 0) + 1;
        onRateLimited?.();
      },
      signal,
    );
  }

  private async perform(url: string, method: string, headers: Record<string, string>, body: Body | Buffer, signal?: AbortSignal): Promise<ApiResponse> {
    const limit = this.options.maxResponseBytes;
    // The request's deadline also bounds its wait for the budget of large answers: it never waits past REQUEST_TIMEOUT_MS.
    const { signal: deadline, dispose } = deadlineOf(this.options.timeoutMs, signal);
    try {
      return await this.performWithin(url, method, headers, body, limit, deadline, signal);
    } finally {
      dispose();
    }
  }

  private async performWithin(url: string, method: string, headers: Record<string, string>, body: Body | Buffer, limit: number, deadline: AbortSignal, signal?: AbortSignal): Promise<ApiResponse> {
    let response: Dispatcher.ResponseData<InterimBox>;
    const box: InterimBox = { interim: [] };
    try {
      response = await undiciRequest(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: typeof body === 'function' ? Readable.from(body()) : body,
        dispatcher: this.agent,
        signal: deadline,
        // The interim answers read through before the final one (interim.ts interimRecorder fills it).
        opaque: box,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // A server may answer a request before it has read the body (a 401 to an upload) and then close the connection
      // (HTTP/1.0, Connection: close): RFC 9112 lets it. A streamed body still being written then meets a closed socket
      // and the answer is lost. Sent again whole, with its length, the body is written before the server can close.
      if (typeof body === 'function' && isClosedWhileSending(error)) return this.perform(url, method, headers, Buffer.concat([...body()]), signal);
      throw new TransportError(describeTransportFailure(error, method, url, this.options.timeoutMs));
    }
    // A declared length over the limit is refused before a byte of the body is read.
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      response.body.destroy();
      throw new SuiteLimitError(`${method} ${url} answered ${response.statusCode} with a body of ${declared} bytes (Content-Length), over ${limit} bytes (MAX_RESPONSE_BYTES); the suite did not read it`, response.statusCode);
    }
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const tooLarge = () => new SuiteLimitError(`${method} ${url} answered ${response.statusCode} with a body larger than ${limit} bytes (MAX_RESPONSE_BYTES); the suite stopped reading it`, response.statusCode);
    try {
      const answer = await readWithin(decoded(response, `${method} ${url}`), limit, tooLarge, (bytes) => parseAnswer(bytes, response.statusCode, responseHeaders, `${method} ${url} answered ${response.statusCode}, but the answer`), deadline);
      answer.interim = box.interim;
      answer.trailers = boundedTrailers(response.trailers);
      return answer;
    } catch (error) {
      if (error instanceof TransportError) throw error;
      if (signal?.aborted) throw signal.reason;
      // Not the target's slowness: the suite's own budget was taken by other large answers (issue 29).
      if (error instanceof BudgetWaitTimeout) throw new SuiteLimitError(`${method} ${url} answered ${response.statusCode} with a large body (over ${LARGE_ANSWER_BYTES} bytes) that waited for this worker's budget for large answers (${LARGE_ANSWER_BUDGET} bytes, held by other large answers of the run) until REQUEST_TIMEOUT_MS (${this.options.timeoutMs} ms) ran out; the suite did not read it`, response.statusCode);
      throw new TransportError(describeTransportFailure(error, method, url, this.options.timeoutMs));
    }
  }
}

/**
 * The answer with its body decoded from its content codings (gzip, deflate, br; zstd where this Node.js decodes it;
 * several stacked, undone last first), the limit then counting decoded bytes. The suite sends no Accept-Encoding, and
 * RFC 9110 (12.5.3) lets a server answer a request without it in any coding: the answer is the same JSON either way.
 * A coding the suite cannot decode here is the road's choice, not a deviation: the test meeting it is not verified
 * (a SuiteLimitError naming the coding and the fix). A body that is not in the coding it names fails to read with an
 * error naming the coding. `what` starts the messages: "GET <url>".
 */
export function decoded(response: Dispatcher.ResponseData<unknown>, what = 'the request'): Dispatcher.ResponseData<unknown> {
  // No body to decode (204, 304, Content-Length: 0): a decoder would call the empty body a truncated one (Z_BUF_ERROR).
  if (response.statusCode === 204 || response.statusCode === 304 || String(response.headers['content-length']).trim() === '0') return response;
  const decoding = decodingOf(response.headers['content-encoding']);
  if ('undecodable' in decoding) {
    // Dropped unread; the abort this raises on the body is expected, not an uncaught error.
    response.body.on('error', () => {});
    response.body.destroy();
    throw new SuiteLimitError(
      `${what} answered ${response.statusCode} in the content coding ${decoding.undecodable}, which the suite cannot decode on Node.js ${process.version}`,
      response.statusCode,
      'have the gateway answer without that coding (the suite sends no Accept-Encoding), or run on a Node.js that decodes it (zstd: 22.15 or later) to judge it',
    );
  }
  if (decoding.decoders.length === 0) return response;
  // The pipeline destroys every other stream with the error of the decoder that failed: only that one names it.
  // An error of the body itself (the connection closed, the read aborted) is no fault of the coding: left as it is.
  const named = new WeakSet<Error>();
  response.body.once('error', (error: Error) => named.add(error));
  const streams = decoding.decoders.map(({ coding, decoder }) => {
    const stream = decoder.stream();
    // zlib's own words ("incorrect header check") do not say which coding the body failed to be.
    stream.once('error', (error: Error) => {
      if (named.has(error)) return;
      named.add(error);
      error.message = `the body is not valid ${coding} as its Content-Encoding says (${error.message})`;
    });
    return stream;
  });
  const body = (pipeline as (...streams: unknown[]) => Transform)(response.body, ...streams, () => {});
  // Its Content-Length is the coded length: readWithin's budget for large answers must not hold that, but the decoded size.
  return { ...response, headers: { ...response.headers, 'content-length': undefined }, body: body as unknown as Dispatcher.ResponseData['body'] };
}

interface Decoder {
  stream: () => Transform;
  sync: (body: Buffer, options?: { maxOutputLength?: number }) => Buffer;
}

/** zstd, in the zlib of Node.js 22.15 and later (absent from Node.js 20's). */
const zstd = zlib as unknown as { createZstdDecompress?: () => Transform; zstdDecompressSync?: Decoder['sync'] };

/** The content codings the suite decodes, as a stream (the run's answers) and at once (a body already held: the proxy's). */
const DECODERS: Record<string, Decoder> = {
  gzip: { stream: createGunzip, sync: gunzipSync },
  'x-gzip': { stream: createGunzip, sync: gunzipSync },
  deflate: { stream: createInflate, sync: inflateSync },
  br: { stream: createBrotliDecompress, sync: brotliDecompressSync },
  ...(zstd.createZstdDecompress && zstd.zstdDecompressSync ? { zstd: { stream: zstd.createZstdDecompress, sync: zstd.zstdDecompressSync } } : {}),
};

/**
 * How to undo a Content-Encoding value (RFC 9110 8.4: codings listed in the order applied, `identity` none): the
 * decoders, the last applied first; or the first coding the suite cannot decode here, quoted for a message (the
 * value is the target's: at most 40 characters, escaped).
 */
export function decodingOf(contentEncoding: string | string[] | undefined): { decoders: { coding: string; decoder: Decoder }[] } | { undecodable: string } {
  const codings = (Array.isArray(contentEncoding) ? contentEncoding.join(',') : String(contentEncoding ?? ''))
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const decoders: { coding: string; decoder: Decoder }[] = [];
  for (const coding of codings.reverse()) {
    if (!Object.hasOwn(DECODERS, coding)) return { undecodable: JSON.stringify(coding.slice(0, 40)).replace(/[\u0080-\u009f]/g, '?') };
    decoders.push({ coding, decoder: DECODERS[coding]! });
  }
  return { decoders };
}

/** A body as read: its text; for an answer over LARGE_ANSWER_BYTES, also its size in bytes and its SHA-256. */
export interface ReadBody {
  text: string;
  bytes: number;
  sha256?: string;
}

/** A wait for the budget of large answers ended by the request's deadline (not by an interrupt, which throws its own reason). */
export class BudgetWaitTimeout extends Error {
  override name = 'BudgetWaitTimeout';
}

/** Takes budget bytes for one answer; a deadline passed while waiting is told apart from the target's slowness. */
async function takeBudget(bytes: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await largeAnswers.acquire(bytes, signal);
  } catch (error) {
    if ((error as { name?: string } | undefined)?.name === 'TimeoutError') throw new BudgetWaitTimeout('the wait for the budget of large answers outlasted the request timeout', { cause: error });
    throw error;
  }
}

/**
 * Reads a body of at most `limit` bytes and hands it to `finish` (which parses it and drops what it need not keep),
 * holding bytes of the worker's budget for large answers (`largeAnswers`) from before the body is read until `finish`
 * returns. The caller refuses a declared length over the limit first. A large body is decoded chunk by chunk into
 * JavaScript strings and hashed as it comes: no buffer of its size is made outside V8's heap, where freed memory may
 * stay with the process.
 */
export async function readWithin<T>(response: Dispatcher.ResponseData<unknown>, limit: number, tooLarge: () => Error, finish: (body: ReadBody) => T, signal?: AbortSignal): Promise<T> {
  const declared = Number(response.headers['content-length']);
  // Budget bytes held for this answer: its declared length, or the whole limit once an answer of no declared length
  // grows past LARGE_ANSWER_BYTES (its size is not known before it ends).
  let held = 0;
  try {
    if (Number.isInteger(declared) && declared > LARGE_ANSWER_BYTES && declared <= limit) {
      await takeBudget(declared, signal);
      held = declared;
    }
    let chunks: Buffer[] = [];
    const parts: string[] = [];
    let decoder: StringDecoder | undefined;
    let hash: Hash | undefined;
    let size = 0;
    for await (const chunk of response.body) {
      const piece = chunk as Buffer;
      if (size + piece.length > limit) {
        response.body.destroy();
        throw tooLarge();
      }
      size += piece.length;
      if (held === 0 && size > LARGE_ANSWER_BYTES) {
        await takeBudget(limit, signal);
        held = limit;
      }
      if (size > LARGE_ANSWER_BYTES && !decoder) {
        decoder = new StringDecoder('utf8');
        hash = createHash('sha256');
        for (const before of chunks) {
          hash.update(before);
          parts.push(decoder.write(before));
        }
        chunks = [];
      }
      if (decoder) {
        hash!.update(piece);
        parts.push(decoder.write(piece));
      } else chunks.push(piece);
    }
    if (!decoder) return finish({ text: Buffer.concat(chunks).toString('utf8'), bytes: size });
    parts.push(decoder.end());
    const text = parts.join('');
    parts.length = 0;
    return finish({ text, bytes: size, sha256: hash!.digest('hex') });
  } catch (error) {
    response.body.destroy();
    throw error;
  } finally {
    if (held > 0) largeAnswers.release(held);
  }
}

/** Parses an answer; a large one keeps its parsed value, its first characters, its length and its hash, not its text. */
function parseAnswer(body: ReadBody, status: number, headers: Record<string, string>, what: string): ApiResponse {
  const { text } = body;
  let parsed: { ok: true; value: unknown } | { ok: false } = { ok: false };
  // Checked without recursion before any walk: 100000 nested arrays would overflow every recursive one.
  const deep = tooDeep(text, what);
  if (deep) throw new TransportError(deep);
  if (text.length > 0) {
    try {
      parsed = { ok: true, value: JSON.parse(text) };
    } catch {
      parsed = { ok: false };
    }
  }
  if (body.sha256 === undefined) return new ApiResponse(status, headers, text, parsed);
  return new ApiResponse(status, headers, excerpt(text, EXCERPT_CHARS + REDACTION_MARGIN), parsed, { length: text.length, sha256: body.sha256 });
}

/** The first `max` characters as a string of their own: a slice would keep the whole text alive. */
export function excerpt(text: string, max: number): string {
  return text.length <= max ? text : Buffer.from(text.slice(0, max), 'utf8').toString('utf8');
}

/** The socket closed under a request still being written (EPIPE, ECONNRESET, undici's "other side closed"). */
function isClosedWhileSending(error: unknown): boolean {
  const err = error as { code?: string; cause?: { code?: string } };
  return ['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(err.code ?? err.cause?.code ?? '');
}

export function describeTransportFailure(error: unknown, method: string, rawUrl: string, timeoutMs: number): string {
  const url = withoutCredentials(rawUrl);
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  if (err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `${method} ${url} got no complete answer within ${timeoutMs} ms (REQUEST_TIMEOUT_MS)`;
  }
  const proxy = proxyFor(rawUrl);
  const via = proxy ? ` through the proxy ${withoutCredentials(proxy)}` : '';
  const tunnel = /Proxy response \((\d+)\)/.exec(err.message ?? '');
  if (tunnel) {
    return `${method} ${url}: the proxy ${proxy ? withoutCredentials(proxy) : ''} refused to connect to it (proxy answered ${tunnel[1]}${tunnel[1] === '407' ? ', it wants credentials: put them in the proxy URL' : ''}); check HTTPS_PROXY / HTTP_PROXY, or list the host in NO_PROXY`;
  }
  if (proxy && (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) {
    return `${method} ${url}: the proxy ${withoutCredentials(proxy)} cannot be reached (${code}); check HTTPS_PROXY / HTTP_PROXY, or list the host in NO_PROXY`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `${method} ${url}: the TLS certificate is not valid for this host name (${code})${via}; use the host name the certificate names in BASE_URL`;
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || (code === 'EPROTO' && /wrong version number/i.test(err.message ?? err.cause?.message ?? ''))) {
    return `${method} ${url}: no TLS at this port (${code})${via}: it answered plain HTTP or another protocol; use http:// or the TLS port`;
  }
  if (code && TLS_CODES.test(code)) {
    return `${method} ${url}: TLS failed (${code})${via}: the certificate is not trusted; pass --ca FILE (CA_FILE) with the PEM of the CA that signed it, or set NODE_EXTRA_CA_CERTS`;
  }
  if (code === 'ECONNREFUSED') return `${method} ${url} was refused (ECONNREFUSED): nothing listens there; check BASE_URL or start the target`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${method} ${url}: the host name does not resolve (${code}); check BASE_URL`;
  // Plain HTTP to a TLS port: the server closes the connection (or answers bytes that are no HTTP).
  const tlsPortHint = /^http:\/\//i.test(rawUrl) ? '; if that port serves TLS, use https://' : '';
  // undici closes the connection itself on an unasked 101 (the target did not): the cause named, not "closed by the target".
  if (code === 'UND_ERR_SOCKET' && err.message === 'bad upgrade') {
    return `${method} ${url}: the target answered 101 Switching Protocols to a request that asked no upgrade (${code}: RFC 9110 7.8 forbids it); the suite speaks HTTP/1.1: let the target, or the proxy in front of it, answer the request itself`;
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `${method} ${url}: the connection was closed by the target (${code})${tlsPortHint}`;
  if (code === 'HPE_INVALID_CONSTANT' || code === 'HPE_INVALID_HEADER_TOKEN' || code === 'UND_ERR_INFO' || /parse error|invalid (http )?response/i.test(err.cause?.message ?? err.message ?? '')) {
    return `${method} ${url}: the answer is not HTTP (${code ?? 'parse error'})${tlsPortHint}`;
  }
  return `${method} ${url} failed: ${code ? `${code} ` : ''}${err.cause?.message ?? err.message ?? String(error)}`;
}

