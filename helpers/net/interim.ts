import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { buildConnector, Client, Pool, type Dispatcher } from 'undici';

/**
 * Interim answers (1xx other than 101) read through, as RFC 9110 15.2 asks of every client: "A client MUST be able to
 * parse one or more 1xx responses received prior to a final response, even if the client does not expect one." A
 * server sends them unasked: an interim `100 Continue` before every answer to a request with a body (Apache, IIS,
 * Kong and proxies that forward the origin's interim answers), `102 Processing`, `103 Early Hints`.
 *
 * undici 7, the suite's HTTP client, reads 102 and 103 but destroys the connection on a 100 it did not ask for
 * (lib/dispatcher/client-h1.js, onHeadersComplete: `if (statusCode === 100) util.destroy(socket, new
 * SocketError('bad response'))`; no option turns this off, and an interceptor sees the answer only after the parser).
 * So this layer sits between the socket and undici's parser: at the start of an answer (the first bytes read after a
 * request line is written) it drops every complete interim answer (status line `HTTP/1.x 1xx`, header fields, empty
 * line; no body, RFC 9112 6.3) and hands undici the final answer alone. 101 Switching Protocols is left to undici
 * (it answers an upgrade, and ends HTTP/1.1 on the connection).
 *
 * It relies on one request at a time on a connection (undici's default, `pipelining: 1`, which the suite keeps): then
 * a request line is written only once the previous answer has been read, and the bytes that follow start its answer.
 * An answer that does not start with an interim status line passes untouched, byte for byte; so does an interim
 * answer whose header section exceeds MAX_INTERIM_BYTES (undici then judges it as before).
 */

/**
 * The largest interim answer dropped: undici's own bound on a header section (its default maxHeaderSize is Node's
 * http.maxHeaderSize: 16 KiB, or what --max-http-header-size sets). A larger one goes to undici as it is, which refuses
 * it as it would refuse a final answer so large ("Headers Overflow").
 */
export const MAX_INTERIM_BYTES = Number.isInteger(maxHeaderSize) && maxHeaderSize > 0 ? maxHeaderSize : 16 * 1024;

const EMPTY = Buffer.alloc(0);
const HTTP1 = Buffer.from('HTTP/1.', 'latin1');
const END_OF_HEADER = Buffer.from('\r\n\r\n', 'latin1');
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^\s]+ HTTP\/1\.[01]\r\n/;
const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/**
 * How the bytes at the start of an answer begin: `n > 0` a complete interim answer of n bytes to drop, `0` no interim
 * answer (a final one, a 101, anything else, or an interim answer too large), `-1` not yet known (more bytes needed).
 */
export function interimLength(bytes: Buffer): number {
  const known = Math.min(bytes.length, HTTP1.length);
  if (!bytes.subarray(0, known).equals(HTTP1.subarray(0, known))) return 0;
  // "HTTP/1.x SP 1 d d": the status code, then SP or CR.
  if (bytes.length > 7 && !isDigit(bytes[7])) return 0;
  if (bytes.length > 8 && bytes[8] !== 0x20) return 0;
  if (bytes.length > 9 && bytes[9] !== 0x31) return 0;
  if (bytes.length > 10 && !isDigit(bytes[10])) return 0;
  if (bytes.length > 11 && !isDigit(bytes[11])) return 0;
  if (bytes.length > 12 && bytes[12] !== 0x20 && bytes[12] !== 0x0d) return 0;
  if (bytes.length < 13) return -1;
  if (bytes[10] === 0x30 && bytes[11] === 0x31) return 0; // 101 Switching Protocols: undici's.
  const end = bytes.indexOf(END_OF_HEADER);
  // A line ended by a bare LF: undici's parser refuses it (llhttp, strict), so it is undici's to refuse at once. Read
  // through here, its header section would run on to the first CRLF CRLF, the final answer's, and take that head with
  // it (or wait for one until the request's time is out).
  if (bareLineFeed(bytes, end >= 0 ? end : bytes.length)) return 0;
  if (end >= 0 && end + END_OF_HEADER.length <= MAX_INTERIM_BYTES) return end + END_OF_HEADER.length;
  return bytes.length >= MAX_INTERIM_BYTES ? 0 : -1;
}

/** Whether a LF not preceded by CR comes before `end`. */
function bareLineFeed(bytes: Buffer, end: number): boolean {
  for (let at = bytes.indexOf(0x0a); at >= 0 && at < end; at = bytes.indexOf(0x0a, at + 1)) if (at === 0 || bytes[at - 1] !== 0x0d) return true;
  return false;
}

/**
 * Whether a write starts a request: a string whose first line is a request line. undici writes a request's head as a
 * string (latin1) and the body's bytes as buffers, so a body that itself begins with a request line (an uploaded text)
 * never marks the start of an answer, which would read the answer's own bytes as interim answers.
 */
function startsRequest(chunk: unknown): boolean {
  if (typeof chunk !== 'string') return false;
  const end = chunk.indexOf('\r\n');
  return end >= 0 && REQUEST_LINE.test(chunk.slice(0, end + 2));
}

const layered = new WeakSet<object>();

/**
 * Issue 27, white-box round wb28 (fix-wb28a): an interim answer read through, kept for the security scan (a 103 Early
 * Hints whose Link holds a reset link is an answer the client reads: RFC 9110 15.2, RFC 8297). Its status and header
 * fields (names in lower case, a repeated field's values joined with ", ", as undici joins a final answer's).
 */
export interface InterimAnswer {
  status: number;
  headers: Record<string, string>;
}

/**
 * At most this many interim answers are kept for one request (an endless stream of 102 is still read through, its
 * first ones kept); each is at most MAX_INTERIM_BYTES, as a final answer's header section is at most undici's bound.
 */
export const MAX_KEPT_INTERIM = 4;

/** The interim answers read through at the start of the answer now read on each socket (reset when a request goes out). */
const interimOf = new WeakMap<Duplex, InterimAnswer[]>();

/** The socket whose bytes undici's parser reads now: its parser runs them at once after `read` answers (client-h1 readMore). */
let reading: Duplex | undefined;

/** An interim answer's bytes (status line, fields, empty line) as its status and fields. */
export function parseInterim(bytes: Buffer): InterimAnswer {
  const lines = bytes.toString('latin1').split('\r\n');
  const status = Number(lines[0]!.slice(9, 12));
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status, headers };
}

/**
 * The interim answers read through before the final answer whose head undici's parser is reading now, taken once: called
 * from a handler's onResponseStart (interimRecorder), which undici calls while it parses the bytes `read` just answered,
 * before any other socket is read.
 */
export function takeInterimAnswers(): InterimAnswer[] {
  const socket = reading;
  if (socket === undefined) return [];
  const kept = interimOf.get(socket) ?? [];
  interimOf.set(socket, []);
  return kept;
}

/** The `opaque` of a request whose interim answers are wanted: interimRecorder fills `interim` when the final answer starts. */
export interface InterimBox {
  interim: InterimAnswer[];
}

const isBox = (value: unknown): value is InterimBox => typeof value === 'object' && value !== null && Array.isArray((value as InterimBox).interim);

/**
 * A dispatcher interceptor (Dispatcher.compose) that hands each request whose `opaque` is an InterimBox the interim
 * answers read through before its final answer. Every other event passes as it is.
 */
export const interimRecorder: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
  const opaque = (opts as { opaque?: unknown }).opaque;
  const box = isBox(opaque) ? opaque : undefined;
  if (box === undefined) return dispatch(opts, handler);
  const wrapped: Dispatcher.DispatchHandler = {
    onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
    onRequestUpgrade: (controller, statusCode, headers, socket) => handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
    onResponseStart: (controller, statusCode, headers, statusMessage) => {
      if (statusCode >= 200) box.interim.push(...takeInterimAnswers());
      return handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
    },
    onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
    onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
    onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
  };
  return dispatch(opts, wrapped);
};

/**
 * Lays the reading-through on a connected socket: its own `write` marks the start of an answer when a request line
 * goes out, its own `read` (what undici's parser calls) drops the interim answers there. Once per socket.
 */
export function readThroughInterim(socket: Duplex): Duplex {
  if (layered.has(socket)) return socket;
  layered.add(socket);
  const read = socket.read;
  const write = socket.write;
  let atStart = false;
  let held: Buffer = EMPTY;
  socket.write = function (this: Duplex, chunk: unknown, ...rest: unknown[]) {
    if (startsRequest(chunk)) {
      atStart = true;
      interimOf.set(this, []);
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Duplex['write'];
  socket.read = function (this: Duplex, size?: number) {
    // read(0) is the stream's own nudge (refill the buffer), never a consumer's: it must not take bytes.
    if (size === 0) return read.call(this, size);
    reading = this;
    if (!atStart && held.length === 0) return read.call(this, size);
    while (atStart) {
      const interim = interimLength(held);
      if (interim > 0) {
        const kept = interimOf.get(this) ?? [];
        if (kept.length < MAX_KEPT_INTERIM) kept.push(parseInterim(held.subarray(0, interim)));
        interimOf.set(this, kept);
        held = held.subarray(interim);
      } else if (interim === 0) atStart = false;
      else {
        const chunk = read.call(this) as Buffer | string | null;
        if (chunk === null) return null;
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
        held = held.length > 0 ? Buffer.concat([held, bytes]) : bytes;
      }
    }
    if (held.length === 0) return read.call(this, size);
    const out = held;
    held = EMPTY;
    return out;
  };
  return socket;
}

type Connector = (options: buildConnector.Options, callback: buildConnector.Callback) => void;

/** A connector whose sockets read through interim answers. */
export function interimTolerantConnector(connect: Connector): Connector {
  return (options, callback) =>
    connect(options, (...args: Parameters<buildConnector.Callback>) => {
      const [error, socket] = args;
      if (!error && socket) readThroughInterim(socket);
      (callback as (...values: unknown[]) => void)(...args);
    });
}

/**
 * The `factory` of an undici Agent (and of the Agent inside a ProxyAgent, whose connector opens the tunnel): the
 * default one (a Client for one connection, a Pool otherwise), its connector made interim-tolerant.
 */
export function interimTolerantFactory(origin: string | URL, options: object): Dispatcher {
  const given = (options as { connect?: Connector | buildConnector.BuildOptions }).connect;
  const connect = interimTolerantConnector(typeof given === 'function' ? given : (buildConnector({ ...(given ?? {}) } as buildConnector.BuildOptions) as Connector));
  const withConnect = { ...options, connect };
  return (options as { connections?: number }).connections === 1 ? new Client(origin, withConnect) : new Pool(origin, withConnect);
}
