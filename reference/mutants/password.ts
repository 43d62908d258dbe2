import type { Mutant } from './types.js';
import { validationSkipped } from './make.js';

const FORGOT = 'POST /api/v1/user/forgot-password';
const RESET = 'POST /api/v1/user/reset-password';

/** Mutants of the password group (sections 4.3, 4.4, their limits in 8 and the 422 format of 7). */
export const passwordMutants: Mutant[] = [
  {
    name: 'forgot-unknown-email-accepted',
    clause: '4.3',
    group: 'password',
    description: 'forgot-password answers 200 for an e-mail no account has, instead of 422 keyed by email',
    mutation: { deviation: 'forgot.unknown-email-accepted' },
  },
  // Reading round r17 (issue 28): sections 4.3, 7 and 8 name forgot-password's 422 for an unknown e-mail only, so a
  // type outside text and link may be ignored (allowed-r17-forgot-unknown-type-ignored): a forgot-password that takes
  // any type cannot be told from that reading, no longer a deviation the suite can judge. A refusal of text, link or null
  // still fails (wb5-forgot-type-link-refused, wb13-forgot-type-null-refused).
  {
    name: 'allowed-forgot-type-unchecked',
    clause: '4.3',
    group: 'password',
    description: 'forgot-password accepts any type, not only null, text or link (advised on: sections 4.3, 7 and 8 name no status for another type)',
    mutation: { deviation: 'forgot.type-unchecked' },
    allowed: true,
    judgedBy: { clauses: ['4.3'] },
  },
  // No mutant ignores forgot-password's e-mail rules (required, valid, max 255): every address breaking them
  // is also unknown, which section 4.3 answers with the same 422 keyed by email, so no suite can tell.
  {
    name: 'reset-password-min-7',
    clause: '8',
    group: 'password',
    description: 'reset-password accepts a password of 7 characters (minimum off by one)',
    mutation: { deviation: 'reset.password-min-7' },
  },
  {
    name: 'forgot-200-unwrapped',
    clause: '4.3',
    group: 'password',
    description: 'forgot-password answers 200 with { message } instead of { data: { message } }',
    mutation: {
      transform: {
        route: FORGOT,
        status: 200,
        apply: (body: { data: { message: string } }) => ({ body: { message: body.data.message } }),
      },
    },
  },
  {
    name: 'forgot-422-without-errors',
    clause: '7',
    group: 'password',
    description: 'forgot-password answers 422 with { message } only, without the errors map',
    mutation: {
      transform: {
        route: FORGOT,
        status: 422,
        apply(body: { errors?: unknown }) {
          delete body.errors;
        },
      },
    },
  },
  {
    name: 'reset-password-unchanged',
    clause: '4.4',
    group: 'password',
    description: 'reset-password answers 200 but keeps the old password',
    mutation: { deviation: 'reset.password-unchanged' },
  },
  // No single-use mutant: section 4.4 does not say a token is spent by a reset (the suite only reports reuse).
  {
    name: 'reset-token-any-address',
    clause: '4.4',
    group: 'password',
    description: "reset-password accepts the latest token of any address, not only the one sent to the e-mail in the request",
    mutation: { deviation: 'reset.token-any-address' },
  },
  {
    name: 'reset-token-unchecked',
    clause: '4.4',
    group: 'password',
    description: 'reset-password changes the password whatever token is sent',
    mutation: { deviation: 'reset.token-unchecked' },
  },
  {
    name: 'reset-invalid-token-keyed-by-email',
    clause: '4.4',
    group: 'password',
    description: 'reset-password answers an invalid token with a 422 whose errors map is keyed by email instead of token',
    mutation: {
      transform: {
        route: RESET,
        status: 422,
        apply(body: { errors?: Record<string, string[]> }) {
          if (body.errors?.token) {
            body.errors.email = body.errors.token;
            delete body.errors.token;
          }
        },
      },
    },
  },
  {
    name: 'reset-password-max-192',
    clause: '8',
    group: 'password',
    description: 'reset-password accepts a password of 192 characters (limit off by one)',
    mutation: { deviation: 'reset.password-max-192' },
  },
  // No mutant ignores the token's 255-character limit: a longer token is also invalid, which section 4.4
  // answers with the same 422 keyed by token, so no suite can tell.
  {
    name: 'reset-password-min-9',
    clause: '8',
    group: 'password',
    description: 'reset-password refuses a password of 8 characters (minimum off by one)',
    mutation: { deviation: 'reset.password-min-9' },
  },
  // Issue 11: the e-mail limit of forgot/reset is 255, not login's 191.
  {
    name: 'forgot-email-max-191',
    clause: '8',
    group: 'password',
    description: 'forgot-password refuses an existing account\u2019s e-mail of 230 characters (limit 191 instead of 255)',
    mutation: { deviation: 'forgot.email-max-191' },
  },
  // Issue 19: an address of exactly 255 characters is still within the limit.
  {
    // Ruled an allowed reading since (review-an F2): an address of 255 characters is over the 254 RFC 5321 leaves one,
    // so "valid e-mail, max 255" lets a validator refuse it (the 255-character rows advise on a 422 keyed by email).
    name: 'allowed-forgot-email-max-254',
    clause: '8',
    group: 'password',
    description: 'forgot-password refuses an existing account\u2019s e-mail of 255 characters as no valid e-mail (a max of 254, as RFC 5321 4.5.3.1.3 counts; 4.3 and 8: "valid e-mail, max 255")',
    mutation: { deviation: 'forgot.email-max-254' },
    allowed: true,
    judgedBy: { clauses: ['4.3', '8'] },
  },
  {
    name: 'reset-email-max-191',
    clause: '8',
    group: 'password',
    description: 'reset-password refuses an existing account\u2019s e-mail of 230 characters (limit 191 instead of 255)',
    mutation: { deviation: 'reset.email-max-191' },
  },
  // Allowed reading: must survive.
  {
    name: 'allowed-password-bearer-required',
    clause: '4.4',
    group: 'password',
    description: 'forgot- and reset-password require a bearer header (401 without one), as the reference calls of section 4 send one',
    mutation: { deviation: 'password.bearer-required' },
    allowed: true,
    // Forgot (4.3) and reset (4.4) alike, their 422 rows included: the whole password group.
    judgedBy: { clauses: 'all' },
  },
  // Section 4.4: a token e-mailed to another address, sent with this one, is a wrong e-mail for that token just as it is
  // an invalid token for this e-mail; a target that finds the reset by its token keys the 422 by email.
  {
    name: 'allowed-reset-other-address-token-keyed-by-email',
    clause: '4.4',
    group: 'password',
    description: "reset-password keys the 422 for another address's token by email (the e-mail does not match the token) instead of token",
    mutation: { deviation: 'reset.other-address-token-keyed-by-email' },
    allowed: true,
  },
  // Section 4.4: the token is the one e-mailed to an address, so for an e-mail that is missing, malformed or too
  // long the token is invalid too; a target that checks the token against the address first keys its 422 by token.
  {
    name: 'allowed-reset-wrong-email-keyed-by-token',
    clause: '4.4',
    group: 'password',
    description: 'reset-password keys the 422 for an e-mail that breaks its rules by token (no token was e-mailed to it) instead of email',
    mutation: {
      transform: {
        route: RESET,
        status: 422,
        apply(body) {
          const errors = body.errors as Record<string, string[]>;
          if (!errors.email) return;
          delete errors.email;
          errors.token ??= ['This password reset token is invalid.'];
        },
      },
    },
    allowed: true,
  },
  // Characters, not bytes (section 8): found by `conformance explore`, pinned by fixed rows of two-byte characters.
  {
    name: 'reset-password-min-in-bytes',
    clause: '8',
    group: 'password',
    description: 'reset-password counts the 8-character minimum in UTF-8 bytes, so four two-byte letters pass as eight',
    mutation: { deviation: 'reset.password-min-bytes' },
  },
  {
    name: 'reset-password-max-in-bytes',
    clause: '8',
    group: 'password',
    description: 'reset-password counts the 191-character maximum in UTF-8 bytes, so 191 two-byte letters are refused',
    mutation: { deviation: 'reset.password-max-bytes' },
  },
  // Review of issue 28: section 8 gives the password's lengths and no more; a strength policy is not forbidden. The
  // boundary rows send an upper-case letter, a digit and a symbol (passwordOfLength, `A1-` before the two-byte letters).
  {
    name: 'allowed-reset-password-strength-policy',
    clause: '8',
    group: 'password',
    description: 'reset-password also refuses (422 keyed by password) a password without an upper-case letter, a digit and a symbol (a strength policy section 8 does not forbid)',
    mutation: { deviation: 'reset.password-strength-policy' },
    allowed: true,
    judgedBy: { clauses: ['4.4', '8'] },
  },
  // Required fields and formats of the reset body (section 4.4), each skipped alone.
  validationSkipped('reset-email-not-required', 'password', '4.4', RESET, 'email', /is required/, 200, 'a reset without email is answered 200 instead of 422'),
  validationSkipped('reset-email-format-unchecked', 'password', '4.4', RESET, 'email', /valid email address/, 200, 'a reset with an e-mail without @ is answered 200 instead of 422'),
  validationSkipped('reset-password-not-required', 'password', '4.4', RESET, 'password', /is required/, 200, 'a reset without password is answered 200 instead of 422'),
  // Issue 28 and issue 27 item 5: the reset token arrives by e-mail (4.4), in no answer; a reset may also sign the user in.
  {
    name: 'forgot-answer-carries-reset-token',
    clause: '4.4',
    group: 'password',
    description: 'forgot-password answers { data: { message, token } }, the token the e-mail carries: a security finding the run can see only after the state gave it the token',
    mutation: { deviation: 'forgot.answer-carries-token' },
  },
  {
    name: 'reset-answer-echoes-reset-token',
    clause: '4.4',
    group: 'password',
    description: 'reset-password answers { data: { message, token } }, echoing the reset token it was sent: a security finding',
    mutation: { deviation: 'reset.answer-echoes-token' },
  },
  {
    name: 'allowed-reset-answer-signs-in',
    clause: '4.4',
    group: 'password',
    description: 'a successful reset-password also signs the user in: { data: { message, session: <Session> } } (an extra member; the Session is the caller\u2019s, no leak)',
    mutation: { deviation: 'reset.answer-signs-in' },
    allowed: true,
  },
  // Issue 27, arrays and objects for JSON string fields (branch i27-val).
  // The typed resets check something with a provider-state hook of an older contract too (it ignores the param `type` of
  // password-reset.token and answers the latest e-mail's token): the suite sends the typed forgot-password just before.
  { name: 'reset-text-code-refused-older-hook', clause: '4.4', group: 'password', description: 'as wb6-reset-text-code-refused (the code an e-mail of type text carries is refused), against a provider-state hook that ignores the param type of password-reset.token (the latest e-mail\u2019s token): the typed reset tests must still catch it', mutation: { deviation: 'wb6.reset-text-code-refused', deviations: ['contract.hook-ignores-reset-type'] } },
  { name: 'reset-token-array-read-as-text', clause: '4.4', group: 'password', description: 'a reset token sent as a JSON array or object ([token], { token }) is read as its first value, and the reset succeeds', mutation: { deviation: 'reset.token-array-read-as-text' } },
];
