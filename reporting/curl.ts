import type { Exchange } from '../helpers/net/http.js';
import { REDACTED } from '../helpers/net/redact.js';

/**
 * A `curl` command that reproduces one recorded request. Exchanges are already redacted; every
 * `[REDACTED]` becomes a shell variable the reader sets first (`$ACCESS_TOKEN`, `$JWT`, `$PASSWORD`,
 * `$TOKEN`, ...), so the command carries no secret and still runs once the variables are exported.
 */

/** A word of the command: literal text and shell variables, in order. */
type Part = { text: string } | { variable: string };

const PLACEHOLDER = /@@CONFORMANCE_VAR_([A-Z0-9_]+)@@/g;
const placeholder = (variable: string) => `@@CONFORMANCE_VAR_${variable}@@`;

/** The variable that stands for a redacted header. */
function headerVariable(name: string): { prefix: string; variable: string } {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') return { prefix: 'Bearer ', variable: 'ACCESS_TOKEN' };
  if (lower === 'token') return { prefix: '', variable: 'JWT' };
  return { prefix: '', variable: lower.replace(/[^a-z0-9]+/g, '_').toUpperCase() };
}

/** The variable that stands for a redacted JSON value, by its key. */
export function keyVariable(key: string): string {
  const lower = key.toLowerCase();
  if (lower.includes('password')) return 'PASSWORD';
  if (lower === '2fa') return 'TOTP_CODE';
  if (lower === 'jwt') return 'JWT';
  const name = lower.replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').toUpperCase();
  return /^[A-Z_][A-Z0-9_]*$/.test(name) ? name : 'SECRET';
}

/** Splits text at placeholders and at any remaining [REDACTED] (a secret found by value: `$SECRET`). */
function toParts(text: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  const pattern = new RegExp(`${PLACEHOLDER.source}|${REDACTED.replace(/[[\]]/g, '\\$&')}`, 'g');
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ variable: match[1] ?? 'SECRET' });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

const SAFE_BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;
const SAFE_IN_DOUBLE_QUOTES = /^[^"\\$`!]*$/;

const singleQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Quotes a word for a POSIX shell: literals stay literal, variables expand. */
export function shellWord(parts: Part[]): string {
  if (parts.length === 0) return "''";
  const literalOnly = parts.every((p) => 'text' in p);
  if (literalOnly) {
    const text = parts.map((p) => (p as { text: string }).text).join('');
    return SAFE_BARE.test(text) ? text : singleQuoted(text);
  }
  // Readable form when the literal parts need no escaping inside double quotes: "Bearer $ACCESS_TOKEN".
  if (parts.every((p) => !('text' in p) || SAFE_IN_DOUBLE_QUOTES.test(p.text))) {
    const shown = parts.map((p, i) => {
      if ('text' in p) return p.text;
      const next = parts[i + 1];
      return next && 'text' in next && /^\w/.test(next.text) ? `\${${p.variable}}` : `$${p.variable}`;
    });
    return `"${shown.join('')}"`;
  }
  return parts.map((p) => ('text' in p ? singleQuoted(p.text) : `"$${p.variable}"`)).join('');
}

function withPlaceholders(value: unknown, key?: string, variables?: Record<string, string>): unknown {
  if (value === REDACTED) return placeholder(key === undefined ? 'SECRET' : keyVariable(key));
  if (Array.isArray(value)) return value.map((item) => withPlaceholders(item, key));
  // The body's own keys: a password the test told apart from its first one has its own variable (Exchange.request.variables).
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === REDACTED && variables?.[k] && /^[A-Z_][A-Z0-9_]*$/.test(variables[k]!) ? placeholder(variables[k]!) : withPlaceholders(v, k)]));
  return value;
}

const FILE_FIELD = /^<file (.*), (\d+) bytes, (.*)>$/;

function formArguments(body: Record<string, unknown>, word: (parts: Part[]) => string): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    const file = typeof value === 'string' ? FILE_FIELD.exec(value) : null;
    if (file) {
      const type = file[3] === 'no type' ? '' : `;type=${file[3]}`;
      out.push('-F', word([{ text: `${name}=@${file[1]}${type}` }]));
    } else {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      out.push('--form-string', word(toParts(`${name}=${text === REDACTED ? placeholder(keyVariable(name)) : text}`)));
    }
  }
  return out;
}

/**
 * Headers curl sets itself from the command, or that belong to one connection (RFC 9110 7.6.1's
 * hop-by-hop fields): copied, a wrong Content-Length makes curl hang or cut the body, and a Host names
 * the proxy's upstream rather than the URL given (the proxy records whatever its client sent).
 */
const NOT_COPIED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);

/** The curl command for one exchange (one line), and the variables it expects to be set. */
export function curlCommand(exchange: Exchange): { command: string; variables: string[] } {
  const { request } = exchange;
  const variables = new Set<string>();
  const word = (parts: Part[]) => {
    for (const part of parts) if ('variable' in part) variables.add(part.variable);
    return shellWord(parts);
  };
  const args: string[] = ['curl', '-sS', '-i'];
  if (request.method !== 'GET') args.push('-X', request.method);
  args.push(word(toParts(request.url)));
  // A header Connection names is hop-by-hop too.
  const connection = (Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'connection')?.[1] ?? '').toLowerCase().split(',').map((n) => n.trim()).filter(Boolean);
  const headers = Object.entries(request.headers).filter(([name]) => !NOT_COPIED.has(name.toLowerCase()) && !connection.includes(name.toLowerCase()));
  const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  for (const [name, value] of headers) {
    if (value === REDACTED) {
      const { prefix, variable } = headerVariable(name);
      args.push('-H', word([{ text: `${name}: ${prefix}` }, { variable }]));
    } else {
      args.push('-H', word(toParts(`${name}: ${value}`)));
    }
  }
  const body = request.body;
  if (body !== undefined) {
    if (typeof body === 'string') args.push('--data-raw', word(toParts(body)));
    else if (!contentType && body && typeof body === 'object' && !Array.isArray(body)) args.push(...formArguments(body as Record<string, unknown>, word));
    else args.push('--data-raw', word(toParts(JSON.stringify(withPlaceholders(body, undefined, request.variables)))));
  }
  return { command: args.join(' '), variables: [...variables] };
}

/**
 * The request that reproduces a failure: the last one the test sent before it failed, or the exchange
 * whose answer it checked last (its status or schema); never a clean-up's logout or DELETE; the last
 * request when the report does not say (reports before 1.2.0, or a test that checked no answer).
 */
export function failingExchange(test: { exchanges: Exchange[]; checkedExchange?: number; failedAt?: number }): Exchange | undefined {
  const index = failingIndex(test);
  return index >= 0 ? test.exchanges[index] : undefined;
}

/**
 * The index of the failing request: the last one the test's body sent before it failed (since 1.4.0: an
 * assertion on a later answer than the last status check, a login after a reset, is caught), else the
 * answer it checked last, else its last request.
 */
function failingIndex(test: { exchanges: Exchange[]; checkedExchange?: number; failedAt?: number }): number {
  for (const index of [test.failedAt, test.checkedExchange]) if (index !== undefined && test.exchanges[index]) return index;
  return test.exchanges.length - 1;
}

/** Where the reader gets the secret a variable of a reproduction stands for. */
/** The one command that runs a failed test again as the run ran it: its id, and the mutant of the embedded reference when the run had one. */
export function exactReproduction(test: { id: string }, target?: { mutant?: string }): string {
  return `conformance run --id ${test.id}${target?.mutant ? ` --mutant ${target.mutant}` : ''}`;
}

export const VARIABLE_SOURCES: Readonly<Record<string, string>> = {
  ACCESS_TOKEN: "the access token: data.id of the login's answer (the step that logs in), or your own login",
  PASSWORD: "the account's password: the provider state's answer (the hook's data, or your states file), or your own account",
  NEW_PASSWORD: 'the new password the reset sets: one of your choice (8 to 191 characters); the test\u2019s own is never shown',
  TOTP_CODE: "the current TOTP code of the 2FA account's secret (the provider state's answer or your states file)",
  JWT: 'a JWT the suite signed with its own platform key, never shown: reproduce that step with the `conformance run --id` line',
  TOKEN: 'the reset token the provider state gave (the hook\'s data or your states file)',
};

/** How many requests a reproduction shows at most: the last ones up to the failing request. */
const SCRIPT_STEPS = 6;

/**
 * A failure's reproduction: the test's requests in order up to the one whose answer failed it, as the
 * lines of a short shell script (one curl a step; earlier steps log in and arrange what the last one
 * needs), and the variables they read.
 */
export function reproductionSteps(test: { exchanges: Exchange[]; checkedExchange?: number; failedAt?: number }): { commands: string[]; variables: string[]; omitted: number } {
  const last = failingIndex(test);
  if (last < 0) return { commands: [], variables: [], omitted: 0 };
  const first = Math.max(0, last - SCRIPT_STEPS + 1);
  const variables = new Set<string>();
  const commands = test.exchanges.slice(first, last + 1).map((exchange) => {
    const curl = curlCommand(exchange);
    curl.variables.forEach((v) => variables.add(v));
    return curl.command;
  });
  return { commands, variables: [...variables], omitted: first };
}
