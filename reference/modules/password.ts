import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { ReferenceContext, ReferenceModule } from '../context.js';
import { StateNotAllowed } from '../context.js';
import { ERRORS, fail } from '../errors.js';
import { refuseUnknownMembers, rules, validate } from '../validation.js';
import { emailRule, findUserByEmail, hashPassword, passwordMatches, sessionOf } from './authentication.js';
import { resolveToken } from '../tokens.js';

/**
 * Sections 4.3 and 4.4: password reset. Forgot-password puts the e-mail it would send (the token as
 * text, or as a link, per `type`) into an outbox table and keeps one reset token per address (the
 * latest replaces any earlier one, as Laravel's password broker does). Reset-password checks the
 * e-mail and the token, changes the password and spends the token.
 *
 * The specification notes that the reference calls also carry a bearer header; neither endpoint
 * requires one, and a header that is sent is ignored.
 */
export const RESET_TOKEN_TTL_SECONDS = 3600;
export const RESET_LINK_BASE = 'https://exchange.reference.test/password/reset';

const DDL = `
CREATE TABLE IF NOT EXISTS password_reset_tokens (
  email TEXT PRIMARY KEY COLLATE NOCASE,
  token_hash TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  recipient TEXT NOT NULL COLLATE NOCASE,
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  token TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
`;

const UNKNOWN_EMAIL = "We can't find a user with that email address.";
const INVALID_TOKEN = 'This password reset token is invalid.';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Section 4.3: the e-mail text, with the token shown as text or inside a link (`type`, default link). */
function mailBody(kind: 'text' | 'link', email: string, token: string): string {
  if (kind === 'text') return `You asked to reset your password. Your reset code is: ${token}\nIt expires in ${RESET_TOKEN_TTL_SECONDS / 60} minutes.`;
  const link = `${RESET_LINK_BASE}/${token}?email=${encodeURIComponent(email)}`;
  return `You asked to reset your password. Open this link to choose a new one: ${link}\nIt expires in ${RESET_TOKEN_TTL_SECONDS / 60} minutes.`;
}

function sendResetMail(ctx: ReferenceContext, email: string, kind: 'text' | 'link'): string {
  // Allowed reading (reading round 9): an e-mail of type text shows a six-digit reset code, a link e-mail a long token.
  const token = kind === 'text' && ctx.deviates('r9.reset-text-code-six-digits') ? String(randomInt(0, 1_000_000)).padStart(6, '0') : randomBytes(32).toString('hex');
  // White-box round wb6, deviation of a mutant only: the text e-mail shows its code upper-cased for reading, while the hash kept is the
  // lower-case token's and reset compares case-sensitively: the code the e-mail of type text carries is never accepted.
  const shown = kind === 'text' && ctx.deviates('wb6.reset-text-code-refused') ? token.toUpperCase() : token;
  const now = ctx.now();
  ctx.db
    .prepare('INSERT INTO password_reset_tokens (email, token_hash, created_ms) VALUES (?, ?, ?) ON CONFLICT(email) DO UPDATE SET token_hash = excluded.token_hash, created_ms = excluded.created_ms')
    .run(email, hashToken(token), now);
  ctx.db
    .prepare('INSERT INTO outbox (recipient, kind, subject, body, token, created_ms) VALUES (?, ?, ?, ?, ?, ?)')
    .run(email, kind, 'Reset Password Notification', mailBody(kind, email, shown), shown, now);
  return shown;
}

function tokenValid(ctx: ReferenceContext, email: string, token: string): boolean {
  if (ctx.deviates('reset.token-any-address')) {
    // Deviation: the token is accepted when it is the latest one of any address, not of this e-mail's.
    const any = ctx.db.prepare('SELECT created_ms FROM password_reset_tokens WHERE token_hash = ?').get(hashToken(token)) as { created_ms: number } | undefined;
    return any !== undefined && ctx.now() - any.created_ms <= RESET_TOKEN_TTL_SECONDS * 1000;
  }
  const row = ctx.db.prepare('SELECT token_hash, created_ms FROM password_reset_tokens WHERE email = ?').get(email) as { token_hash: string; created_ms: number } | undefined;
  if (!row) return false;
  if (ctx.now() - row.created_ms > RESET_TOKEN_TTL_SECONDS * 1000) return false;
  if (ctx.deviates('r4.reset-earlier-tokens-valid') && row.token_hash !== hashToken(token)) {
    // Allowed reading: every token still unspent and unexpired is valid, not only the latest e-mail's (until one reset spends them all).
    const earlier = ctx.db.prepare('SELECT created_ms FROM outbox WHERE recipient = ? AND token = ? ORDER BY created_ms DESC LIMIT 1').get(email, token) as { created_ms: number } | undefined;
    return earlier !== undefined && ctx.now() - earlier.created_ms <= RESET_TOKEN_TTL_SECONDS * 1000;
  }
  return row.token_hash === hashToken(token);
}

/** Section 8: reset password at least 8 characters (a deviation moves the limit by one either way). */
function passwordMin(ctx: ReferenceContext): number {
  if (ctx.deviates('reset.password-min-7')) return 7;
  if (ctx.deviates('reset.password-min-9')) return 9;
  return 8;
}

export const password: ReferenceModule = {
  name: 'password',
  ddl: DDL,
  deviations: [
    // White-box round wb10, deviations of mutants only.
    'wb10.forgot-email-array-as-text',
    'wb10.forgot-replaces-password',
    'wb10.reset-email-array-as-text',
    'wb10.reset-password-array-as-text',
    'wb10.reset-bad-email-resets-token-owner',
    'wb10.reset-password-saved-before-max',
    'wb10.reset-uses-bearer-user',
    // White-box round wb9, deviation of a mutant only.
    'wb9.reset-2fa-account-password-unchanged',
    // The provider-state hook of an older contract: password-reset.token ignores the param type (the latest e-mail's token).
    'contract.hook-ignores-reset-type',
    // Allowed reading (reading round 9).
    'r9.forgot-inactive-as-unknown',
    // Allowed reading (white-box round wb16, judged by the lead): a locked account's address is not found either.
    'wb16.forgot-locked-as-unknown',
    'r9.reset-text-code-six-digits',
    // Allowed reading (reading round 8): a reset to the current password is refused (422 keyed by password).
    'r8.reset-password-must-change',
    // Allowed reading (reading round 7): the reset token (hexadecimal) compared in any letter case.
    'r7.reset-token-any-case',
    // Allowed reading (reading round 7): a successful reset lifts the brute-force restriction of the account (Devise unlocks on reset).
    'r7.reset-lifts-restriction',
    // White-box round wb6.
    'wb6.reset-text-code-refused',
    // White-box round wb2.
    'wb2.forgot-unknown-email-with-type-accepted',
    'wb2.forgot-link-answer-carries-token',
    'wb2.reset-refused-spends-token',
    // Issue 27: arrays and objects for a JSON string field.
    'reset.token-array-read-as-text',
    // Allowed reading: a token that is another address's is a wrong e-mail for that token, keyed by email.
    'reset.other-address-token-keyed-by-email',
    // Allowed reading (round r4): earlier reset tokens stay valid beside the latest one.
    'r4.reset-earlier-tokens-valid',
    // Allowed readings (round r5): a repeated forgot-password within a minute refused (Laravel's broker throttle); `type` in any letter case.
    'r5.forgot-throttled',
    'r5.forgot-type-any-case',
    'forgot.unknown-email-accepted',
    'forgot.type-unchecked',
    'reset.password-unchanged',
    'reset.token-unchecked',
    'reset.token-any-address',
    'reset.password-max-192',
    'reset.password-min-7',
    'reset.password-min-9',
    'forgot.email-max-191',
    'forgot.email-max-254',
    'reset.email-max-191',
    // Allowed reading (a mutant that must survive).
    'password.bearer-required',
    'reset.answer-signs-in',
    // Security findings: the reset token in an answer (section 4.4: it arrives by e-mail).
    'forgot.answer-carries-token',
    'reset.answer-echoes-token',
    'reset.password-min-bytes',
    'reset.password-max-bytes',
    'reset.password-strength-policy',
    // White-box round wb1.
    'wb1.reset-422-echoes-input',
    'wb1.forgot-type-null-refused',
    'wb1.forgot-text-answer-unwrapped',
  ],

  register(app, ctx) {
    // Allowed reading (a mutant that must survive): section 4 notes the reference calls carry a bearer header; require one.
    const preHandler = ctx.deviates('password.bearer-required') ? [ctx.guards.authenticated] : [];

    // Section 4.3 (limits: section 8).
    app.post('/api/v1/user/forgot-password', { preHandler }, async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (ctx.deviates('r5.forgot-type-any-case') && typeof body.type === 'string') body.type = body.type.toLowerCase();
      // White-box round wb10, deviation of a mutant only: an e-mail sent as a JSON array (or object) is read as its first item (value).
      if (ctx.deviates('wb10.forgot-email-array-as-text') && body.email !== null && typeof body.email === 'object') body.email = Object.values(body.email)[0];
      if (ctx.deviates('r7.unknown-body-members-refused')) refuseUnknownMembers(body, ['email', 'type']);
      validate(body, {
        email: [rules.required, rules.string, emailRule(ctx), rules.max(ctx.deviates('forgot.email-max-191') ? 191 : ctx.deviates('forgot.email-max-254') ? 254 : 255)],
        type: [rules.nullable, rules.string, ...(ctx.deviates('forgot.type-unchecked') ? [] : [rules.in(['text', 'link'])])],
      });
      // White-box round wb1, deviation of a mutant only: type bound to an enum that refuses null (section 4.3: nullable).
      if (ctx.deviates('wb1.forgot-type-null-refused') && body.type === null) fail(ERRORS.validation({ type: ['The selected type is invalid.'] }));
      const email = String(body.email);
      const user = findUserByEmail(ctx, email);
      // Section 4.3 and 7: 422 when the e-mail is unknown, keyed by `email`. Allowed reading (reading round 9): the
      // password broker's user provider finds active accounts only, so an inactive account's address is not found; and
      // (round wb16) one that leaves locked accounts out, a lock that self-service recovery must not lift.
      if (!user || (user.is_active === 0 && ctx.deviates('r9.forgot-inactive-as-unknown')) || (user.locked && ctx.deviates('wb16.forgot-locked-as-unknown'))) {
        // White-box round wb2, deviation of a mutant only: with a type given, an unknown e-mail is answered 200 (the branch that picks the mail skips the lookup).
        if (ctx.deviates('wb2.forgot-unknown-email-with-type-accepted') && typeof body.type === 'string') return { data: { message: body.type === 'text' ? 'We have emailed your password reset code.' : 'We have emailed your password reset link.' } };
        if (ctx.deviates('forgot.unknown-email-accepted')) return { data: { message: 'We have emailed your password reset link.' } };
        fail(ERRORS.validation({ email: [UNKNOWN_EMAIL] }));
      }
      // Allowed reading (round r5): Laravel's password broker refuses a new reset e-mail within 60 s of the last one (passwords.throttled).
      if (ctx.deviates('r5.forgot-throttled')) {
        const last = ctx.db.prepare('SELECT created_ms FROM password_reset_tokens WHERE email = ?').get(user.email) as { created_ms: number } | undefined;
        if (last && ctx.now() - last.created_ms < 60_000) fail(ERRORS.validation({ email: ['Please wait before retrying.'] }));
      }
      const kind = body.type === 'text' ? 'text' : 'link';
      // White-box round wb10, deviation of a mutant only: the old "forgot password" that replaces the password with a random one
      // at once (mailed beside the reset token), so the account's password no longer logs in before any reset.
      if (ctx.deviates('wb10.forgot-replaces-password')) ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(randomBytes(12).toString('base64url')), user.id);
      const token = sendResetMail(ctx, user.email, kind);
      const message = kind === 'text' ? 'We have emailed your password reset code.' : 'We have emailed your password reset link.';
      // Deviation of a mutant only: the answer also carries the token the e-mail carries.
      if (ctx.deviates('forgot.answer-carries-token')) return { data: { message, token } };
      // White-box round wb2, deviation of a mutant only: the link branch answers the link itself (a debug message left in).
      if (ctx.deviates('wb2.forgot-link-answer-carries-token') && kind === 'link') return { data: { message: `We have emailed your password reset link: http://localhost/password/reset/${token}` } };
      // White-box round wb1, deviation of a mutant only: the text-code branch answers { message } unwrapped (section 4.3: { data: { message } }).
      if (ctx.deviates('wb1.forgot-text-answer-unwrapped') && kind === 'text') return { message };
      return { data: { message } };
    });

    // Section 4.4 (limits: section 8).
    app.post('/api/v1/user/reset-password', { preHandler }, async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      // Deviation of a mutant only: a token sent as an array or object is read as its first value.
      if (ctx.deviates('reset.token-array-read-as-text') && body.token !== null && typeof body.token === 'object') body.token = String(Object.values(body.token)[0] ?? '');
      // White-box round wb2, deviation of a mutant only: a reset refused for its password (422) spends the token all the same.
      if (ctx.deviates('wb2.reset-refused-spends-token') && typeof body.email === 'string' && typeof body.token === 'string' && typeof body.password === 'string' && [...body.password].length < 8) {
        const owner = findUserByEmail(ctx, body.email);
        if (owner && tokenValid(ctx, owner.email, body.token)) ctx.db.prepare('DELETE FROM password_reset_tokens WHERE email = ?').run(owner.email);
      }
      // White-box round wb10, deviations of mutants only: an e-mail or a password sent as a JSON array (or object) read as its
      // text: the first item (value), the items (values) joined with commas.
      if (ctx.deviates('wb10.reset-email-array-as-text') && body.email !== null && typeof body.email === 'object') body.email = Object.values(body.email)[0];
      if (ctx.deviates('wb10.reset-password-array-as-text') && body.password !== null && typeof body.password === 'object') body.password = Object.values(body.password).join(',');
      // White-box round wb10, deviations of mutants only: the new password is saved before the request is validated whole: for the
      // token's owner when the e-mail breaks its rules (the reset found by its token), or when the password is over 191 characters.
      if (typeof body.token === 'string' && typeof body.password === 'string' && [...body.password].length >= 8) {
        const badEmail = typeof body.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(body.email) || [...body.email].length > 255;
        const tooLong = [...body.password].length > 191;
        if ((badEmail && ctx.deviates('wb10.reset-bad-email-resets-token-owner')) || (!badEmail && tooLong && ctx.deviates('wb10.reset-password-saved-before-max'))) {
          const row = ctx.db.prepare('SELECT email FROM password_reset_tokens WHERE token_hash = ?').get(hashToken(body.token)) as { email: string } | undefined;
          const owner = row ? findUserByEmail(ctx, row.email) : undefined;
          if (owner && (badEmail || owner.email.toLowerCase() === String(body.email).toLowerCase())) ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(storedPassword(ctx, body.password)), owner.id);
        }
      }
      validate(body, {
        email: [rules.required, rules.string, emailRule(ctx), rules.max(ctx.deviates('reset.email-max-191') ? 191 : 255)],
        token: [rules.required, rules.string, rules.max(255)],
        password: [
          rules.required,
          rules.string,
          rules.min(passwordMin(ctx), ctx.deviates('reset.password-min-bytes') ? 'utf8-bytes' : 'characters'),
          rules.max(ctx.deviates('reset.password-max-192') ? 192 : 191, ctx.deviates('reset.password-max-bytes') ? 'utf8-bytes' : 'characters'),
          // Allowed reading (a mutant that must survive; review of issue 28): a strength policy section 8 does not forbid.
          ...(ctx.deviates('reset.password-strength-policy') ? [rules.custom((value) => (typeof value === 'string' && !(/\p{Lu}/u.test(value) && /\p{N}/u.test(value) && /[^\p{L}\p{N}]/u.test(value)) ? 'The password must contain an upper-case letter, a digit and a symbol.' : undefined))] : []),
        ],
      });
      if (ctx.deviates('r7.unknown-body-members-refused')) refuseUnknownMembers(body, ['email', 'token', 'password']);
      // Allowed reading (reading round 7): the token is a hexadecimal value, compared in any letter case (a case-insensitive column).
      if (ctx.deviates('r7.reset-token-any-case') && typeof body.token === 'string') body.token = body.token.toLowerCase();
      const user = findUserByEmail(ctx, String(body.email));
      // Spec silent on an unknown e-mail here; the reference answers as the password broker does, keyed by `email`.
      if (!user) fail(ERRORS.validation({ email: [UNKNOWN_EMAIL] }));
      // Section 4.4 and 7: 422 keyed by `token` when the token is not the latest one sent to that address.
      if (!tokenValid(ctx, user.email, String(body.token)) && !ctx.deviates('reset.token-unchecked')) {
        // White-box round wb1, deviation of a mutant only: the 422 echoes the input, password included (a debug "old input").
        if (ctx.deviates('wb1.reset-422-echoes-input')) fail({ status: 422, body: { message: INVALID_TOKEN, errors: { token: [INVALID_TOKEN] }, input: { email: body.email, password: body.password } } });
        // Deviation (allowed): a target that finds the reset by its token reads the mismatch as a wrong e-mail for it.
        if (ctx.deviates('reset.other-address-token-keyed-by-email') && ctx.db.prepare('SELECT 1 FROM password_reset_tokens WHERE token_hash = ? AND email <> ?').get(hashToken(String(body.token)), user.email) !== undefined) {
          fail(ERRORS.validation({ email: ['The email does not match this password reset token.'] }));
        }
        fail(ERRORS.validation({ token: [INVALID_TOKEN] }));
      }
      // Allowed reading (reading round 8): the new password must differ from the current one (a policy section 8 does not forbid).
      if (ctx.deviates('r8.reset-password-must-change') && passwordMatches(storedPassword(ctx, String(body.password)), user.password_hash)) {
        fail(ERRORS.validation({ password: ['The new password must be different from the current password.'] }));
      }
      // White-box round wb9, deviation of a mutant only: for an account with 2FA the new password is written to a credentials
      // record the login does not read (the reset answers 200 and the old password stays).
      // White-box round wb10, deviation of a mutant only: the password written is the one of the bearer's user (auth()->user()), when a bearer is sent.
      const bearer = /^Bearer (.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
      const writtenFor = (ctx.deviates('wb10.reset-uses-bearer-user') && bearer !== undefined ? resolveToken(ctx.db, bearer, ctx.now())?.user : undefined) ?? user;
      if (!ctx.deviates('reset.password-unchanged') && !(ctx.deviates('wb9.reset-2fa-account-password-unchanged') && user.totp_secret)) ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(storedPassword(ctx, String(body.password))), writtenFor.id);
      ctx.db.prepare('DELETE FROM password_reset_tokens WHERE email = ?').run(user.email);
      if (ctx.deviates('r7.reset-lifts-restriction')) ctx.db.prepare('DELETE FROM login_failures WHERE email = ?').run(user.email);
      // Deviation of a mutant only: the answer echoes the reset token it was sent.
      if (ctx.deviates('reset.answer-echoes-token')) return { data: { message: 'Your password has been reset.', token: String(body.token) } };
      // Allowed reading (a mutant that must survive): the reset also signs the user in (an extra member, data.session).
      if (ctx.deviates('reset.answer-signs-in')) return { data: { message: 'Your password has been reset.', session: sessionOf(ctx, user, 'password').data } };
      return { data: { message: 'Your password has been reset.' } };
    });
  },

  states(ctx) {
    return {
      // The token carried by the latest forgot-password e-mail sent to that address.
      'password-reset.token': (params) => {
        if (typeof params.email !== 'string') throw new StateNotAllowed('state password-reset.token needs params.email');
        // `type` (added later, optional): the token as the latest e-mail of that type (section 4.3: text or link) shows it.
        const type = ctx.deviates('contract.hook-ignores-reset-type') ? undefined : params.type;
        if (type !== undefined && type !== 'text' && type !== 'link') throw new StateNotAllowed('state password-reset.token: params.type must be "text" or "link"');
        const row = (type === undefined
          ? ctx.db.prepare('SELECT token FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1').get(params.email)
          : ctx.db.prepare('SELECT token FROM outbox WHERE recipient = ? AND kind = ? ORDER BY id DESC LIMIT 1').get(params.email, type)) as { token: string } | undefined;
        if (!row) throw new StateNotAllowed(`no forgot-password e-mail${type === undefined ? '' : ` of type ${type}`} was sent to that address`);
        return { token: row.token };
      },
    };
  },
};

/**
 * The password a reset stores, as the login compares it (passwordAccepted, modules/authentication.ts): each allowed
 * reading that rewrites the password at login rewrites it here too, so that a password set by a reset logs in with the
 * bytes sent (round wb16: trimmed or normalised at one end only, it never would).
 */
function storedPassword(ctx: ReferenceContext, password: string): string {
  // Allowed reading (reading round 8): passwords stored in Unicode NFKC (NIST SP 800-63B 5.1.1.2).
  if (ctx.deviates('r8.password-nfkc')) password = password.normalize('NFKC');
  // Allowed reading (login.password-trimmed): outer whitespace trimmed from every password the service reads, at reset as
  // at login (Laravel's TrimStrings without the password exception trims every request's strings).
  if (ctx.deviates('login.password-trimmed')) password = password.trim();
  // Allowed reading (login.password-72-byte-prefix): the password stored as bcrypt keeps it, its first 72 bytes.
  return ctx.deviates('login.password-72-byte-prefix') ? Buffer.from(password, 'utf8').subarray(0, 72).toString('utf8') : password;
}
