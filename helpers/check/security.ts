import { isCredentialKey, isCredentialValue, normalizedKey } from '../spec/credential-names.js';
import { SUBSTRING_SECRET_LENGTH, isPublicValue, isSharedConstant, learntSecret, notePublicValue, secretsIn, subjectOf, type LearntSecret, type SecretFound } from '../net/secrets.js';
import { sameId } from '../spec/normalisation.js';
import { gunzipSync, inflateSync } from 'node:zlib';

export { isCredentialKey } from '../spec/credential-names.js';

/**
 * Security findings (their own category in every report, apart from clauses): an answer of the
 * interface that carries a credential it must not. Judged by what a value is, never by its shape
 * (issue 28):
 * - a password the run knows, by its value, in any answer (also echoed to the request that sent it), also as its
 *   unsalted MD5, SHA-1, SHA-256 or SHA-512 digest (hex, base64), its base64, or the base64 of `<email>:<password>`
 *   (round wb25: helpers/net/secrets.ts passwordForms, learnPasswordWithEmail);
 * - a password hash: by its field's name (`password_hash`), or by a named hash format (`$2y$`, `$argon2id$` ...);
 * - a secret that never travels (a TOTP secret, recovery codes);
 * - a user's anti-phishing code in an answer to anyone but that user (its owner may be shown it: review-ao F2);
 * - the reset token, in any answer of the interface (section 4.4: it arrives by e-mail);
 * - a token the run knows to belong to another session or user, by its value, in any alphabet.
 * Not a finding: a credential issued to the caller in the answer to its own authentication or password
 * reset (a session, an access token, a refresh token), whatever its alphabet or shape, and the
 * request's own token (or another of its session, such as its refresh token).
 * Advised on, not a finding: a value that the login answers of two or more distinct users carry alike
 * under a token name, at every place it was seen, and that the run knows as no particular user's or session's credential (a public
 * constant such as `mapToken`; `isSharedConstant` of helpers/net/secrets.ts). A Session's id, a state's
 * token, a password, a reset token or a TOTP secret is never such a constant, wherever it is seen.
 */

/** A value made only of mask characters (`********`, `••••`) shows that a credential exists, not what it is. */
const MASKED = /^[*\u2022\u25cf\u00b7#xX]+$/u;

/**
 * Password hash formats, by name: a value that is one is a password hash whatever field carries it.
 * Each pattern is the whole format (prefix, parameters, salt and digest), so ordinary text is never one.
 */
const HASH_FORMATS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'bcrypt', pattern: /^\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{50,60}$/ },
  { name: 'argon2', pattern: /^\$argon2(?:id|i|d)\$(?:v=\d+\$)?m=\d+,t=\d+,p=\d+(?:,[a-z]+=[^$,]*)*\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/ },
  { name: 'PBKDF2', pattern: /^\$pbkdf2(?:-sha(?:1|256|512))?\$\d+\$[./A-Za-z0-9+=]+\$[./A-Za-z0-9+=]+$/ },
  { name: 'SHA-crypt', pattern: /^\$[56]\$(?:rounds=\d+\$)?[./A-Za-z0-9]{0,16}\$[./A-Za-z0-9]{43,86}$/ },
  { name: 'MD5-crypt', pattern: /^\$(?:1|apr1)\$[./A-Za-z0-9]{0,8}\$[./A-Za-z0-9]{22}$/ },
  { name: 'scrypt', pattern: /^\$(?:scrypt|7)\$[^$\s]+\$[^$\s]+(?:\$[^$\s]+)?$/ },
  { name: 'yescrypt', pattern: /^\$y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]*\$[./A-Za-z0-9]{43}$/ },
  { name: 'Django PBKDF2', pattern: /^pbkdf2_sha(?:1|256)\$\d+\$[^$\s]+\$[A-Za-z0-9+/]+={0,2}$/ },
  { name: 'Django argon2', pattern: /^argon2\$argon2(?:id|i|d)\$\S+$/ },
  { name: 'Django bcrypt', pattern: /^bcrypt(?:_sha256)?\$\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/ },
  // Django's legacy hashers (sha1, md5, crypt; their unsalted forms keep an empty salt): the hasher's name, a salt, the digest of its length.
  { name: 'Django legacy', pattern: /^(?:sha1\$[A-Za-z0-9]*\$[0-9a-f]{40}|md5\$[A-Za-z0-9]*\$[0-9a-f]{32}|crypt\$[./A-Za-z0-9]*\$[./A-Za-z0-9]{13})$/ },
  // Werkzeug's generate_password_hash (Flask): method (pbkdf2:sha256:600000, scrypt:32768:8:1), salt, hex digest.
  { name: 'Werkzeug PBKDF2', pattern: /^pbkdf2:sha(?:1|224|256|384|512)(?::\d+)?\$[A-Za-z0-9]{1,64}\$[0-9a-f]{40,128}$/ },
  { name: 'Werkzeug scrypt', pattern: /^scrypt:\d+:\d+:\d+\$[A-Za-z0-9]{1,64}\$[0-9a-f]{64,256}$/ },
  // phpass portable hashes (WordPress $P$, phpBB $H$): the cost letter, 8 salt and 22 hash characters; Drupal 7's $S$ the same with 43.
  { name: 'phpass', pattern: /^\$[PH]\$[./0-9A-Za-z]{31}$/ },
  { name: 'Drupal 7', pattern: /^\$S\$[./0-9A-Za-z]{52}$/ },
  // Django 4.0+ ScryptPasswordHasher: `scrypt$<n>$<salt>$<r>$<p>$<base64 digest>` (no leading `$`, unlike the PHC form).
  { name: 'Django scrypt', pattern: /^scrypt\$\d+\$[^$\s]+\$\d+\$\d+\$[A-Za-z0-9+/]{22,}={0,2}$/ },
  { name: 'passlib bcrypt-sha256', pattern: /^\$bcrypt-sha256\$(?:v=2,t=2[abxy]?,r=\d{1,2}|2[abxy]?,\d{1,2})\$[./A-Za-z0-9]{22}\$[./A-Za-z0-9]{31}$/ },
  // Round wb28: MySQL 4.1's PASSWORD() (`*` and 40 upper-case hex digits), and PostgreSQL's SCRAM-SHA-256 verifier (RFC 5803 form).
  { name: 'MySQL 4.1', pattern: /^\*[0-9A-F]{40}$/ },
  { name: 'PostgreSQL SCRAM-SHA-256', pattern: /^SCRAM-SHA-256\$\d+:[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}:[A-Za-z0-9+/]+={0,2}$/ },
];

/**
 * Formats with too little structure of their own to be told from other text anywhere (a digest and a salt joined by a
 * colon, `md5` before 32 hex digits): each counts only where its name says it is a password or a hash (`named`: a member,
 * a cookie or a header named so, isHashName), as ASP.NET Identity V2 does. Round wb28: Joomla's `md5:salt`, PostgreSQL's
 * `md5` password.
 */
const NAMED_ONLY_FORMATS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'Joomla', pattern: /^[0-9a-f]{32}:[A-Za-z0-9./]{16,32}$/ },
  { name: 'PostgreSQL MD5', pattern: /^md5[0-9a-f]{32}$/ },
];

/**
 * Scheme prefixes that name a password hash and wrap another format (issue 28: named formats only): RFC 2307's `{SCHEME}`
 * (LDAP userPassword: {SSHA}, {CRYPT}$2y$..., OpenLDAP's {PBKDF2-SHA512}, {ARGON2}) and Spring Security's DelegatingPasswordEncoder
 * `{id}` ({bcrypt}$2a$..., {pbkdf2}, {scrypt}, {argon2}, {sha256}). Each gives the inner forms it is followed by, besides the
 * formats of HASH_FORMATS (tried for every scheme after the prefix is stripped).
 */
const BASE64_DIGEST = /^[A-Za-z0-9+/]{22,}={0,2}$/;
const SCHEME_INNER: Readonly<Record<string, RegExp | undefined>> = {
  // RFC 2307 and OpenLDAP: base64 of a digest (and salt) of at least 16 bytes.
  sha: BASE64_DIGEST, ssha: BASE64_DIGEST, sha256: BASE64_DIGEST, ssha256: BASE64_DIGEST, sha384: BASE64_DIGEST, ssha384: BASE64_DIGEST,
  sha512: BASE64_DIGEST, ssha512: BASE64_DIGEST, md5: BASE64_DIGEST, smd5: BASE64_DIGEST,
  // {CRYPT}: a crypt(3) string; the traditional DES one is 13 characters.
  crypt: /^[./A-Za-z0-9]{13}$/,
  // OpenLDAP pw-pbkdf2: rounds$adapted-base64 salt$adapted-base64 digest.
  pbkdf2: /^(?:\d+\$[./A-Za-z0-9+]+={0,2}\$[./A-Za-z0-9+]+={0,2}|[0-9a-f]{64,})$/,
  'pbkdf2-sha1': /^\d+\$[./A-Za-z0-9+]+={0,2}\$[./A-Za-z0-9+]+={0,2}$/,
  'pbkdf2-sha256': /^\d+\$[./A-Za-z0-9+]+={0,2}\$[./A-Za-z0-9+]+={0,2}$/,
  'pbkdf2-sha512': /^\d+\$[./A-Za-z0-9+]+={0,2}\$[./A-Za-z0-9+]+={0,2}$/,
  argon2: undefined,
  bcrypt: undefined,
  // Spring's LdapShaPasswordEncoder: `{ldap}` before a RFC 2307 `{SHA}` or `{SSHA}` value (stripped again).
  ldap: undefined,
  // Spring's SCryptPasswordEncoder: $<hex parameters>$<base64 salt>$<base64 digest>.
  scrypt: /^\$[0-9a-f]+\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/,
  // Spring's MessageDigestPasswordEncoder and StandardPasswordEncoder: an optional {salt}, then a hex digest.
  'sha-1': /^(?:\{[^{}\s]*\})?[0-9a-f]{40}$/,
  'sha-256': /^(?:\{[^{}\s]*\})?[0-9a-f]{64}$/,
  // Round wb28: Atlassian's {PKCS5S2} (base64 of a 16-byte salt and a 32-byte key), and Dovecot's schemes wrapping a
  // crypt(3) string ({BLF-CRYPT}$2y$..., {SHA512-CRYPT}$6$..., {ARGON2ID}$argon2id$...), whose inner forms HASH_FORMATS names.
  pkcs5s2: /^[A-Za-z0-9+/]{64}$/,
  'blf-crypt': undefined,
  'sha512-crypt': undefined,
  'sha256-crypt': undefined,
  'md5-crypt': undefined,
  argon2id: undefined,
  argon2i: undefined,
};
const SPRING_HEX: Readonly<Record<string, RegExp>> = { md5: /^(?:\{[^{}\s]*\})?[0-9a-f]{32}$/, sha256: /^(?:\{[^{}\s]*\})?[0-9a-f]{64,80}$/ };

/**
 * ASP.NET Core Identity's PasswordHasher, by the bytes its base64 holds: V3 (0x01, the PRF 0..2 as a big-endian uint32,
 * the iteration count, the salt length 16, then the salt and a 32-byte subkey: 61 bytes) and V2 (0x00, a 16-byte salt,
 * a 32-byte subkey: 49 bytes). A base64 of another length or header (an image, a token) is none. V2's header is one
 * byte, which 1 in 256 random 49-byte values share (review-ay F5: 73 of 20,000): it counts only where its name says it
 * is a password or a hash (`named`: a member, a cookie or a header named so, isHashName), V3's header being specific.
 */
function aspnetIdentityFormat(value: string, named: boolean): string | undefined {
  if ((value.length !== 84 && value.length !== 68) || !/^[A-Za-z0-9+/]+==$/.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length === 61 && bytes[0] === 0x01 && bytes.readUInt32BE(1) <= 2 && bytes.readUInt32BE(5) >= 1000 && bytes.readUInt32BE(9) === 16) return 'ASP.NET Identity V3';
  if (named && bytes.length === 49 && bytes[0] === 0x00) return 'ASP.NET Identity V2';
  return undefined;
}

function namedFormat(value: string, named: boolean): string | undefined {
  return HASH_FORMATS.find((format) => format.pattern.test(value))?.name ?? aspnetIdentityFormat(value, named) ?? (named ? NAMED_ONLY_FORMATS.find((format) => format.pattern.test(value))?.name : undefined);
}

/** A member's, a cookie's or a header's name that says its value is a password or a hash (`PasswordHash`, `pwd`, `hash_v2`): where a format with little structure of its own (ASP.NET Identity V2) counts. */
export function isHashName(name: string): boolean {
  return /pass|pwd|hash/.test(normalizedKey(name));
}

/**
 * The named password hash format `value` is written in, if any (a RFC 2307 or Spring `{scheme}` prefix stripped first,
 * and again for a scheme that wraps another: Spring's `{ldap}{SSHA}...`). A Spring id may carry a version after `@`
 * (`{argon2@SpringSecurity_v5_8}`, `{pbkdf2@SpringSecurity_v5_8}`): the scheme is its part before the `@`.
 */
export function hashFormatOf(value: string, named = false): string | undefined {
  return formatOf(value, 0, named);
}

function formatOf(value: string, depth: number, named: boolean): string | undefined {
  if (value.length < 20 || value.length > 512) return undefined;
  const direct = namedFormat(value, named);
  if (direct !== undefined) return direct;
  const prefixed = /^\{([A-Za-z0-9][A-Za-z0-9@_.-]{1,39})\}(\S+)$/.exec(value);
  if (!prefixed) return undefined;
  const scheme = prefixed[1]!.toLowerCase().replace(/@[a-z0-9_.-]*$/, '');
  const inner = prefixed[2]!;
  if (!Object.hasOwn(SCHEME_INNER, scheme)) return undefined;
  const wrapped = namedFormat(inner, named);
  if (wrapped !== undefined) return `{${prefixed[1]}} ${wrapped}`;
  const own = SCHEME_INNER[scheme];
  if ((own !== undefined && own.test(inner)) || (Object.hasOwn(SPRING_HEX, scheme) && SPRING_HEX[scheme]!.test(inner))) return `{${prefixed[1]}}`;
  if (depth < 2 && inner.startsWith('{')) {
    const nested = formatOf(inner, depth + 1, named);
    if (nested !== undefined) return `{${prefixed[1]}} ${nested}`;
  }
  return undefined;
}

/**
 * Credential names that an answer issuing credentials to the caller (its own login or reset) may carry:
 * a remember-me token travels to the client as a refresh token does. Anywhere else they are findings.
 */
const ISSUED_CREDENTIAL_NAMES = new Set(['remembertoken']);

/** What the answer answers: whose request it is, and whether it issues credentials to the caller. */
export interface AnswerContext {
  /** The credentials the request itself sent (its bearer token, its `Token` JWT): the caller's own. */
  sent?: readonly (string | undefined)[];
  /**
   * The answer is a success of authentication or of a password reset (`issuesCredentials` of
   * helpers/spec/credential-names.ts): the credentials it issues are the caller's.
   */
  issues?: boolean;
  /** The user the request's path names (`/api/v1/user/{user}/...`), whose records the answer holds if it is not refused. */
  pathUser?: string;
}

const sessionOf = (secret: LearntSecret): string => secret.session ?? secret.value;

/**
 * Whether an answer may carry this token: the request's own session's, or issued to the caller right there. What the
 * request sent, the answer may repeat, whole or in part (review-aw F1: a 401 whose WWW-Authenticate names the bearer it
 * refused, RFC 6750's error_description; the access tables send bearers made of a real token, its `|` dropped, another
 * id before its secret, a character appended): a token found inside a sent value is the caller's own text, no leak.
 */
function tokenAllowed(found: SecretFound, body: unknown, context: AnswerContext): boolean {
  const { secret } = found;
  for (const value of context.sent ?? []) {
    if (value === undefined || value === '') continue;
    const mine = learntSecret(value);
    if (value === secret.value || (mine !== undefined && sessionOf(mine) === sessionOf(secret))) return true;
    if (found.text !== undefined && found.text.length >= SUBSTRING_SECRET_LENGTH && value.includes(found.text)) return true;
  }
  if (context.issues) {
    if (secret.issuedIn !== undefined && secret.issuedIn === body) return true;
    const subject = subjectOf(body);
    if (subject !== undefined && secret.owner !== undefined && sameId(secret.owner, subject)) return true;
  }
  return false;
}

/** The user a request's path names (`/api/v1/user/{user}/<records>`), decoded; undefined for the routes of section 4.1 to 4.5. */
export function pathUserOf(path: string): string | undefined {
  const match = /\/api\/v1\/user\/([^/?#]+)\/[^/?#]/.exec(path);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

/**
 * Whether an answer is to the owner of an `own-code` secret, decided by who asked first (review-ap D1: a refusal of
 * another user's request for the owner's records is no answer to the owner): the subject of an authentication or reset
 * the answer issues; else the users the request's credentials belong to, as far as the run knows them (one of them the
 * owner); only where the run knows none of them, the user the path names (`/api/v1/user/{owner}/...`).
 */
function answersOwner(secret: LearntSecret, body: unknown, context: AnswerContext): boolean {
  if (secret.owner === undefined) return false;
  // A code the run learnt as several users' own (one word a hook gives all its accounts: reading round r28) is each one's.
  const owners = [...(secret.owners ?? [secret.owner])];
  const owns = (user: string) => owners.some((owner) => sameId(user, owner));
  if (context.issues) {
    const subject = subjectOf(body);
    if (subject !== undefined) return owns(subject);
  }
  const callers = (context.sent ?? []).flatMap((value) => {
    const known = value === undefined || value === '' ? undefined : learntSecret(value)?.owner;
    return known === undefined ? [] : [known];
  });
  if (callers.length > 0) return callers.some(owns);
  return context.pathUser !== undefined && owns(context.pathUser);
}

function written(found: SecretFound): string {
  if (found.form === 'as is') return '';
  return found.form === 'base64' || found.form === 'base64url' || found.form === 'hex' ? ` (${found.form}-encoded)` : ` (written as its ${found.form})`;
}

/** The advisory for a shared constant found where a token of another user would be a finding. */
function sharedConstantAdvice(found: SecretFound): string {
  return `carries a value that the login answers of ${found.secret.issuedAlikeTo?.size ?? 2} users of the run carry alike under a token name${written(found)}: a constant of the target (a public key such as mapToken), not one user's credential, so not a security finding (issue 28)`;
}

/**
 * The string members the specification names with a meaning of their own, none of them a code (section 2: a user's
 * options and meta, 2.6; an asset's and a record's names, symbols, statuses, texts; a bank's and a card's names, 2.4, 2.5):
 * a short anti-phishing code met as one of their values is a word they share (reading round r28), not the code.
 */
const SPECIFIED_VALUE_MEMBERS: ReadonlySet<string> = new Set(['language', 'theme', 'layout', 'source', 'status', 'name', 'symbol', 'alias', 'type', 'chain', 'memo', 'bankName', 'holderName', 'currency']);

/** The finding for a learnt secret found in an answer (under the member `key`), or undefined when the answer may carry it. */
function verdict(found: SecretFound, body: unknown, context: AnswerContext, key?: string, whole = false): string | undefined {
  const { secret } = found;
  switch (secret.kind) {
    case 'password':
      return `carries a password the run knows${written(found)}`;
    case 'never-travels':
      return 'carries a secret that never travels (a TOTP secret or a recovery code the run knows)';
    case 'own-code':
      if (answersOwner(secret, body, context)) return undefined;
      // A short code (a word, six digits) found as the value of a member whose meaning the specification gives as
      // something else (2.6's `options.layout`, `theme`, `language`, `meta.source`; a record's name or status) is an
      // ordinary value that shares its letters (reading round r28: the word `classic` as a code and as every record's
      // `options.layout`): judged by meaning, not by letters. Under any other member, extra ones included (review-av D1:
      // a profile's `secretWord`), it is a finding; a long one is found wherever it is, as a token is.
      // A long code is no finding there either when it is the member's whole value (reading round r29: a code equal to
      // the name of a platform, `Reference Exchange`, as a platform's `name`); inside a longer text it is.
      if ((secret.value.length < SUBSTRING_SECRET_LENGTH || whole) && key !== undefined && SPECIFIED_VALUE_MEMBERS.has(key)) return undefined;
      return 'carries the anti-phishing code of another user than the one it answers (section 2.6 shows it masked even to its owner in a bonus; no one else may see it)';
    case 'reset-token':
      return 'carries the password reset token (section 4.4: it arrives by e-mail, in no answer)';
    case 'configured':
      return "carries a secret of the run's configuration (STATES_TOKEN or the value of a --header that names a credential)";
    case 'header-value':
      return undefined;
    case 'token':
      return tokenAllowed(found, body, context) ? undefined : `carries a token the run knows to belong to another session or user${written(found)}`;
  }
}

/** The member a JSON pointer ends in, past any list indexes (`/data/0/user/options/layout`: `layout`; `/codes/1`: `codes`). */
function memberOf(pointer: string): string | undefined {
  const parts = pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (let i = parts.length - 1; i >= 0; i--) if (!/^\d+$/.test(parts[i]!)) return parts[i];
  return undefined;
}

/**
 * Every credential in a JSON answer, as a line naming the JSON pointer (never the value). `context`
 * says what the answer answers: the request's own credentials, and whether it issues credentials.
 */
export function credentialFindings(body: unknown, context: AnswerContext = {}): string[] {
  return scanCredentials(body, context).findings;
}

/** A cookie-name (RFC 6265 4.1.1: an RFC 7230 token) followed by `=`: where a Set-Cookie line joined after `, ` starts. */
const COOKIE_START = /^,\s+[!#$%&'*+\-.^_`|~0-9A-Za-z]+=/;

/** `text` split at `separator` where it stands outside a double-quoted string (a quoted cookie value keeps its `;` and `,`). */
function splitOutsideQuotes(text: string, separator: string, splitsHere: (rest: string) => boolean = () => true): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted && splitsHere(text.slice(i, i + 200))) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A cookie value as its server meant it: a quoted one (Go's, Python's) unquoted, Python's octal escapes (`\054` for `,`) and `\"` undone. */
function unquotedCookieValue(value: string): string {
  const text = value.trim();
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return text;
  return text.slice(1, -1).replace(/\\(?:([0-3][0-7]{2})|(.))/g, (_, octal: string | undefined, char: string | undefined) => (octal !== undefined ? String.fromCharCode(parseInt(octal, 8)) : char!));
}

/**
 * The values of the cookies a Set-Cookie value sets (and of its attributes), split as RFC 6265 reads it: the lines a client
 * joined with `, ` apart at a comma followed by a cookie's `name=` (an Expires date's comma and the commas inside a value,
 * an argon2 hash's `m=65536,t=4,p=1`, stay), each line at `;` outside quotes, each value unquoted.
 */
function cookieValues(value: string): string[] {
  const values: string[] = [];
  for (const line of splitOutsideQuotes(value, ',', (rest) => COOKIE_START.test(rest))) {
    for (const part of splitOutsideQuotes(line, ';')) {
      const equals = part.indexOf('=');
      if (equals >= 0) values.push(unquotedCookieValue(part.slice(equals + 1)));
    }
  }
  return values;
}

/**
 * The pieces of a response header's value that are scanned besides the value whole (issue 27, white-box round wb27): a
 * Set-Cookie's or a Link's parts (split at `,` and `;`), each `name=value`'s value, a Link's target between `<>`, a URL's
 * path segments and query values, each also URL-decoded. A secret of SUBSTRING_SECRET_LENGTH characters or more is
 * found anywhere in the whole value; a shorter one only as one of these pieces. Each cookie's value whole as well, split
 * per RFC 6265 and unquoted (review-aw F3: an argon2 hash's commas, Go's quoted values, Python's `\054`).
 */
export function headerPieces(value: string): string[] {
  const pieces = new Set<string>([value]);
  const add = (piece: string) => {
    const text = piece.trim().replace(/^"(.*)"$/, '$1');
    if (text === '') return;
    pieces.add(text);
    try {
      pieces.add(decodeURIComponent(text.replace(/\+/g, ' ')));
    } catch {
      // Not URL-encoded: scanned as it is.
    }
  };
  for (const part of value.split(/[,;]/)) {
    add(part);
    const equals = part.indexOf('=');
    if (equals >= 0) add(part.slice(equals + 1));
    const target = /<([^>]*)>/.exec(part)?.[1];
    const url = target ?? part;
    for (const segment of url.split(/[<>?&#/=\s]/)) add(segment);
  }
  for (const cookie of cookieValues(value)) add(cookie);
  return [...pieces];
}

/** A password hash format of a piece, or of one of its `|`- or `:`-separated parts (Laravel's recaller `<id>|<token>|<hash>`). */
function pieceHashFormat(piece: string, named: boolean): string | undefined {
  const whole = hashFormatOf(piece, named);
  if (whole !== undefined || !/[|:]/.test(piece)) return whole;
  for (const part of piece.split(/[|:]/)) {
    const format = hashFormatOf(part, named);
    if (format !== undefined) return format;
  }
  return undefined;
}

/**
 * The pieces of a header value that its name, or their cookie's or parameter's name, says are a password or a hash
 * (isHashName): the whole value of an `X-Password-Hash`, the value of `pwd_hash=...` (unquoted and URL-decoded too).
 */
function hashNamedPieces(name: string, value: string): Set<string> {
  const named = new Set<string>();
  const add = (text: string) => {
    const piece = unquotedCookieValue(text.trim());
    if (piece === '') return;
    named.add(piece);
    try {
      named.add(decodeURIComponent(piece.replace(/\+/g, ' ')));
    } catch {
      // Not URL-encoded.
    }
  };
  if (isHashName(name)) for (const piece of headerPieces(value)) named.add(piece);
  for (const line of splitOutsideQuotes(value, ',', (rest) => COOKIE_START.test(rest))) {
    for (const part of splitOutsideQuotes(line, ';')) {
      const equals = part.indexOf('=');
      if (equals > 0 && isHashName(part.slice(0, equals))) add(part.slice(equals + 1));
    }
  }
  for (const part of value.split(/[,;&?]/)) {
    const equals = part.indexOf('=');
    if (equals > 0 && isHashName(part.slice(0, equals))) add(part.slice(equals + 1));
  }
  return named;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text `bytes` write, when they are text of 8 characters or more without control characters (random bytes, an image, a digest are none). */
function readableText(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  return text.length < 8 || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/u.test(text) ? undefined : text;
}

/**
 * What decoding the headers of one answer may cost (review-ay S1): a hostile target's 16 KiB Set-Cookie of 135 zlib
 * segments, each inflating to 64 KiB, decoded to 26 MB per scan (151 ms) and took a banks run from 4 s to 443 s and
 * 941 MiB. The target is untrusted; the suite's memory and time are not its to take. Per answer (both of its scans, on
 * arrival and at the test's end, share one budget and one cache): at most `bytes` of decoded (base64 and inflated)
 * bytes in all, at most `candidates` base64 candidates decoded, at most `perCandidate` bytes inflated from one. Past
 * a limit the scan decodes no more: what it did not read gives no finding (and no crash, no hang).
 */
export const HEADER_DECODING_LIMITS = { bytes: 256 * 1024, candidates: 256, perCandidate: 1 << 16 } as const;

let decodedBytesTotal = 0;
let decodedCandidatesTotal = 0;

/** What header decoding has cost in this process so far (the bytes decoded and inflated, the candidates decoded): for the self-tests. */
export function headerDecodingStats(): { bytes: number; candidates: number } {
  return { bytes: decodedBytesTotal, candidates: decodedCandidatesTotal };
}

/** A text a header piece holds decoded: the text, how it came out, and the member it sat under in decoded JSON. */
interface DecodedText {
  text: string;
  how: 'base64-decoded' | 'JSON-decoded';
  /** The JSON member the text was the value of (past list indexes), when it came out of JSON. */
  key?: string;
}

/** The decoding state of one answer's headers: what is left of its budget, and every candidate and piece decoded once. */
class HeaderDecoder {
  bytes: number = HEADER_DECODING_LIMITS.bytes;
  candidates: number;

  /** `candidates`: how many may be decoded (a body's strings are more than a header's pieces: BODY_DECODING_CANDIDATES). */
  constructor(candidates: number = HEADER_DECODING_LIMITS.candidates) {
    this.candidates = candidates;
  }

  /** The budget ran out: some candidate was not decoded. */
  stopped = false;
  readonly byCandidate = new Map<string, string | undefined>();
  readonly byPiece = new Map<string, DecodedText[]>();

  private charge(bytes: number): void {
    this.bytes -= bytes;
    decodedBytesTotal += bytes;
  }

  /** Spends `bytes` of the budget on parsing a text (a JSON or PHP serialize() text of a body string): false, and stopped, when they are not left. */
  spend(bytes: number): boolean {
    if (bytes < 64) return true;
    if (bytes > this.bytes) {
      this.stopped = true;
      return false;
    }
    this.charge(bytes);
    return true;
  }

  /** Whether `candidate` may be base64 or base64url (or, round wb28, hex of 32 digits or more) of something worth reading. */
  static isCandidate(candidate: string): boolean {
    return candidate.length >= 16 && candidate.length % 4 !== 1 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(candidate);
  }

  /** Whether `candidate` is written in hex digits alone, of an even length of 32 or more (a hex-encoded JSON cookie, round wb28). */
  static isHex(candidate: string): boolean {
    return candidate.length >= 32 && candidate.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(candidate);
  }

  /** The UTF-8 text (without control characters) the base64 `candidate` holds, inflated when zlib or gzip; each distinct one decoded once. */
  text(candidate: string): string | undefined {
    if (this.byCandidate.has(candidate)) return this.byCandidate.get(candidate);
    if (this.candidates <= 0 || this.bytes <= 0 || (candidate.length * 3) / 4 > this.bytes) {
      this.stopped = true;
      return undefined;
    }
    this.candidates -= 1;
    decodedCandidatesTotal += 1;
    // Hex first: hex digits are base64 digits too, and a hex text read as base64 gives other bytes (round wb28).
    const hexText = HeaderDecoder.isHex(candidate) ? readableText(Buffer.from(candidate, 'hex')) : undefined;
    if (hexText !== undefined) {
      this.charge(candidate.length / 2);
      this.byCandidate.set(candidate, hexText);
      return hexText;
    }
    let bytes: Buffer = Buffer.from(candidate, 'base64');
    this.charge(bytes.length);
    const inflate = bytes[0] === 0x78 ? inflateSync : bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync : undefined;
    if (inflate !== undefined) {
      const limit = Math.min(HEADER_DECODING_LIMITS.perCandidate, Math.max(this.bytes, 0));
      try {
        bytes = inflate(bytes, { maxOutputLength: limit });
        this.charge(bytes.length);
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          // More than it may inflate: what was inflated is not read (the work done is charged).
          this.charge(limit);
          if (limit < HEADER_DECODING_LIMITS.perCandidate) this.stopped = true;
          this.byCandidate.set(candidate, undefined);
          return undefined;
        }
        // Not zlib or gzip: the bytes as they are.
      }
    }
    const text = readableText(bytes);
    this.byCandidate.set(candidate, text);
    return text;
  }

  /**
   * The texts a header piece holds: base64 or base64url (review-aw F2: a client-side session, Flask's
   * `<payload>.<timestamp>.<signature>` whose payload may be zlib-compressed behind a leading `.`, Express cookie-session's
   * base64 JSON, a JWT's payload; review-ay F4: Django's signed_cookies `<payload>:<timestamp>:<signature>`, Rails'
   * `<base64>--<digest>`, gzip too), the piece whole and each of its `.`-, `:`- or `--`-separated segments: only what
   * decodes to UTF-8 text without control characters (random bytes, an image, a digest decode to none); for JSON each
   * string it holds too, and one more base64 level inside those strings (a Rails cookie's `_rails.message`). And
   * (review-ay F5) a piece that is JSON itself, after an Express `j:` prefix (`res.cookie(name, object)`): its strings.
   */
  textsOf(piece: string): DecodedText[] {
    const cached = this.byPiece.get(piece);
    if (cached !== undefined) return cached;
    const out: DecodedText[] = [];
    const seen = new Set<string>();
    const add = (text: string, how: DecodedText['how'], key?: string) => {
      if (text === '' || seen.has(`${key ?? ''}\u0000${text}`)) return;
      seen.add(`${key ?? ''}\u0000${text}`);
      out.push(key === undefined ? { text, how } : { text, how, key });
    };
    /** The strings of a JSON text, each under its member; base64 among them decoded once more when `nested`. */
    const jsonStrings = (text: string, how: DecodedText['how'], nested: boolean): void => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return;
      }
      const walk = (value: unknown, key: string | undefined, depth: number): void => {
        if (depth > 16) return;
        if (typeof value === 'string') {
          add(value, how, key);
          if (nested && HeaderDecoder.isCandidate(value)) {
            const inner = this.text(value);
            if (inner !== undefined) {
              add(inner, 'base64-decoded', key);
              jsonStrings(inner, 'base64-decoded', false);
            }
          }
        } else if (Array.isArray(value)) for (const item of value) walk(item, key, depth + 1);
        else if (value && typeof value === 'object') for (const [inner, item] of Object.entries(value)) walk(item, inner, depth + 1);
      };
      walk(parsed, undefined, 0);
    };
    const candidates = new Set([piece, ...piece.split(/[.:]/), ...(piece.includes('--') ? piece.split(/[.:]|--/) : [])]);
    for (const candidate of candidates) {
      if (!HeaderDecoder.isCandidate(candidate) && !HeaderDecoder.isHex(candidate)) continue;
      const text = this.text(candidate);
      if (text === undefined) continue;
      add(text, 'base64-decoded');
      jsonStrings(text, 'base64-decoded', true);
    }
    // JSON written as it is (Express's `j:` cookie, percent-decoded by headerPieces; a plain URL-encoded JSON cookie).
    const json = piece.startsWith('j:') ? piece.slice(2) : piece;
    if (/^\s*[[{]/.test(json) && json.length <= this.bytes) {
      this.charge(json.length);
      jsonStrings(json, 'JSON-decoded', true);
    }
    this.byPiece.set(piece, out);
    return out;
  }
}

/** The decoder of each answer's headers (keyed by its headers object, which both of its scans are given): one budget, one cache. */
const decoders = new WeakMap<object, HeaderDecoder>();

/** The texts a header piece holds in base64 or base64url (and JSON), with a budget of its own: see HeaderDecoder.textsOf. */
export function base64DecodedTexts(piece: string): string[] {
  return [...new Set(new HeaderDecoder().textsOf(piece).map((decoded) => decoded.text))];
}

/**
 * Review-ay F1: a long anti-phishing code of another user in a header. As the whole value of a member of JSON a header
 * holds, it is judged as in a body (no finding under a member the specification gives a meaning, a platform's `name`);
 * inside a longer text it is a finding, as a token is. As a whole header value or piece (no member gives it a meaning: 1.2
 * leaves headers open) it may be the public text it equals (reading round r29: a code that is the platform's name, which a
 * white-label deployment names in a header): no finding when the run saw it as the whole value of such a member
 * (isPublicValue), else, at the test's end (`final`), advised on: the run cannot tell a name from the code there, and
 * whether it saw the name depends on which answers of which tests came first. Not final: left to the rescan.
 */
function ownCodeInHeader(found: SecretFound, body: unknown, context: AnswerContext, members: ReadonlySet<string> | undefined, wholePiece: boolean, final: boolean): { finding?: string; advisory?: string } {
  const finding = verdict(found, body, context);
  if (finding === undefined) return {};
  if (members !== undefined) {
    for (const member of members) {
      const under = verdict(found, body, context, member, true);
      if (under !== undefined) return { finding: under };
    }
    return {};
  }
  if (!wholePiece) return { finding };
  if (isPublicValue(found.secret.value) || !final) return {};
  return { advisory: 'carries, as a whole value or piece, the anti-phishing code of another user than the one it answers, a value the run has not seen as public text (a platform\u2019s name, reading round r29): a leak unless the deployment names something so (review-ay F1), so not a security finding' };
}

/**
 * The security scan of an answer's headers (issue 27, white-box round wb27: a reset token in an X-Reset-Token, a Link or a
 * cookie; another user's token in a cookie; a TOTP secret in a header; a cookie of base64(email:password)), with the same
 * context as its body: each value whole and in its pieces (headerPieces), found by value only, never by a header's or a
 * cookie's name (an XSRF-TOKEN or a session cookie is ordinary). `body` is the answer's JSON body (undefined when it has
 * none): a token the answer issues to its caller (a login's Set-Cookie with its own Session) is the caller's, as in the
 * body. What the run itself configured (a --header value) and a short code (a word or digits that ordinary header words
 * may share) are no finding here. Findings name the header, never the value. A long anti-phishing code that is a whole
 * header value or piece is judged only in a `final` scan (the default; check.ts's rescan at the test's end): by then the run
 * may have seen it as a platform's name (review-ay F1).
 */
export function scanHeaders(headers: Readonly<Record<string, string>>, body: unknown, context: AnswerContext = {}, options: { final?: boolean } = {}): { findings: string[]; advisories: string[] } {
  const findings: string[] = [];
  const advisories: string[] = [];
  // One budget and one cache for the answer, kept for its rescan (review-ay S1).
  let decoder = decoders.get(headers);
  if (decoder === undefined) {
    decoder = new HeaderDecoder();
    decoders.set(headers, decoder);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string' || value === '') continue;
    const header = `header ${name.toLowerCase()}`;
    const seen = new Set<LearntSecret>();
    const pieces = headerPieces(value);
    const named = hashNamedPieces(name, value);
    // The pieces as written, then the text their base64 (or JSON) holds (review-aw F2, review-ay F4 F5), each found under its header too.
    const scanned: { text: string; at: string; named: boolean }[] = pieces.map((piece) => ({ text: piece, at: header, named: named.has(piece) }));
    const listed = new Set(pieces);
    // Review-ay F1: the members of decoded JSON each text was the whole value of, and the texts that are a whole piece otherwise.
    const wholeUnder = new Map<string, Set<string>>();
    const wholePieces = new Set(pieces.map((piece) => piece.trim()));
    for (const piece of pieces) {
      for (const decoded of decoder.textsOf(piece)) {
        if (decoded.key !== undefined) wholeUnder.set(decoded.text, (wholeUnder.get(decoded.text) ?? new Set()).add(decoded.key));
        else wholePieces.add(decoded.text.trim());
        const key = `${decoded.how}\u0000${decoded.text}`;
        if (listed.has(decoded.text) || listed.has(key)) continue;
        listed.add(key);
        scanned.push({ text: decoded.text, at: `${header} (${decoded.how})`, named: decoded.key !== undefined && isHashName(decoded.key) });
      }
    }
    for (const { text: piece, at, named: hashNamed } of scanned) {
      if (MASKED.test(piece)) continue;
      const format = pieceHashFormat(piece, hashNamed);
      if (format !== undefined) {
        const line = `${at} carries a password hash (${format} format)`;
        if (!findings.includes(line)) findings.push(line);
      }
      for (const found of secretsIn(piece)) {
        const { secret } = found;
        if (seen.has(secret)) continue;
        seen.add(secret);
        if (secret.kind === 'header-value' || secret.kind === 'configured') continue;
        if (secret.kind === 'own-code' && secret.value.length < SUBSTRING_SECRET_LENGTH) continue;
        if (secret.kind === 'own-code') {
          const code = ownCodeInHeader(found, body, context, wholeUnder.get(secret.value), wholePieces.has(secret.value), options.final !== false);
          if (code.finding !== undefined) findings.push(`${at} ${code.finding}`);
          if (code.advisory !== undefined) advisories.push(`${header} ${code.advisory}`);
          continue;
        }
        const finding = verdict(found, body, context);
        if (finding === undefined || (secret.kind === 'token' && isSharedConstant(secret))) continue;
        findings.push(`${at} ${finding}`);
      }
    }
  }
  if (decoder.stopped) advisories.push(`headers were not all decoded: their base64 and compressed values hold more than the scan reads of one answer (${HEADER_DECODING_LIMITS.bytes / 1024} KiB decoded, ${HEADER_DECODING_LIMITS.candidates} values), and what it did not read was not searched (review-ay S1)`);
  return { findings, advisories };
}

/**
 * The members a PHP `serialize()` text holds (`a:2:{s:8:"password";s:5:"hello";...}`, `O:4:"User":1:{...}`): each
 * container an object of its string keys (integer keys as their digits), its string values as they are, nested
 * containers as objects; undefined for a text that is none (round wb28: a user row serialised into a member).
 */
export function phpUnserialized(text: string): unknown {
  if (!/^(?:a|O):\d+:/.test(text) || text.length > NESTED_TEXT_MAX) return undefined;
  let at = 0;
  const value = (depth: number): unknown => {
    if (depth > 16) throw new Error('too deep');
    const kind = text[at];
    if (kind === 'N' && text[at + 1] === ';') {
      at += 2;
      return null;
    }
    if (kind === 's') {
      const head = /^s:(\d+):"/.exec(text.slice(at, at + 16));
      if (!head) throw new Error('string');
      const start = at + head[0].length;
      // The length counts UTF-8 bytes.
      const length = Number(head[1]);
      let end = start;
      for (let bytes = 0; bytes < length && end < text.length; end++) bytes += Buffer.byteLength(text[end]!, 'utf8');
      if (text.slice(end, end + 2) !== '";') throw new Error('string end');
      at = end + 2;
      return text.slice(start, end);
    }
    if (kind === 'i' || kind === 'd' || kind === 'b') {
      const scalar = /^[idb]:([^;]*);/.exec(text.slice(at, at + 64));
      if (!scalar) throw new Error('scalar');
      at += scalar[0].length;
      return scalar[1];
    }
    const open = /^(?:a:(\d+)|O:\d+:"[^"]*":(\d+)):\{/.exec(text.slice(at, at + 256));
    if (!open) throw new Error('container');
    at += open[0].length;
    const count = Number(open[1] ?? open[2]);
    const object: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
      const key = value(depth + 1);
      const member = value(depth + 1);
      object[String(key).replace(/^\u0000[^\u0000]*\u0000/, '')] = member;
    }
    if (text[at] !== '}') throw new Error('container end');
    at += 1;
    return object;
  };
  try {
    const parsed = value(0);
    return at === text.length ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The secrets a member's name is searched for (round wb28): credentials, never an anti-phishing code or what the run configured. */
const KEY_SECRET_KINDS: ReadonlySet<string> = new Set(['token', 'reset-token', 'password', 'never-travels']);

/** How many of a body's strings may be decoded (their bytes within HEADER_DECODING_LIMITS.bytes): a list of records holds many ids and IBANs, each a candidate. */
const BODY_DECODING_CANDIDATES = 4096;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The longest string read as a JSON or PHP serialize() text (as one header candidate may inflate to: HEADER_DECODING_LIMITS.perCandidate). */
const NESTED_TEXT_MAX = HEADER_DECODING_LIMITS.perCandidate;

/** `text` URL-decoded, or as it is when it is not URL-encoded. */
function safeUriDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A JSON text (an object or a list) a string member holds, parsed, nested at most 64 deep; undefined for any other string. */
function jsonText(text: string): unknown {
  if (!/^\s*[[{]/.test(text) || text.length > NESTED_TEXT_MAX) return undefined;
  let depth = 0;
  let deepest = 0;
  for (const c of text) {
    if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  if (deepest > 64) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The security scan of a JSON answer: its findings, and its advisories (shared constants under a token name), each naming a JSON pointer, never a value. */
export function scanCredentials(body: unknown, context: AnswerContext = {}): { findings: string[]; advisories: string[] } {
  const findings: string[] = [];
  const advisories: string[] = [];
  // Round wb28: the texts a string holds in base64, base64url or hex (and a JWT's segments), decoded within one budget per
  // answer, shared with its rescan (review-ay S1: the target is untrusted).
  let decoder = body !== null && typeof body === 'object' ? decoders.get(body) : undefined;
  if (decoder === undefined) {
    decoder = new HeaderDecoder(BODY_DECODING_CANDIDATES);
    if (body !== null && typeof body === 'object') decoders.set(body, decoder);
  }
  // Each line once (a Set beside each list: review-az S1, a hostile answer of 90,000 findings scanned in quadratic time).
  const lines = new Map<string[], Set<string>>([[findings, new Set()], [advisories, new Set()]]);
  const push = (list: string[], line: string) => {
    const seen = lines.get(list)!;
    if (seen.has(line)) return;
    seen.add(line);
    list.push(line);
  };
  /** `decoded`: how many decodings led here (a decoded text is decoded once more at most). */
  const walk = (value: unknown, pointer: string, depth: number, decoded: number): void => {
    if (depth > 64) return;
    if (typeof value === 'string') {
      if (value === '' || MASKED.test(value)) return;
      const at = pointer || '/';
      const member = memberOf(pointer);
      // Review-ay F1: the whole value of a member the specification gives a meaning is public text, in a header too.
      if (decoded === 0 && member !== undefined && SPECIFIED_VALUE_MEMBERS.has(member)) notePublicValue(value);
      const before = findings.length;
      const format = hashFormatOf(value, member !== undefined && isHashName(member));
      if (format !== undefined) push(findings, `${at} carries a password hash (${format} format)`);
      for (const found of secretsIn(value)) {
        if (found.secret.kind === 'header-value') {
          push(advisories, `${at} carries the value of a --header whose name names no credential (a gateway's setting such as a version or a tenant, redacted but no secret of the run), so not a security finding`);
          continue;
        }
        const finding = verdict(found, body, context, member, found.form === 'as is' && found.secret.value === value);
        if (finding === undefined) continue;
        if (found.secret.kind === 'token' && isSharedConstant(found.secret)) push(advisories, `${at} ${sharedConstantAdvice(found)}`);
        else push(findings, `${at} ${finding}`);
      }
      // Round wb28: a JSON text or a PHP serialize() text is read as members (a credential name inside counts), and a
      // string in base64, base64url or hex (whole, or a JWT's or a signed value's `.`-segments) as the text it holds.
      // A string already found as a secret's encoded form (its base64, hex) is not reported again for what it decodes to.
      if (findings.length > before) return;
      // Parsed once, within the decoding budget (review-az S2: a 1 MiB string of nested `[` cost 1.1 s and 122 MB a scan).
      if (value.length <= NESTED_TEXT_MAX && decoder.spend(value.length)) {
        const asJson = jsonText(value);
        const nested = asJson ?? phpUnserialized(value);
        if (nested !== undefined) walk(nested, `${at} (${asJson !== undefined ? 'JSON text' : 'PHP-serialized'})`, depth + 1, decoded);
      }
      if (decoded < 2 && value.length >= 16) {
        // Whole, its `.`-segments (a JWT), and (review-az D1) a URL's path segments and query values.
        const parts = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value.split(/[?&=/#]/).flatMap((part) => [part, safeUriDecoded(part)]) : [];
        for (const candidate of new Set([value, ...value.split('.'), ...parts])) {
          // A UUID (every id of the interface, 1.6) is no payload: decoding each would spend the budget on ids.
          if (UUID_TEXT.test(candidate) || (!HeaderDecoder.isCandidate(candidate) && !HeaderDecoder.isHex(candidate))) continue;
          const text = decoder.text(candidate);
          if (text === undefined || text === value) continue;
          walk(jsonText(text) ?? text, `${at} (decoded)`, depth + 1, decoded + 1);
        }
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${pointer}/${i}`, depth + 1, decoded));
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        // Round wb28: a secret used as a member's NAME (a pending reset keyed by its token) is carried as well; only one of
        // SUBSTRING_SECRET_LENGTH characters or more (a short password may be a word a member is named by: `password`).
        for (const found of key.length >= SUBSTRING_SECRET_LENGTH ? secretsIn(key).filter((item) => (item.text ?? item.secret.value).length >= SUBSTRING_SECRET_LENGTH) : []) {
          // Credentials only: an anti-phishing code may equal a name a member is keyed by (a platform's: review-az F3).
          if (!KEY_SECRET_KINDS.has(found.secret.kind)) continue;
          const finding = verdict(found, body, context);
          if (finding !== undefined && !(found.secret.kind === 'token' && isSharedConstant(found.secret))) push(findings, `${at} (its member name) ${finding}`);
        }
        // Only strings (and lists of codes): `options.guard.actions.login.password` is a boolean setting, `errors.password` a list of messages.
        // A remember-me token is a credential issued to the caller (issue 28), in the answer to its own login or reset alone.
        const issuedHere = context.issues === true && ISSUED_CREDENTIAL_NAMES.has(normalizedKey(key));
        // Under 8 characters a value is no password (4.2 and 4.4: "min 8"), no hash and no secret of the interface: a
        // settings flag `"password": "1"` (review-az F4); it is still redacted (helpers/net/redact.ts), never a finding.
        const shortText = typeof inner === 'string' && inner.length < 8;
        if (!issuedHere && isCredentialKey(key) && isCredentialValue(key, inner) && !shortText && !(typeof inner === 'string' && MASKED.test(inner))) push(findings, `${at} is a credential field (${key})`);
        else walk(inner, at, depth + 1, decoded);
      }
    }
  };
  walk(body, '', 0, 0);
  if (decoder.stopped) push(advisories, `the answer's strings were not all decoded: their base64 and hex values hold more than the scan reads of one answer (${HEADER_DECODING_LIMITS.bytes / 1024} KiB decoded, ${HEADER_DECODING_LIMITS.candidates} values), and what it did not read was not searched (review-ay S1)`);
  return { findings, advisories };
}
