import { ENDPOINTS, type Endpoint } from '../helpers/spec/catalogue.js';
import { tooDeep } from '../helpers/spec/quote.js';
import { errorFormat } from '../helpers/spec/error-formats.js';
import { JSON_MEDIA_TYPE } from '../helpers/spec/media-type.js';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { issuesCredentials, isSecretKey, normalizedKey } from '../helpers/spec/credential-names.js';
import { credentialFindings } from '../helpers/check/security.js';
import { learnIssuedCredentials, learnSecret, type SecretKind } from '../helpers/net/secrets.js';
import { testId } from '../helpers/check/selection.js';
import { decodingOf, type Exchange } from '../helpers/net/http.js';
import { redactHeaders, redactJson, redactText, registerSecret } from '../helpers/net/redact.js';
import type { TestRecord } from '../reporting/model.js';

/**
 * `conformance proxy`'s judgement of one exchange that passed through it, with what the suite's
 * checks use: the JSON Schemas of schemas/, section 7's error formats, section 1.2's media types and
 * the credential search of the security findings. It sends nothing of its own, so it judges only the
 * answer: whether a status was deserved (a 422, a 404) is the request's story, which it cannot know.
 */

/** What passed through, as the proxy saw it (bodies held only up to MAX_RESPONSE_BYTES). */
export interface SeenExchange {
  seq: number;
  method: string;
  /** The path and query the client asked for, relative to the interface's root (`/api/v1/...`). */
  url: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  /** The request body when it fit in the limit; undefined when there was none or it was too large. */
  requestBody?: Buffer;
  requestTooLarge?: boolean;
  status?: number;
  responseHeaders?: Record<string, string | string[] | undefined>;
  responseBody?: Buffer;
  responseTooLarge?: boolean;
  /** The target could not be reached, or the exchange broke off. */
  error?: string;
  durationMs: number;
  maxBytes: number;
}

/** What the proxy says of every 422 instead of guessing. */
export const UNDESERVED_422 = 'a 422 is judged by its shape (section 7) only: whether the request deserved it (broke a rule of section 8) is not judged, since the proxy cannot know what the request was meant to test';

/** A documented endpoint whose template matches the method and path (`{user}` one segment, `{asset?}` optional). */
export function endpointFor(method: string, path: string): Endpoint | undefined {
  return ENDPOINTS.find((endpoint) => {
    const [endpointMethod, template] = endpoint.id.split(' ') as [string, string];
    if (endpointMethod !== method.toUpperCase()) return false;
    const pattern = template
      .split('/')
      .map((segment) => (segment === '{asset?}' ? '(?:/[^/]+)?' : segment.startsWith('{') ? '/[^/]+' : segment ? `/${segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}` : ''))
      .join('');
    return new RegExp(`^${pattern}/?$`).test(path);
  });
}

function header(headers: SeenExchange['responseHeaders'], name: string): string {
  const value = headers?.[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/**
 * The exchange with its answer's body decoded from its content codings (gzip, deflate, br, zstd where Node.js has it, stacked): a client that sent
 * Accept-Encoding gets the same JSON compressed, and the answer is judged as the JSON it carries. Decoded beyond
 * MAX_RESPONSE_BYTES, the answer is over the limit (not judged); a body its coding cannot decode is judged as it came.
 */
function withDecodedBody(seen: SeenExchange): SeenExchange {
  if (!seen.responseBody || seen.responseBody.length === 0) return seen;
  const decoding = decodingOf(header(seen.responseHeaders, 'content-encoding'));
  // A coding the proxy cannot decode (zstd on a Node.js without it, an unknown one): the JSON it carries is not seen, so the answer is not judged.
  if ('undecodable' in decoding) return { ...seen, error: `the answer is in the content coding ${decoding.undecodable}, which the proxy does not decode on Node.js ${process.version}` };
  try {
    let body = seen.responseBody;
    for (const { decoder } of decoding.decoders) body = decoder.sync(body, { maxOutputLength: seen.maxBytes });
    return { ...seen, responseBody: body };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) return { ...seen, responseBody: undefined, responseTooLarge: true };
    return seen;
  }
}

function parseJson(body: Buffer | undefined): { ok: true; value: unknown } | { ok: false; tooDeep?: string } {
  if (!body || body.length === 0) return { ok: false };
  const text = body.toString('utf8');
  // Checked without recursion before any walk (issue 29): 100000 nested arrays overflow every recursive one.
  const deep = tooDeep(text, 'the answer');
  if (deep) return { ok: false, tooDeep: deep };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Secrets the traffic carries are learnt with what they are (helpers/net/secrets.ts), so every report
 * redacts them and an answer that carries one where it must not is a security finding: the request's
 * credential headers (the caller's tokens), its credential fields (a password, the reset token sent to
 * reset-password), and the credentials an answer to a login or a reset issues. Answers the request's
 * own credentials, for the security scan.
 */
function learnSecretsOf(seen: SeenExchange, path: string, request: unknown, response: unknown, issues: boolean): string[] {
  const sent: string[] = [];
  for (const name of ['authorization', 'token']) {
    const value = header(seen.requestHeaders, name).replace(/^[A-Za-z][\w-]*\s+/, ''); // any scheme: `Basic <token>` is the caller's token too
    if (value) {
      learnSecret(value, 'token');
      sent.push(value);
    }
  }
  const resetting = /\/user\/reset-password\/?$/.test(path);
  const walk = (value: unknown, depth: number): void => {
    if (depth > 32) return;
    if (Array.isArray(value)) value.forEach((inner) => walk(inner, depth + 1));
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (isSecretKey(key) && typeof inner === 'string') {
          const kind = secretKindOf(key, resetting);
          // A 2FA code lives 30 seconds and is 6 digits: redacted, but no finding (it would be found by coincidence).
          if (kind) learnSecret(inner, kind);
          else registerSecret(inner);
        }
        else walk(inner, depth + 1);
      }
    }
  };
  walk(request, 0);
  if (issues) learnIssuedCredentials(response);
  return sent;
}

/** What a credential field of a request is: a password, the reset token (in a reset-password request), a TOTP secret, else a token. */
function secretKindOf(key: string, resetting: boolean): SecretKind | undefined {
  const name = normalizedKey(key);
  if (name === '2fa') return undefined;
  if (name.includes('password')) return 'password';
  if (name === 'token') return resetting ? 'reset-token' : 'token';
  if (name.includes('secret') || name.endsWith('codes')) return 'never-travels';
  return 'token';
}

/** The exchange as reports show it: redacted, bodies as JSON when they are, text cut short otherwise. */
function evidence(seen: SeenExchange, target: string, request: { ok: true; value: unknown } | { ok: false }, response: { ok: true; value: unknown } | { ok: false }): Exchange {
  const requestBody = request.ok ? redactJson(request.value) : seen.requestTooLarge ? `<a body over ${seen.maxBytes} bytes, passed through>` : seen.requestBody?.length ? `<${seen.requestBody.length} bytes of ${header(seen.requestHeaders, 'content-type') || 'no type'}>` : undefined;
  return {
    request: { method: seen.method, url: redactText(`${target}${seen.url}`), headers: redactHeaders(seen.requestHeaders), ...(requestBody !== undefined ? { body: requestBody } : {}) },
    ...(seen.status !== undefined
      ? {
          response: {
            status: seen.status,
            headers: redactHeaders(seen.responseHeaders ?? {}),
            ...(response.ok ? { body: redactJson(response.value) } : seen.responseTooLarge ? { bodyText: `<a body over ${seen.maxBytes} bytes, passed through unjudged>` } : { bodyText: redactText((seen.responseBody ?? Buffer.alloc(0)).toString('utf8')).slice(0, 2000) }),
          },
        }
      : {}),
    ...(seen.error ? { error: redactText(seen.error) } : {}),
    durationMs: seen.durationMs,
  };
}

/** Why the proxy does not judge an exchange at all (not the interface's path, no answer); undefined when it does. */
export function unjudgedReason(seen: SeenExchange): string | undefined {
  const path = seen.url.split('?')[0]!;
  if (!endpointFor(seen.method, path)) return `${seen.method} ${path.replace(/\/[0-9a-f-]{8,}(?=\/|$)/gi, '/…')} is no endpoint of the interface`;
  // The road's failure, not the target's answer: said with its cause (the target down, a timeout).
  if (seen.status === undefined) return `no answer${seen.error ? ` (${seen.error})` : ''}`;
  return undefined;
}

/**
 * One exchange as a report record. `strict` turns advisories into failures, as in a run.
 * Returns undefined for an exchange the proxy does not judge (see unjudgedReason).
 */
export function judgeExchange(coded: SeenExchange, target: string, strict = false): TestRecord | undefined {
  const seen = withDecodedBody(coded);
  const path = seen.url.split('?')[0]!;
  const endpoint = endpointFor(seen.method, path);
  if (!endpoint || seen.status === undefined) return undefined;
  const status = seen.status;
  const request = parseJson(seen.requestBody);
  const response = parseJson(seen.responseBody);
  const issues = status >= 200 && status < 300 && issuesCredentials(seen.method, path);
  const sent = learnSecretsOf(seen, path, request.ok ? request.value : undefined, response.ok ? response.value : undefined, issues);

  const documented = endpoint.statuses.some((s) => s.status === status);
  const isError = status >= 400;
  const clauses = [...endpoint.clauses, ...(documented ? ['1'] : []), ...(documented && isError ? ['7'] : [])];
  const failures: string[] = [];
  const advisories: string[] = [];
  const notes: string[] = [];
  const schemaFailures: { schema: string; problems: ReturnType<typeof schemaProblems> }[] = [];
  let skipReason: string | undefined;

  if (!documented) {
    advisories.push(
      status === 429 || (status === 503 && header(seen.responseHeaders, 'retry-after'))
        ? `${endpoint.id} answered ${status}: a rate limiter's answer, not one the specification documents for the endpoint (${endpoint.statuses.map((s) => s.status).join(', ')})`
        : `${endpoint.id} answered ${status}, a status the specification does not document for this endpoint (it documents ${endpoint.statuses.map((s) => s.status).join(', ')})`,
    );
  } else if (seen.error) {
    // An answer that broke off is judged neither way: its body is not what the target meant to send.
    skipReason = `not judged: ${seen.error}`;
  } else if (!response.ok && response.tooDeep) {
    skipReason = `not judged: ${response.tooDeep}`;
  } else if (seen.responseTooLarge) {
    skipReason = `not judged: the answer's body is over MAX_RESPONSE_BYTES (${seen.maxBytes} bytes); it was passed through unchanged`;
  } else {
    const type = header(seen.responseHeaders, 'content-type');
    if (!JSON_MEDIA_TYPE.test(type)) failures.push(`section 1.2: responses are JSON, but the ${status} answer's Content-Type is ${type ? JSON.stringify(type) : 'missing'}, not application/json (or +json)`);
    const schema = isError ? errorFormat(endpoint.group, status) : endpoint.success;
    if (!response.ok) failures.push(`section 1.2: the ${status} answer is not JSON (it begins ${JSON.stringify(redactText((seen.responseBody ?? Buffer.alloc(0)).toString('utf8')).slice(0, 80))})`);
    else {
      const problems = schemaProblems(schema, response.value);
      if (problems.length > 0) {
        schemaFailures.push({ schema, problems: problems.map((p) => ({ ...p, value: redactJson(p.value) })) });
        failures.push(`${isError ? 'section 7' : `section ${endpoint.clauses[0]}`}: the ${status} answer does not match ${schema}: ${problems.map((p) => `${p.pointer || '/'} ${p.message}`).slice(0, 3).join('; ')}`);
      }
    }
    if (status === 422) notes.push(UNDESERVED_422);
  }

  const security = response.ok
    ? credentialFindings(response.value, { sent, issues }).map((finding) => redactText(`${seen.method} ${path} answered ${status} whose body ${finding}`))
    : [];
  if (security.length > 0) failures.push(`security: ${security.length} credential(s) in the answer: ${security.join('; ')}`);
  if (strict && advisories.length > 0 && failures.length === 0) failures.push(`strict mode: ${advisories.length} advisory finding(s): ${advisories.join('; ')}`);

  const name = `${endpoint.id} answered ${status} to exchange #${seen.seq} (${seen.method} ${path})`;
  const outcome = failures.length > 0 ? 'failed' : skipReason ? 'skipped' : 'passed';
  const message = failures.map(redactText).join('\n');
  return {
    id: testId(`proxy ${seen.seq} ${endpoint.id} ${status}`),
    name,
    group: endpoint.group,
    file: 'proxy',
    line: null,
    endpoint: endpoint.id,
    status: documented ? status : null,
    clauses: [...new Set(clauses)],
    constraint: null,
    outcome,
    reason: outcome === 'failed' ? message.split('\n')[0]!.slice(0, 500) : (skipReason ?? null),
    observedStatus: [status],
    advisories,
    security,
    notes,
    durationMs: seen.durationMs,
    failure: outcome === 'failed' ? { message, schemaProblems: schemaFailures } : null,
    exchanges: [evidence(seen, target, request, response)],
  };
}
