import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mutation } from '../mutation.js';
import type { ReferenceContext } from '../context.js';
import { isSessionAnswer, parse, requestContexts, onForgotToken, setHeader } from './reading.js';
import type { Mutant } from './types.js';
import { ROUTE as URL } from './routes.js';

/**
 * White-box round wb28 (issue 27, "a rule is verified only where it was checked everywhere it applies"): deviations a
 * real backend could ship, written by a twenty-eighth reviewer who read the specification, docs/judging.md, suites/ and
 * helpers/ (helpers/check/security.ts: scanCredentials, scanHeaders, headerPieces, base64DecodedTexts, HASH_FORMATS and
 * SCHEME_INNER; helpers/check/check.ts: `send`, ScannedAnswer, sentCredentials, the rescan and RECORDED_JSON_CHARS;
 * helpers/net/secrets.ts: the forms each kind of secret is learnt in; helpers/net/interim.ts; helpers/net/http.ts;
 * helpers/spec/credential-names.ts; helpers/spec/instances.ts ACCESS_CLASSES; helpers/arrange/access.ts) and aimed, as the
 * brief asked, at the net round wb27's fixes widened: where the security scan is still shallow, and what the access
 * tables read of a refusal. Aimed at what rounds wb1 to wb27 left alone:
 * - secrets in a JSON body in a form the BODY scan does not open (scanCredentials walks string values only, whole or by
 *   substring; only the header scan decodes base64): base64 of a JSON object holding the password, an HS256 JWT whose
 *   payload holds the TOTP secret, base64url of a JSON holding the reset token, the reset token as an object KEY (keys
 *   are never scanned), a password hash inside a JSON text and inside a PHP-serialize()d string (a credential name is
 *   read only as a member of the answer's own JSON);
 * - password hashes in formats HASH_FORMATS does not name, under names CREDENTIAL_NAMES does not hold: the service's own
 *   stored scrypt form (salt:hex:N, the reference's), MySQL 4.1 PASSWORD() (*40 hex), Atlassian {PKCS5S2}, Joomla
 *   md5:salt, a PostgreSQL SCRAM-SHA-256 verifier, a Keycloak credential (secretData JSON text), and the password in hex;
 * - headers in forms scanHeaders does not open: a Rails 7 cookie-store value (base64 JSON whose _rails.message is base64
 *   JSON, URL-encoded, then --HMAC), gzip (not zlib) in base64url, hex of a JSON object;
 * - parts of an answer the scan never reads: a 103 Early Hints before the final answer (helpers/net/interim.ts drops
 *   every interim answer before undici sees it), HTTP trailers (helpers/net/http.ts never reads them), and an answer over
 *   RECORDED_JSON_CHARS (256 Ki characters), which the rescan at the test's end skips, so the reset token learnt after
 *   forgot-password answered is never looked for in it;
 * - per-user isolation in a refusal's BODY: the access tables (helpers/arrange/access.ts) judge a refusal by its status and
 *   its error member; a 403/409 to another user's token (bank list, card show, bonus list, bonus summary, bank delete,
 *   coin show) or a 401 (bank show, card list) that carries the path user's rows in `data` passes.
 * Each breaks a rule that holds under every reading; its description quotes the sentence it breaks. All rewrite an answer
 * as sent (body, headers, an interim answer, a trailer); none needs a deviation of the reference's modules.
 *
 * Score before fixes: caught 1 of 30 (30 written, none moved to NOT_DEVIATIONS). `nice -n 19 node bin/mutants.mjs
 * --shards 1 --mutant NAME ...` in three batches of 10 (0, 0 and 1 caught); the 29 survivors again with --no-hints (three
 * batches): none caught; then the whole suite (`nice -n 19 node bin/conformance.mjs run --mutant NAME`) against each of the
 * 29: conformant every time, 700 passed, 0 failed, 0 skipped, 0 security findings, with the one advisory the unmutated
 * reference gets too (a JWT naming one user by email and another by id). No failure cited another clause, so none was
 * re-cited.
 * Every mutant was first seen to bite by a throwaway script (not kept) that started the reference with it on a loopback
 * port and sent raw HTTP/1.1 requests over a socket (so that interim answers and trailers show): a password login with
 * data.remember (base64 of {email,password}) and a Set-Cookie remember=<hex of the same JSON>; a 2FA login with
 * data.mfaTicket (the TOTP secret in mfa.seed of its payload); a login with Set-Cookie _app_session (Rails 7) holding the
 * previous login's token; data.credential.secretData (Keycloak); a forgot-password 200 with data.state (base64url JSON
 * with the token), data.pending keyed by the token, a 103 Early Hints whose Link holds the reset link, a chunked answer
 * whose trailer x-reset-link holds it, Set-Cookie _app_session (Rails 7) and reset_state (gzip) holding it, and data.preview
 * of 300 Ki characters with it; bonus users with profile (JSON text with password_hash), pass (the stored salt:hex:N),
 * legacyHash (Joomla), meta.legacy (hex of the password); cards with owner (PHP-serialized with password; {PKCS5S2}) and
 * a trailer x-session-token of another user's login; banks with owner.pass (*MySQL41) and a 103 whose Link holds another
 * user's token; coins with holder.verifier (SCRAM-SHA-256); the 409 of the bank list, card show, bonus list, summary and
 * bank delete to another user's token, and the 401 of the bank show and card list, each with `data` the path user's rows.
 *
 * Caught (1): wb28-coin-show-foreign-refusal-carries-user-row, by the coin show's another-user access test ("answers 403
 * or 409 with This action is unauthorized for another user", +3), through the security scan: the user row's
 * password_hash and totp_secret members are credential names. The access table itself does not read the refusal's body:
 * the six siblings whose rows hold no credential name (bank, card and bonus rows) all survive.
 *
 * Survivors (29), with the shallow check that let each pass and the check that would catch it:
 * - The body scan opens no encoding (4): wb28-login-remember-blob-base64-json, wb28-2fa-login-mfa-ticket-carries-totp-secret,
 *   wb28-forgot-answer-state-base64-json, wb28-bonus-user-meta-password-hex. helpers/check/security.ts scanCredentials
 *   calls secretsIn(value) on each string, which finds a learnt secret whole, by substring, or in the forms learnt for its
 *   kind (base64 of the password ALONE, of `email:password`; the TOTP secret's bytes; the reset token's bytes); the
 *   base64/JWT decoding that scanHeaders does (base64DecodedTexts) is never run on a body string, and the password has no
 *   hex form (passwordForms: digests and base64 only). Would catch: in scanCredentials, run base64DecodedTexts on every
 *   string of 16 characters or more (and on each `.`-segment, which covers a JWT's payload) and scan each decoded text and
 *   each string of a decoded JSON with the same verdict ("(base64-decoded)" in the pointer), and decode a string that is
 *   even-length hex to UTF-8 text the same way; add the password's hex (both cases) to passwordForms. Self-tests in
 *   test/security-findings.test.ts with a body string of base64 JSON holding a password, a JWT holding a TOTP secret,
 *   base64url JSON holding a reset token, and negative cases (an image data URI, a UUID, a Session id).
 * - Object keys are never scanned (1): wb28-forgot-answer-keyed-by-reset-token. scanCredentials' walk looks at a key only
 *   through isCredentialKey (its NAME), never secretsIn(key). Would catch: run secretsIn on every key as on a string
 *   value (pointer `/data/pending/<key>` named "whose member name carries ..."), so a token or password used as a key is
 *   found; a key is never a hash format question (no hashFormatOf on keys).
 * - JSON text and serialized strings are not read as members (2): wb28-bonus-user-profile-json-text-with-hash,
 *   wb28-card-owner-php-serialized-with-hash. A credential NAME counts only as a member of the answer's own JSON; a string
 *   holding a JSON object ({"password_hash": ...}) or a PHP serialize() string (s:8:"password";s:N:"...") is one value,
 *   and the hash inside it is the reference's own format, which no pattern names. Would catch: in scanCredentials, a
 *   string that starts with `{` or `[` and parses as JSON is walked as a nested answer (depth-bounded, same pointer plus
 *   "(JSON text)"); a string that parses as PHP serialize() (`a:N:{...}`, `O:N:"Class":N:{...}`) gives its s:N:"key"
 *   / value pairs to the same walk. Self-tests with both.
 * - Hash formats not named and names not held (6): wb28-bonus-user-carries-stored-scrypt-hash (salt:hex:N, under pass),
 *   wb28-bank-owner-carries-mysql41-hash, wb28-card-owner-carries-atlassian-pkcs5s2, wb28-bonus-user-carries-joomla-md5-salt,
 *   wb28-coin-list-holder-scram-sha256, wb28-session-user-keycloak-credential. HASH_FORMATS lacks MySQL 4.1
 *   (`^\*[0-9A-F]{40}$`), Joomla (`^[0-9a-f]{32}:[A-Za-z0-9./]{16,32}$`), PostgreSQL SCRAM
 *   (`^SCRAM-SHA-256\$\d+:[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}:[A-Za-z0-9+/]+={0,2}$`) and md5 (`^md5[0-9a-f]{32}$`);
 *   SCHEME_INNER lacks `pkcs5s2` (base64 of 48 bytes: 16 salt, 32 key) and Dovecot's `{BLF-CRYPT}`, `{SHA512-CRYPT}`,
 *   `{SHA256-CRYPT}`, `{ARGON2ID}` wrapping crypt strings; and no format can name a service's OWN scheme (the reference's
 *   `salt:hex:N` is none of them), while CREDENTIAL_NAMES holds neither `pass`, `pwd`, `passwd`, `pwhash`, `secretdata`,
 *   `credential` nor `legacyhash`/`verifier`. Would catch: add those formats and schemes (self-tests with a value of each
 *   and the negative cases the file keeps); add `pass`, `passwd`, `pwd`, `pwhash`, `passhash`, `secretdata` to
 *   CREDENTIAL_NAMES; and, for the service's own format, learn the STORED hash: the `user` state may answer an optional
 *   `passwordHash` (docs/provider-states.md, additive) which helpers/net/secrets.ts learns as a `never-travels` secret,
 *   found by value wherever it appears (the reference's hook answers it).
 * - Header encodings not opened (4): wb28-forgot-rails-cookie-with-reset-token, wb28-login-rails-cookie-of-previous-login,
 *   wb28-forgot-gzip-cookie-with-reset-token, wb28-login-remember-cookie-hex-json. headerPieces splits a raw cookie value
 *   at `=` BEFORE URL-decoding it, so a Rails value (`<base64 with %3D padding>--<hmac>`) decodes to one piece that the
 *   base64 test refuses (`=` inside, `--hmac` after); base64DecodedTexts inflates zlib (0x78) only, not gzip (0x1f 0x8b);
 *   it decodes one level (a base64 string inside the decoded JSON, Rails' _rails.message, is not decoded again); and it
 *   never decodes hex. Would catch: in headerPieces, split the URL-decoded piece again (at `--`, `=`, `.`, `|`); in
 *   base64DecodedTexts, gunzip a 0x1f8b buffer as it inflates zlib, decode hex pieces (even length, 32 characters or
 *   more), and recurse (depth 3) into the strings of a decoded JSON that are themselves base64. Self-tests with a Rails 7
 *   cookie, a gzip cookie and a hex JSON cookie (and a random hex session id, a signed Laravel cookie as negatives).
 * - Interim answers and trailers never scanned (4): wb28-forgot-reset-link-in-early-hints,
 *   wb28-bank-list-early-hints-of-last-login, wb28-forgot-reset-link-in-trailer, wb28-card-answers-trailer-of-last-login.
 *   helpers/net/interim.ts readThroughInterim drops every 1xx answer's bytes before undici parses the final answer, and
 *   helpers/net/http.ts reads `headers` but never the `trailers` undici fills after the body. Would catch: interim.ts
 *   parses each dropped interim answer's header fields and hands them (per socket, to the request being answered) to
 *   http.ts, which adds them to the ApiResponse (`interimHeaders`), and http.ts copies undici's `trailers` after reading the
 *   body (`trailers`); check.ts `send` scans both with scanHeaders and the answer's context, named "interim 103 header
 *   link" and "trailer x-...", in the rescan too. Self-tests against a local server that sends a 103 with a Link and a
 *   chunked answer with a trailer.
 * - Large answers skip the rescan (1): wb28-forgot-answer-mail-preview-over-256k. check.ts `send` keeps for the rescan at
 *   the test's end only answers of at most RECORDED_JSON_CHARS (issue 29) and notes the others; the reset token is learnt
 *   only when the test asks `password-reset.token`, after the forgot answer was scanned. Would catch: keep the
 *   ScannedAnswer of a large answer for the rescan as the list of its string values of SUBSTRING_SECRET_LENGTH characters
 *   or more that are no base64 of binary (drop data: URIs and long runs of base64 that decode to no text) up to a bound
 *   per test, or keep whole the answers to forgot-password (one or two a test), the one route whose secret is learnt
 *   later.
 * - Refusal bodies not read for another user's records (7): wb28-bank-list-foreign-refusal-carries-banks,
 *   wb28-card-show-foreign-refusal-carries-card, wb28-bonus-list-foreign-refusal-carries-bonuses,
 *   wb28-summary-foreign-refusal-carries-bonuses, wb28-bank-delete-foreign-refusal-carries-bank,
 *   wb28-bank-show-401-carries-bank, wb28-card-list-401-carries-cards. helpers/arrange/access.ts judges each row by its
 *   status and the error member (`message` / `error`); a refusal whose body also carries `data` with the path user's rows
 *   passes, as extra members of an error body are not read. Would catch (one check in the access table, every route and
 *   row that expects 401, 403 or 409): the refusal's body holds none of the owner's record values the test arranged (the
 *   ids of the records other than the one the path names, IBANs, swifts, holder names, bank names, last four digits,
 *   bonus and order ids, amounts of 16 characters or more) anywhere in its JSON, and no `data` member holding an object or
 *   a list of objects; for a show or delete, the named record's fields other than its id (the path's own text) likewise.
 *
 * Closed after the round (the lead; taken out of OPEN, registered; each killed by `node bin/mutants.mjs --shards 2
 * --no-hints --mutant NAME`): 3 by fix-ay's header decoding (review-ay F4: candidates split at `:` and `--`, gzip inflated,
 * one nested base64 level): the two Rails cookies and the gzip cookie; the other 14 in helpers/check/security.ts,
 * helpers/net/secrets.ts and helpers/spec/credential-names.ts:
 * - scanCredentials decodes a body string (whole, and its `.`-segments: a JWT's payload) in base64, base64url or hex
 *   with the header scan's decoder and budget (one per answer, shared with its rescan; UUIDs skipped), and walks what it
 *   holds as members (pointer `... (decoded)`); a string that is a JSON text or a PHP serialize() text is walked as
 *   members too (`(JSON text)`, `(PHP-serialized)`), so a credential name inside it counts; a string already found as a
 *   secret's encoded form is not reported again for what it decodes to: the remember blob, the MFA ticket (a JWT), the
 *   forgot `state`, the profile JSON text, the PHP-serialized owner, the Keycloak credential;
 * - a member NAME of 16 characters or more is looked up as a value is (the pending reset keyed by its token);
 * - the password's UTF-8 bytes in hex, both cases (passwordForms), and the header decoder reads hex of 32 digits or more
 *   as the text it writes (the hex password, the hex JSON remember cookie);
 * - HASH_FORMATS names MySQL 4.1 and PostgreSQL SCRAM-SHA-256; SCHEME_INNER Atlassian's {PKCS5S2} and Dovecot's crypt
 *   schemes; Joomla's md5:salt and PostgreSQL's md5 count under a hash name only (NAMED_ONLY_FORMATS); CREDENTIAL_NAMES
 *   holds pwhash, passhash and secretData (Keycloak).
 * - Reopened after review-az F1/F2: wb28-bonus-user-carries-stored-scrypt-hash (the service's own salt:hex:N under
 *   `pass`) was first caught by `pass` as a credential name, which made an NFT's membership `pass` and a discount status
 *   `pwd` findings; those names were taken out, and no named format tells a service's own scheme. Would catch: an
 *   optional `passwordHash` of the `user` state (additive), learnt and found by value.
 * Self-tests: test/security-findings.test.ts "secrets inside the strings of a body ... (round wb28)", with the negative
 * cases (ids, IBANs, random tokens, hex digests, JSON text of no secret, base64 of plain words).
 * Closed after the round (fix-wb28a, registered; each killed by `nice -n 19 node bin/mutants.mjs --shards 1 --no-hints
 * --mutant NAME`, then again with --write-hints):
 * - The refusal bodies (7): wb28-bank-list-foreign-refusal-carries-banks, wb28-card-show-foreign-refusal-carries-card,
 *   wb28-bonus-list-foreign-refusal-carries-bonuses, wb28-summary-foreign-refusal-carries-bonuses,
 *   wb28-bank-delete-foreign-refusal-carries-bank, wb28-bank-show-401-carries-bank, wb28-card-list-401-carries-cards, by
 *   each route's access-table test. One check, expectRefusalWithholds (helpers/arrange/refusal-records.ts: access.ts
 *   already imports invariants.ts, so it has a module of its own), called at every refusal of the access tables
 *   (accessRowsCheck's another-user rows, 403/409, and credential rows, 401; expectNoForeignRecord and its ?user_id= twin,
 *   403/404/409; unauthenticatedCheck, 401): the body holds none of the values that name what the row arranged for the
 *   path's user (record ids but the one the path names, IBAN, SWIFT, bank and holder names, card alias, a card's last four
 *   digits beside its alias, bonus ids), as a JSON string or member name or in a body that is not JSON, and no `data`
 *   holding a record (an object with an id) or a list of objects. Extra members (a request id, a code, a trace id,
 *   `data: null`, `errors: {}`, Laravel's debug members) stay free; self-tests in test/access-refusals.test.ts.
 * - Interim answers and trailers (4): wb28-forgot-reset-link-in-early-hints, wb28-bank-list-early-hints-of-last-login,
 *   wb28-forgot-reset-link-in-trailer, wb28-card-answers-trailer-of-last-login. helpers/net/interim.ts keeps the interim
 *   answers it reads through (at most MAX_KEPT_INTERIM = 4 a request, each within MAX_INTERIM_BYTES) and hands them to
 *   the request whose final answer undici parses next (interimRecorder on dispatcherFor's agent, the request's opaque an
 *   InterimBox); helpers/net/http.ts keeps undici's trailers (64 fields, 16 KiB a value); check.ts `send` scans both with
 *   scanHeaders, named `<field> (interim <status>)` and `<field> (trailer)`, on arrival and in the rescan. Self-tests in
 *   test/interim.test.ts (a 103 with a Link, byte by byte, a long run of 102, a trailer, through a CONNECT proxy) and
 *   test/security-findings.test.ts.
 * - The large answer (1): wb28-forgot-answer-mail-preview-over-256k. check.ts keeps a large answer for the rescan too
 *   (keptForRescan: its JSON, strings and member names within LARGE_RESCAN_CHARS = 1 Mi characters a test in all, data:
 *   URIs dropped; the run notes an answer the budget cut). Self-tests in test/security-findings.test.ts.
 * Fairness: the groups banks, cards, bonuses, balances, authentication and password conformant on the reference (0
 * failed, 0 security findings; authentication's one advisory as before), and 40 allowed readings that rewrite refusals,
 * error bodies, headers, framing or interim answers conformant (`--shards 1`, batches of 10): allowed-r1-http-chunked,
 * -r1-http-close-delimited, -r7-chunked-with-trailers, -r7-early-hints, -r13-interim-100-continue,
 * -r30-interim-102-processing, -r15-http-chunk-extensions, -r29-card-image-preload-link-presigned,
 * -r16-signed-answers-digest-headers, -r27-fapi-interaction-id-and-jws-signature, -r29-session-fingerprint-header,
 * -review-ay-base64-framework-headers, -r8-chunks-split-inside-utf8, -r23-error-bodies-empty-errors-member,
 * -r25-error-bodies-trace-id-member, -r29-laravel-debug-error-bodies, -r4-not-found-model-class, -r1-foreign-record-409,
 * -bank-delete-foreign-bank-not-found, -r3-bank-delete-idempotent, -r8-record-lookup-before-owner,
 * -r21-record-shows-403-lists-409, -r1-bank-other-user-403, -r2-records-unauthorized-403,
 * -r7-bonus-summary-unauthorized-409, -r10-envelope-success-flag, -r1-message-texts-other-words, -r4-errors-problem-json,
 * -r11-messages-in-german, -r2-unknown-user-not-found, -r5-bank-delete-unknown-403, -r25-inactive-show-unknown-record-404,
 * -r1-balances-other-user-409, -r15-unknown-path-401-before-routing, -r11-malformed-id-not-found-before-auth,
 * -r18-malformed-record-id-400, -review-ak-list-thumbnail-show-large-image, -r24-coin-meta-image-sizes,
 * -r6-error-bodies-data-null, -r30-login-answers-echo-sent-email; then 10 more of the 401/403/409 readings, conformant:
 * allowed-bank-create-unauthorized-409, -o-inactive-403-as-error-member, -r2-balances-unauthorized-409,
 * -r2-www-authenticate-on-401, -r7-unknown-route-gateway-403, -review-aw-401-names-refused-bearer,
 * -review-ax-401-names-token-sent-elsewhere, -r12-password-invalid-bearer-401, -r13-jwt-missing-token-401,
 * -login-malformed-answers-403 (50 of the 237 the brief's filter lists). (allowed-r1-http-close-delimited and
 * allowed-r7-chunked-with-trailers in one batch crash the reference, on main too: Node's ERR_HTTP_TRAILER_INVALID; each
 * was run apart.)
 * Still open: the 17 survivors of helpers/check/security.ts and helpers/net/secrets.ts (the lead's).
 */

// --- plumbing ----------------------------------------------------------------------------------------------------------

const paramsOf = (reply: FastifyReply) => (reply.request.params ?? {}) as Record<string, string | undefined>;
const bodyOf = (reply: FastifyReply) => (reply.request.body ?? {}) as Record<string, unknown>;
const key = (value: unknown) => String(value ?? '').toLowerCase();

/**
 * A mutation with a memory per reference server, found through the reference context of each request (the module
 * plugins answer under encapsulated instances, so `reply.server` differs between routes of one server).
 */
function withMemory<T>(init: () => T, wire: (memory: T, answer: { method: string; url: string; status: number; payload: string }, reply: FastifyReply, ctx: ReferenceContext) => string | undefined): Mutation {
  const ctxs = requestContexts();
  const memories = new WeakMap<object, T>();
  return {
    request: (request, ctx) => ctxs.see(request, ctx),
    wire(answer, reply) {
      const ctx = ctxs.of(reply);
      if (!ctx) return undefined;
      let memory = memories.get(ctx.db);
      if (memory === undefined) memories.set(ctx.db, (memory = init()));
      return wire(memory, answer, reply, ctx);
    },
  };
}

const RESET_PAGE = 'https://app.example.test/password/reset';

/** A forgot-password 200 that also shows the e-mailed token somewhere (`show` edits the body in place or sets headers). */
function forgotShows(show: (reply: FastifyReply, body: any, token: string, email: string) => boolean): Mutation {
  return onForgotToken((answer, reply, token, email) => {
    const body = parse(answer.payload);
    if (!body || typeof body !== 'object') return undefined;
    return show(reply, body, token, email) ? JSON.stringify(body) : undefined;
  });
}

/**
 * JSON text in which none of `secrets` starts at a multiple of 3 (leading blanks added, which JSON allows): its base64 then
 * never holds a secret's own base64 by chance of alignment, as a real encoder's output would not in two cases of three.
 */
function unaligned(value: unknown, secrets: readonly string[]): string {
  let text = JSON.stringify(value);
  const offsets = () => secrets.flatMap((secret) => {
    const at = text.indexOf(secret);
    if (at < 0) return [];
    const bar = secret.indexOf('|');
    return bar > 0 ? [at, at + bar + 1] : [at];
  });
  for (let i = 0; i < 6 && offsets().some((at) => at % 3 === 0); i++) text = ` ${text}`;
  return text;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** A Rails 7 cookie-store value: base64 of `{"_rails":{"message": base64(payload JSON), ...}}`, URL-encoded, `--` and an HMAC. */
function railsCookie(name: string, payload: unknown, secrets: readonly string[]): string {
  const inner = b64(unaligned(payload, secrets));
  const outer = b64(JSON.stringify({ _rails: { message: inner, exp: null, pur: `cookie.${name}` } }));
  const digest = createHmac('sha1', 'secret_key_base').update(outer).digest('hex');
  return `${name}=${encodeURIComponent(outer)}--${digest}; path=/; HttpOnly; SameSite=Lax`;
}

/** The passwords the password logins sent, by the user their Session names, and the last tokens issued (per server). */
interface Seen {
  passwords: Map<string, string>;
  last?: { id: string; userId: string };
  previous?: { id: string; userId: string };
}
function noteLogin(seen: Seen, answer: { status: number; url: string; payload: string }, reply: FastifyReply): void {
  const data = parse(answer.payload)?.data;
  if (typeof data?.id !== 'string' || typeof data?.userId !== 'string') return;
  const password = bodyOf(reply).password;
  if (typeof password === 'string') seen.passwords.set(key(data.userId), password);
  if (seen.last?.id !== data.id) {
    seen.previous = seen.last;
    seen.last = { id: data.id, userId: data.userId };
  }
}

/** Each record of a single-record or list answer (`data`, `data.coins`). */
function eachRecord(body: any, change: (record: any) => void): boolean {
  const data = body?.data;
  const list = Array.isArray(data) ? data : Array.isArray(data?.coins) ? data.coins : data && typeof data === 'object' ? [data] : [];
  let changed = false;
  for (const record of list) {
    if (record && typeof record === 'object') {
      change(record);
      changed = true;
    }
  }
  return changed;
}

/** The stored password hash of a user (the reference's own scrypt form `salt:hex:N`). */
function storedHash(ctx: ReferenceContext, userId: string | undefined): string | undefined {
  if (!userId) return undefined;
  const row = ctx.db.prepare('SELECT password_hash FROM users WHERE id = ? COLLATE NOCASE').get(userId) as { password_hash: string } | undefined;
  return row?.password_hash;
}

/**
 * The successful answers of `routes` carry, on each record, something `add` makes of the path user's password (as its
 * last password login sent it) and stored hash: the user object of a bonus, an `owner` of a bank or card, a `holder`.
 */
function recordsCarry(routes: readonly string[], add: (record: any, user: { id: string; password?: string; hash?: string }) => void): Mutation {
  return withMemory<Seen>(() => ({ passwords: new Map() }), (seen, answer, reply, ctx) => {
    if (isSessionAnswer(answer as any)) {
      noteLogin(seen, answer, reply);
      return undefined;
    }
    if ((answer.status !== 200 && answer.status !== 201) || !routes.includes(answer.url)) return undefined;
    const userId = paramsOf(reply).user;
    if (!userId) return undefined;
    const password = seen.passwords.get(key(userId));
    const hash = storedHash(ctx, userId);
    const body = parse(answer.payload);
    const user = { id: userId, ...(password !== undefined ? { password } : {}), ...(hash !== undefined ? { hash } : {}) };
    return eachRecord(body, (record) => add(record, user)) ? JSON.stringify(body) : undefined;
  });
}

/** The user object of each bonus (2.6) gets `change` applied. */
const bonusUsersCarry = (change: (user: any, owner: { id: string; password?: string; hash?: string }) => void) =>
  recordsCarry([URL.bonusList, URL.bonusOne], (record, owner) => {
    if (record.user && typeof record.user === 'object') change(record.user, owner);
  });

// --- hash formats the scan does not name --------------------------------------------------------------------------------

const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest();
/** MySQL 4.1+'s PASSWORD(): `*` and the upper-case hex of SHA1(SHA1(password)). */
const mysql41 = (password: string) => `*${sha1(sha1(password)).toString('hex').toUpperCase()}`;
/** Atlassian's {PKCS5S2}: base64 of a 16-byte salt and PBKDF2-HMAC-SHA1 (10000 rounds, 32 bytes). */
function atlassianPkcs5s2(password: string): string {
  const salt = randomBytes(16);
  return `{PKCS5S2}${Buffer.concat([salt, pbkdf2Sync(password, salt, 10000, 32, 'sha1')]).toString('base64')}`;
}
/** Joomla 1.5 to 2.5: md5(password + salt) `:` a 32-character salt. */
function joomlaMd5(password: string): string {
  const salt = randomBytes(16).toString('hex');
  return `${createHash('md5').update(password + salt).digest('hex')}:${salt}`;
}
/** PostgreSQL's SCRAM-SHA-256 verifier (pg_authid.rolpassword). */
function scramSha256(password: string): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, 4096, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$4096:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
/** Keycloak's password credential: secretData and credentialData, two JSON texts (PBKDF2-SHA256, 27500 rounds). */
function keycloakCredential(password: string): { type: string; secretData: string; credentialData: string } {
  const salt = randomBytes(16);
  const value = pbkdf2Sync(password, salt, 27500, 64, 'sha256').toString('base64');
  return {
    type: 'password',
    secretData: JSON.stringify({ value, salt: salt.toString('base64'), additionalParameters: {} }),
    credentialData: JSON.stringify({ hashIterations: 27500, algorithm: 'pbkdf2-sha256', additionalParameters: {} }),
  };
}

// --- secrets in a JSON body, in forms the body scan does not open -------------------------------------------------------

/** A password login's Session carries `change` of the e-mail and password it was sent. */
function passwordLoginCarries(change: (data: any, email: string, password: string) => void): Mutation {
  return {
    wire(answer, reply) {
      if (!isSessionAnswer(answer) || answer.url !== URL.login) return undefined;
      const { email, password } = bodyOf(reply);
      if (typeof email !== 'string' || typeof password !== 'string') return undefined;
      const body = parse(answer.payload);
      if (!body?.data || typeof body.data !== 'object') return undefined;
      change(body.data, email, password);
      return JSON.stringify(body);
    },
  };
}

/** A 2FA login's Session carries an MFA ticket: a JWT (HS256) whose payload holds the account's TOTP secret. */
function twoFactorTicketCarriesSecret(): Mutation {
  const ctxs = requestContexts();
  return {
    request: (request, ctx) => ctxs.see(request, ctx),
    wire(answer, reply) {
      if (!isSessionAnswer(answer) || answer.url !== URL.login) return undefined;
      const body = bodyOf(reply);
      const ctx = ctxs.of(reply);
      if (!ctx || typeof body.email !== 'string' || body['2fa'] === undefined || body['2fa'] === null || body['2fa'] === '') return undefined;
      const row = ctx.db.prepare('SELECT totp_secret FROM users WHERE email = ? COLLATE NOCASE').get(body.email) as { totp_secret: string | null } | undefined;
      if (!row?.totp_secret) return undefined;
      const answerBody = parse(answer.payload);
      if (!answerBody?.data || typeof answerBody.data !== 'object') return undefined;
      const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
      const payload = b64url(unaligned({ sub: answerBody.data.userId, mfa: { method: 'totp', seed: row.totp_secret }, iat: Math.floor(Date.now() / 1000) }, [row.totp_secret]));
      const signature = createHmac('sha256', 'app-key').update(`${header}.${payload}`).digest('base64url');
      answerBody.data.mfaTicket = `${header}.${payload}.${signature}`;
      return JSON.stringify(answerBody);
    },
  };
}

// --- answers the scan never reads: interim answers, trailers, answers past the rescan's bound ---------------------------

/** A 103 Early Hints before the final answer, with these headers (Cloudflare's Early Hints replays an answer's Link headers so). */
function earlyHints(reply: FastifyReply, headers: Record<string, string>): void {
  try {
    reply.raw.writeEarlyHints(headers);
  } catch {
    // An injected request (no socket) has no interim answers.
  }
}

/** A trailer field after a chunked body. */
function trailer(reply: FastifyReply, name: string, value: string): void {
  reply.trailer(name, async () => value);
}

/** Every 200 of `routes` is preceded by a 103 whose Link preloads the last login's home with its token (an edge's early-hints cache keyed by path template). */
function earlyHintsOfLastLogin(routes: readonly string[]): Mutation {
  return withMemory<Seen>(() => ({ passwords: new Map() }), (seen, answer, reply) => {
    if (isSessionAnswer(answer as any)) {
      noteLogin(seen, answer, reply);
      return undefined;
    }
    if (answer.status !== 200 || !routes.includes(answer.url) || !seen.last) return undefined;
    if (key(seen.last.userId) === key(paramsOf(reply).user)) return undefined;
    earlyHints(reply, { link: `</api/v1/user/${seen.last.userId}/balances?api_token=${encodeURIComponent(seen.last.id)}>; rel=preload; as=fetch` });
    return undefined;
  });
}

/** Every 200 of `routes` ends with a trailer holding the last access token a login issued (a tracing middleware's trailer). */
function trailerOfLastLogin(routes: readonly string[]): Mutation {
  return withMemory<Seen>(() => ({ passwords: new Map() }), (seen, answer, reply) => {
    if (isSessionAnswer(answer as any)) {
      noteLogin(seen, answer, reply);
      return undefined;
    }
    if (answer.status !== 200 || !routes.includes(answer.url) || !seen.last) return undefined;
    if (key(seen.last.userId) === key(paramsOf(reply).user)) return undefined;
    trailer(reply, 'x-session-token', seen.last.id);
    return undefined;
  });
}

/** Every login answer sets a Rails 7 session cookie whose message holds the token of the login answered before it. */
function loginRailsCookieOfPreviousLogin(): Mutation {
  return withMemory<Seen>(() => ({ passwords: new Map() }), (seen, answer, reply) => {
    if (!isSessionAnswer(answer as any)) return undefined;
    noteLogin(seen, answer, reply);
    const previous = seen.previous;
    if (!previous || key(previous.userId) === key(parse(answer.payload)?.data?.userId)) return undefined;
    setHeader(reply, 'set-cookie', railsCookie('_app_session', { session_id: randomBytes(16).toString('hex'), warden_token: previous.id }, [previous.id]));
    return undefined;
  });
}

// --- records of another user in refusals --------------------------------------------------------------------------------

/** The user an access token names (by its numeric id; the answer is a refusal already, its secret is not the point). */
function tokenUser(ctx: ReferenceContext, request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const bearer = typeof header === 'string' ? header.replace(/^Bearer\s+/i, '') : '';
  const id = Number(bearer.split('|')[0]);
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const row = ctx.db.prepare('SELECT user_id FROM access_tokens WHERE id = ?').get(id) as { user_id: string } | undefined;
  return row?.user_id;
}

/**
 * A refusal (`statuses`) of `route` carries in `data` the rows the request named, loaded before the refusal (the rows of
 * the path user's `table`, or the one row `param` names): a policy check run after the query, its error body built from
 * the loaded models. Only when the path user is not the caller (`foreignOnly`), or for any refusal.
 */
function refusalCarriesRows(route: string, statuses: readonly number[], table: string, param: string | undefined, foreignOnly: boolean, method = 'GET'): Mutation {
  const ctxs = requestContexts();
  return {
    request: (request, ctx) => ctxs.see(request, ctx),
    wire(answer, reply) {
      if (answer.method !== method || answer.url !== route || !statuses.includes(answer.status)) return undefined;
      const ctx = ctxs.of(reply);
      const params = paramsOf(reply);
      if (!ctx || !params.user) return undefined;
      if (foreignOnly) {
        const caller = tokenUser(ctx, reply.request);
        if (!caller || key(caller) === key(params.user)) return undefined;
      }
      const rows = param
        ? (ctx.db.prepare(`SELECT * FROM ${table} WHERE id = ? COLLATE NOCASE`).all(params[param] ?? '') as unknown[])
        : (ctx.db.prepare(`SELECT * FROM ${table} WHERE ${table === 'users' ? 'id' : 'user_id'} = ? COLLATE NOCASE`).all(params.user) as unknown[]);
      if (rows.length === 0) return undefined;
      const body = parse(answer.payload);
      if (!body || typeof body !== 'object') return undefined;
      body.data = param ? rows[0] : rows;
      return JSON.stringify(body);
    },
  };
}

// --- the round ----------------------------------------------------------------------------------------------------------

const SECURITY = 'docs/judging.md, security findings';
const ISOLATION = '5.6 ("Access to another user\u2019s resources, or an unauthorized action, yields 403 or 409")';

const written: Mutant[] = [
  // --- secrets in a JSON body in a form the body scan does not open (base64 of JSON, a JWT, JSON text, object keys) ---
  // white-box round wb28
  { name: 'wb28-login-remember-blob-base64-json', clause: '4.2', group: 'authentication', description: `section 4.2 (the password is a credential the client sends) and ${SECURITY} ("a password the run knows, by its value, in any answer ... its base64"): a password login\u2019s Session carries data.remember, base64 of the JSON {email, password} it was sent (a "remember me" blob a SPA stores)`, mutation: passwordLoginCarries((data, email, password) => { data.remember = b64(unaligned({ email, password, remember: true }, [password])); }) },
  // white-box round wb28
  { name: 'wb28-2fa-login-mfa-ticket-carries-totp-secret', clause: '4.2', group: 'authentication', description: `section 4.2 (2fa "exactly 6 digits": the code, never the secret it is made from) and ${SECURITY} ("a secret that never travels (a TOTP secret)"): a login with a 2FA code answers data.mfaTicket, an HS256 JWT whose payload holds the account\u2019s TOTP secret (mfa.seed)`, mutation: twoFactorTicketCarriesSecret() },
  // white-box round wb28
  { name: 'wb28-forgot-answer-state-base64-json', clause: '4.3', group: 'password', description: `section 4.4 (token "the token received by e-mail") and ${SECURITY} ("the reset token, in any answer of the interface"): a forgot-password 200 carries data.state, base64url of the JSON {email, token, sent} (a client-side "check your mail" state)`, mutation: forgotShows((_reply, body, token, email) => { if (!body.data || typeof body.data !== 'object') return false; body.data.state = b64url(unaligned({ email, token, sent: Math.floor(Date.now() / 1000) }, [token])); return true; }) },
  // white-box round wb28
  { name: 'wb28-forgot-answer-keyed-by-reset-token', clause: '4.3', group: 'password', description: `section 4.4 ("the token received by e-mail") and ${SECURITY}: a forgot-password 200 carries data.pending, the pending resets as an object keyed by their token ({ "<token>": { email, expiresIn } }: a PHP array keyed by token serialised whole)`, mutation: forgotShows((_reply, body, token, email) => { if (!body.data || typeof body.data !== 'object') return false; body.data.pending = { [token]: { email, expiresIn: 3600 } }; return true; }) },
  // white-box round wb28
  { name: 'wb28-bonus-user-profile-json-text-with-hash', clause: '4.11', group: 'bonuses', description: `sections 2.6/4.11 (the user object\u2019s members) and ${SECURITY} ("a password hash: by its field\u2019s name (password_hash)"): each bonus\u2019s user carries profile, a JSON text (a text column never decoded) holding {"email", "password_hash": the stored hash}`, mutation: bonusUsersCarry((user, owner) => { if (owner.hash) user.profile = JSON.stringify({ id: owner.id, email: user.email, password_hash: owner.hash, locale: 'en' }); }) },
  // white-box round wb28
  { name: 'wb28-card-owner-php-serialized-with-hash', clause: '4.6a', group: 'cards', description: `sections 2.5/4.6a (the card record) and ${SECURITY} ("a password hash: by its field\u2019s name"): every card answer carries owner, the user PHP-serialize()d into a string (a cached model) holding password => the stored hash`, mutation: recordsCarry([URL.cardList, URL.cardOne], (record, owner) => { if (!owner.hash) return; const s = (text: string) => `s:${Buffer.byteLength(text)}:"${text}";`; record.owner = `a:2:{${s('id')}${s(owner.id)}${s('password')}${s(owner.hash)}}`; }) },

  // --- password hashes in formats the scan does not name, under names it does not hold ---
  // white-box round wb28
  { name: 'wb28-bonus-user-carries-stored-scrypt-hash', clause: '4.11', group: 'bonuses', description: `sections 2.6/4.11 and ${SECURITY} ("a password hash ... in any answer"): each bonus\u2019s user carries pass, the service\u2019s own stored hash (salt:scrypt hex:N, a custom scrypt column no format list names)`, mutation: bonusUsersCarry((user, owner) => { if (owner.hash) user.pass = owner.hash; }) },
  // white-box round wb28
  { name: 'wb28-bank-owner-carries-mysql41-hash', clause: '4.10', group: 'banks', description: `sections 2.4/4.10 (the bank record) and ${SECURITY} ("a password hash"): every bank answer carries owner {id, pass}, pass the MySQL 4.1 PASSWORD() hash of the user\u2019s password (* and SHA1(SHA1) in hex, a column migrated from MySQL authentication)`, mutation: recordsCarry([URL.bankList, URL.bankOne], (record, owner) => { if (owner.password) record.owner = { id: owner.id, pass: mysql41(owner.password) }; }) },
  // white-box round wb28
  { name: 'wb28-card-owner-carries-atlassian-pkcs5s2', clause: '4.6a', group: 'cards', description: `sections 2.5/4.6a and ${SECURITY} ("a password hash"): every card answer carries owner {id, credential}, an Atlassian {PKCS5S2} hash of the user\u2019s password (Crowd/Confluence directory sync)`, mutation: recordsCarry([URL.cardList, URL.cardOne], (record, owner) => { if (owner.password) record.owner = { id: owner.id, credential: atlassianPkcs5s2(owner.password) }; }) },
  // white-box round wb28
  { name: 'wb28-bonus-user-carries-joomla-md5-salt', clause: '4.11', group: 'bonuses', description: `sections 2.6/4.11 and ${SECURITY} ("a password hash"): each bonus\u2019s user carries legacyHash, a Joomla md5(password+salt):salt hash of the user\u2019s password (a migrated account)`, mutation: bonusUsersCarry((user, owner) => { if (owner.password) user.legacyHash = joomlaMd5(owner.password); }) },
  // white-box round wb28
  { name: 'wb28-coin-list-holder-scram-sha256', clause: '4.8', group: 'balances', description: `sections 2.2/4.8 (the balance record) and ${SECURITY} ("a password hash"): every coin of the coin list carries holder {id, verifier}, a PostgreSQL SCRAM-SHA-256 verifier of the user\u2019s password`, mutation: recordsCarry([URL.coinList], (record, owner) => { if (owner.password) record.holder = { id: owner.id, verifier: scramSha256(owner.password) }; }) },
  // white-box round wb28
  { name: 'wb28-session-user-keycloak-credential', clause: '4.2', group: 'authentication', description: `sections 2.1/4.2 (the Session) and ${SECURITY} ("a password hash"): a password login\u2019s Session carries credential, the user\u2019s Keycloak password credential (secretData: a JSON text with the PBKDF2-SHA256 value and salt)`, mutation: passwordLoginCarries((data, _email, password) => { data.credential = keycloakCredential(password); }) },
  // white-box round wb28
  { name: 'wb28-bonus-user-meta-password-hex', clause: '4.11', group: 'bonuses', description: `sections 2.6/4.11 and ${SECURITY} ("a password the run knows, by its value, in any answer"): each bonus\u2019s user carries meta.legacy, the user\u2019s password in hex (a reversible "encoding" of a legacy column)`, mutation: bonusUsersCarry((user, owner) => { if (owner.password && user.meta && typeof user.meta === 'object') user.meta.legacy = Buffer.from(owner.password, 'utf8').toString('hex'); }) },

  // --- headers the scan reads in forms it does not open; header families it never reads ---
  // white-box round wb28
  { name: 'wb28-forgot-rails-cookie-with-reset-token', clause: '4.3', group: 'password', description: `section 4.4 ("the token received by e-mail") and ${SECURITY}: a forgot-password 200 sets a Rails 7 cookie-store session (_app_session, base64 JSON whose _rails.message is base64 JSON, URL-encoded, --HMAC) holding the reset token (a flash that keeps the token for the reset page)`, mutation: forgotShows((reply, _body, token, email) => { setHeader(reply, 'set-cookie', railsCookie('_app_session', { flash: { notice: 'reset link sent' }, reset: { email, token } }, [token])); return true; }) },
  // white-box round wb28
  { name: 'wb28-login-rails-cookie-of-previous-login', clause: '4.2', group: 'authentication', description: `sections 4.2/5.2 (a Session\u2019s id "is the bearer token") and ${SECURITY} ("a token the run knows to belong to another session or user"): every login answer sets a Rails 7 cookie-store session whose message holds the access token of the login answered before it, another user\u2019s (a cookie store shared through a cached Set-Cookie)`, mutation: loginRailsCookieOfPreviousLogin() },
  // white-box round wb28
  { name: 'wb28-forgot-gzip-cookie-with-reset-token', clause: '4.3', group: 'password', description: `section 4.4 ("the token received by e-mail") and ${SECURITY}: a forgot-password 200 sets a reset_state cookie, base64url of the gzip of the JSON {email, token} (a compressed client-side session)`, mutation: forgotShows((reply, _body, token, email) => { setHeader(reply, 'set-cookie', `reset_state=${gzipSync(Buffer.from(JSON.stringify({ email, token }))).toString('base64url')}; Path=/; HttpOnly`); return true; }) },
  // white-box round wb28
  { name: 'wb28-login-remember-cookie-hex-json', clause: '4.2', group: 'authentication', description: `section 4.2 and ${SECURITY} ("a password the run knows, by its value, in any answer"): a password login sets a remember cookie, the hex of the JSON {email, password} it was sent (PHP bin2hex(json_encode(...)))`, mutation: { wire(answer, reply) { if (!isSessionAnswer(answer) || answer.url !== URL.login) return undefined; const { email, password } = bodyOf(reply); if (typeof email !== 'string' || typeof password !== 'string') return undefined; setHeader(reply, 'set-cookie', `remember=${Buffer.from(JSON.stringify({ email, password })).toString('hex')}; Path=/; HttpOnly`); return undefined; } } },
  // white-box round wb28
  { name: 'wb28-forgot-reset-link-in-early-hints', clause: '4.3', group: 'password', description: `sections 4.3/4.4 ("the token received by e-mail") and ${SECURITY}: a forgot-password answer is preceded by a 103 Early Hints whose Link preloads the reset page, token included (an edge that replays an answer\u2019s Link headers as early hints)`, mutation: forgotShows((reply, _body, token, email) => { earlyHints(reply, { link: `<${RESET_PAGE}/${token}?email=${encodeURIComponent(email)}>; rel=preload; as=document` }); return false; }) },
  // white-box round wb28
  { name: 'wb28-bank-list-early-hints-of-last-login', clause: '4.10', group: 'banks', description: `sections 4.10/5.2 and ${SECURITY} ("a token the run knows to belong to another session or user"): a bank list or show 200 is preceded by a 103 Early Hints whose Link holds the access token of the last login, another user\u2019s (early hints cached per path template)`, mutation: earlyHintsOfLastLogin([URL.bankList, URL.bankOne]) },
  // white-box round wb28
  { name: 'wb28-forgot-reset-link-in-trailer', clause: '4.3', group: 'password', description: `sections 4.3/4.4 ("the token received by e-mail") and ${SECURITY}: a forgot-password 200 ends with an HTTP trailer x-reset-link holding the reset link, token included (a mail middleware\u2019s trailer)`, mutation: forgotShows((reply, _body, token, email) => { trailer(reply, 'x-reset-link', `${RESET_PAGE}/${token}?email=${encodeURIComponent(email)}`); return false; }) },
  // white-box round wb28
  { name: 'wb28-card-answers-trailer-of-last-login', clause: '4.6a', group: 'cards', description: `sections 4.6a/5.2 and ${SECURITY} ("a token the run knows to belong to another session or user"): a card list or show 200 ends with an HTTP trailer x-session-token holding the last login\u2019s access token, another user\u2019s`, mutation: trailerOfLastLogin([URL.cardList, URL.cardOne]) },
  // white-box round wb28
  { name: 'wb28-forgot-answer-mail-preview-over-256k', clause: '4.3', group: 'password', description: `section 4.4 ("the token received by e-mail") and ${SECURITY} ("the reset token, in any answer"): a forgot-password 200 carries data.preview, the rendered e-mail (its inline logo a 300 KB data: URI) with the reset link, token included (a mail preview left on)`, mutation: forgotShows((_reply, body, token, email) => { if (!body.data || typeof body.data !== 'object') return false; const logo = randomBytes(225 * 1024).toString('base64'); body.data.preview = `<html><body><img src="data:image/png;base64,${logo}"><p>Reset your password: <a href="${RESET_PAGE}/${token}?email=${encodeURIComponent(email)}">reset</a></p></body></html>`; return true; }) },

  // --- records of another user in refusals (the access tables read the status and the error member) ---
  // white-box round wb28
  { name: 'wb28-bank-list-foreign-refusal-carries-banks', clause: '4.10', group: 'banks', description: `sections 4.10/${ISOLATION}: the bank list refused (403/409) to another user\u2019s token carries in data the path user\u2019s bank rows (IBAN, swift, name), loaded before the policy refused`, mutation: refusalCarriesRows(URL.bankList, [403, 409], 'banks', undefined, true) },
  // white-box round wb28
  { name: 'wb28-card-show-foreign-refusal-carries-card', clause: '4.6a', group: 'cards', description: `sections 4.6a/${ISOLATION}: the card show refused (403/409) to another user\u2019s token carries in data the card row it names (holder name, last four digits, images)`, mutation: refusalCarriesRows(URL.cardOne, [403, 409], 'cards', 'card', true) },
  // white-box round wb28
  { name: 'wb28-bonus-list-foreign-refusal-carries-bonuses', clause: '4.11', group: 'bonuses', description: `sections 4.11/${ISOLATION}: the bonus list refused (403/409) to another user\u2019s token carries in data the path user\u2019s bonus rows`, mutation: refusalCarriesRows(URL.bonusList, [403, 409], 'bonuses', undefined, true) },
  // white-box round wb28
  { name: 'wb28-bank-show-401-carries-bank', clause: '4.10', group: 'banks', description: 'sections 4.10/5.3 ("Protected endpoints require the header Authorization ... Without valid authentication the response is 401"): a bank show answered 401 carries in data the bank row its path names (route-model binding run before authentication, the error body built from the bound model)', mutation: refusalCarriesRows(URL.bankOne, [401], 'banks', 'bank', false) },
  // white-box round wb28
  { name: 'wb28-card-list-401-carries-cards', clause: '4.6a', group: 'cards', description: 'sections 4.6a/5.3 ("Without valid authentication the response is 401"): a card list answered 401 carries in data the path user\u2019s card rows', mutation: refusalCarriesRows(URL.cardList, [401], 'cards', undefined, false) },
  // white-box round wb28
  { name: 'wb28-summary-foreign-refusal-carries-bonuses', clause: '4.11', group: 'bonuses', description: `sections 4.11/${ISOLATION}: the bonus asset summary refused (403/409) to another user\u2019s token carries in data the path user\u2019s bonus rows (the summary\u2019s query run before the policy)`, mutation: refusalCarriesRows(URL.summary, [403, 409], 'bonuses', undefined, true) },
  // white-box round wb28
  { name: 'wb28-bank-delete-foreign-refusal-carries-bank', clause: '4.10', group: 'banks', description: `sections 4.10/${ISOLATION} (delete "403 (three distinct causes), 409"): a bank delete refused (403/409) to another user\u2019s token carries in data the bank row it names`, mutation: refusalCarriesRows(URL.bankOne, [403, 409], 'banks', 'bank', true, 'DELETE') },
  // white-box round wb28
  { name: 'wb28-coin-show-foreign-refusal-carries-user-row', clause: '4.9', group: 'balances', description: `sections 4.9/${ISOLATION} and ${SECURITY}: a coin show refused (403/409) to another user\u2019s token carries in data the path user\u2019s row (e-mail, password hash, TOTP secret, anti-phishing code), loaded by the route before the policy`, mutation: refusalCarriesRows(URL.coinOne, [403, 409], 'users', undefined, true) },
];

/** The survivors (each analysed in the header): open gaps of the suite, not registered. */
const OPEN = new Set<string>([
  // Closed after the round (the header says how) by the lead, fix-ay and fix-wb28a; this one reopened after review-az.
  'wb28-bonus-user-carries-stored-scrypt-hash',
]);

/** Judged no deviation under every reading after they were written (not registered, not counted). */
const NOT_DEVIATIONS = new Set<string>([]);

/** The mutants of the round the suite catches (registered in index.ts). */
export const roundWb28Mutants: Mutant[] = written.filter((mutant) => !OPEN.has(mutant.name) && !NOT_DEVIATIONS.has(mutant.name));

/** The mutants of the round judged no deviation under every reading (not registered). */
export const roundWb28NotDeviations: Mutant[] = written.filter((mutant) => NOT_DEVIATIONS.has(mutant.name));

/** The open gaps of the round (not registered): the suite lets them pass. */
export const roundWb28OpenGaps: Mutant[] = written.filter((mutant) => OPEN.has(mutant.name));

/** Every mutant of the round. */
export const roundWb28Written: readonly Mutant[] = written;
