import { endpoint } from '../helpers/check.js';
import {
  FORGOT,
  RESET,
  emailOfLength,
  expectValidationError,
  expectValidationErrorWithout,
  loginStatus,
  passwordOfLength,
  resetInProgress,
  unknownEmail,
} from '../helpers/password.js';

/**
 * Sections 4.3 and 4.4 (limits: section 8; error formats: section 7): starting a password reset for
 * an address, and finishing it with the token of the latest e-mail. Every test that may change a
 * password asks for a fresh `user` state marked `{ mutates: true }`.
 */

const forgot = endpoint('POST /api/v1/user/forgot-password');
const reset = endpoint('POST /api/v1/user/reset-password');

/** What a boundary row expects: success, a 422 keyed by a field, or a 422 NOT keyed by the field under test (a probe field fails instead). */
type Expected = { status: 200 } | { status: 422; key: string } | { status: 422; without: string; probe: string };

interface Row<I> {
  description: string;
  input: I;
  expected: Expected;
  constraint: string;
}

// ---------------------------------------------------------------------------------------------
// 4.3 forgot-password. Payload = { email: <a known address> } plus the one field under test.

type ForgotInput = (email: string) => Record<string, unknown>;

const FORGOT_TYPE_ROWS: Row<ForgotInput>[] = [
  { description: 'answers 200 with { data: { message } } for a known e-mail and type text', input: (email) => ({ email, type: 'text' }), expected: { status: 200 }, constraint: 'forgot.type.enum' },
  { description: 'answers 200 with { data: { message } } for a known e-mail and type link', input: (email) => ({ email, type: 'link' }), expected: { status: 200 }, constraint: 'forgot.type.enum' },
  { description: 'answers 200 with { data: { message } } for a known e-mail without type', input: (email) => ({ email }), expected: { status: 200 }, constraint: 'forgot.type.enum' },
  { description: 'answers 200 for a known e-mail with type null', input: (email) => ({ email, type: null }), expected: { status: 200 }, constraint: 'forgot.type.enum' },
  { description: 'answers 422 keyed by type for type sms (neither text nor link)', input: (email) => ({ email, type: 'sms' }), expected: { status: 422, key: 'type' }, constraint: 'forgot.type.enum' },
];

const FORGOT_EMAIL_ROWS: Row<ForgotInput>[] = [
  { description: 'answers 422 keyed by email when email is missing', input: () => ({}), expected: { status: 422, key: 'email' }, constraint: 'forgot.email.required' },
  { description: 'answers 422 keyed by email for an e-mail without @', input: () => ({ email: 'not-an-email.example.test' }), expected: { status: 422, key: 'email' }, constraint: 'forgot.email.format' },
  {
    description: 'accepts the length of a 255-character e-mail (beside type sms, only type is reported)',
    input: () => ({ email: emailOfLength(255), type: 'sms' }),
    expected: { status: 422, without: 'email', probe: 'type' },
    constraint: 'forgot.email.max',
  },
  { description: 'answers 422 keyed by email for a 256-character e-mail (beside type sms)', input: () => ({ email: emailOfLength(256), type: 'sms' }), expected: { status: 422, key: 'email' }, constraint: 'forgot.email.max' },
];

forgot.describe(() => {
  for (const row of [...FORGOT_TYPE_ROWS, ...FORGOT_EMAIL_ROWS]) {
    forgot.check(row.description, { clauses: ['4.3', '8'], status: row.expected.status, constraint: row.constraint }, async (t) => {
      const user = await t.state('user');
      const response = await t.post(FORGOT, { json: row.input(user.email) });
      const expected = row.expected;
      if (expected.status === 200) {
        t.expectStatus(response, 200);
        t.expectSchema(response, 'message-response');
      } else if ('key' in expected) expectValidationError(t, response, expected.key);
      else expectValidationErrorWithout(t, response, expected.without, expected.probe);
    });
  }

  forgot.check('answers 422 { message, errors } keyed by email for an unknown e-mail', { clauses: ['4.3', '7'], status: 422 }, async (t) => {
    const response = await t.post(FORGOT, { json: { email: unknownEmail() } });
    expectValidationError(t, response, 'email');
  });
});

// ---------------------------------------------------------------------------------------------
// 4.4 reset-password. Payload = { email, token, password } of a reset in progress plus the field under test.

interface ResetBase {
  email: string;
  token: string;
  password: string;
}
type ResetInput = (base: ResetBase) => Record<string, unknown>;

/** The probe of the "just inside" rows: a 7-character password is always refused (section 8). */
const PROBE_PASSWORD = () => passwordOfLength(7);

const RESET_ROWS: Row<ResetInput>[] = [
  { description: 'answers 422 keyed by email when email is missing', input: ({ token, password }) => ({ token, password }), expected: { status: 422, key: 'email' }, constraint: 'reset.email.required' },
  { description: 'answers 422 keyed by email for an e-mail without @', input: (b) => ({ ...b, email: 'not-an-email.example.test' }), expected: { status: 422, key: 'email' }, constraint: 'reset.email.format' },
  {
    description: 'accepts the length of a 255-character e-mail (beside a 7-character password, only password is reported)',
    input: (b) => ({ ...b, email: emailOfLength(255), password: PROBE_PASSWORD() }),
    expected: { status: 422, without: 'email', probe: 'password' },
    constraint: 'reset.email.max',
  },
  {
    description: 'answers 422 keyed by email for a 256-character e-mail (beside a 7-character password)',
    input: (b) => ({ ...b, email: emailOfLength(256), password: PROBE_PASSWORD() }),
    expected: { status: 422, key: 'email' },
    constraint: 'reset.email.max',
  },
  { description: 'answers 422 keyed by token when token is missing', input: ({ email, password }) => ({ email, password }), expected: { status: 422, key: 'token' }, constraint: 'reset.token.required' },
  {
    description: 'accepts the length of a 255-character token (beside a 7-character password, only password is reported)',
    input: (b) => ({ ...b, token: 't'.repeat(255), password: PROBE_PASSWORD() }),
    expected: { status: 422, without: 'token', probe: 'password' },
    constraint: 'reset.token.max',
  },
  {
    description: 'answers 422 keyed by token for a 256-character token (beside a 7-character password)',
    input: (b) => ({ ...b, token: 't'.repeat(256), password: PROBE_PASSWORD() }),
    expected: { status: 422, key: 'token' },
    constraint: 'reset.token.max',
  },
  { description: 'answers 422 keyed by password when password is missing', input: ({ email, token }) => ({ email, token }), expected: { status: 422, key: 'password' }, constraint: 'reset.password.required' },
  { description: 'answers 422 keyed by password for a 7-character password', input: (b) => ({ ...b, password: passwordOfLength(7) }), expected: { status: 422, key: 'password' }, constraint: 'reset.password.min' },
  { description: 'answers 200 for an 8-character password', input: (b) => ({ ...b, password: passwordOfLength(8) }), expected: { status: 200 }, constraint: 'reset.password.min' },
  { description: 'answers 200 for a 191-character password', input: (b) => ({ ...b, password: passwordOfLength(191) }), expected: { status: 200 }, constraint: 'reset.password.max' },
  { description: 'answers 422 keyed by password for a 192-character password', input: (b) => ({ ...b, password: passwordOfLength(192) }), expected: { status: 422, key: 'password' }, constraint: 'reset.password.max' },
];

reset.describe(() => {
  reset.check('answers 200 with { data: { message } } and the new password logs in while the old one is refused', { clauses: ['4.4', '5'], status: 200 }, async (t) => {
    const { user, token } = await resetInProgress(t);
    const password = passwordOfLength(16);
    const response = await t.post(RESET, { json: { email: user.email, token, password } });
    t.expectStatus(response, 200);
    t.expectSchema(response, 'message-response');
    const withNew = await loginStatus(t, user.email, password);
    if (withNew !== 200) throw new Error(`after the reset, logging in with the new password must answer 200, got ${withNew}`);
    const withOld = await loginStatus(t, user.email, user.password);
    if (withOld !== 403) throw new Error(`after the reset, logging in with the old password must answer 403, got ${withOld}`);
  });

  reset.check('answers 422 keyed by token for a token already spent on a reset', { clauses: ['4.4', '7'], status: 422 }, async (t) => {
    const { user, token } = await resetInProgress(t);
    const first = await t.post(RESET, { json: { email: user.email, token, password: passwordOfLength(16) } });
    t.expectStatus(first, 200);
    const again = await t.post(RESET, { json: { email: user.email, token, password: passwordOfLength(16) } });
    expectValidationError(t, again, 'token');
  });

  reset.check('answers 422 keyed by token for a token that was never sent, and the password stays unchanged', { clauses: ['4.4', '7'], status: 422 }, async (t) => {
    const { user, token } = await resetInProgress(t);
    const wrong = token.length > 4 ? `${token.slice(0, -4)}${token.slice(-4) === 'zzzz' ? 'yyyy' : 'zzzz'}` : 'zzzzzzzz';
    const response = await t.post(RESET, { json: { email: user.email, token: wrong, password: passwordOfLength(16) } });
    expectValidationError(t, response, 'token');
    const withOld = await loginStatus(t, user.email, user.password);
    if (withOld !== 200) throw new Error(`after a refused reset, logging in with the unchanged password must answer 200, got ${withOld}`);
  });

  reset.check("answers 422 keyed by token for another address's token", { clauses: ['4.4', '7'], status: 422 }, async (t) => {
    const first = await resetInProgress(t);
    const second = await resetInProgress(t);
    const response = await t.post(RESET, { json: { email: second.user.email, token: first.token, password: passwordOfLength(16) } });
    expectValidationError(t, response, 'token');
  });

  for (const row of RESET_ROWS) {
    reset.check(row.description, { clauses: ['4.4', '8'], status: row.expected.status, constraint: row.constraint }, async (t) => {
      const { user, token } = await resetInProgress(t);
      const json = row.input({ email: user.email, token, password: passwordOfLength(16) });
      const response = await t.post(RESET, { json });
      const expected = row.expected;
      if (expected.status === 200) {
        t.expectStatus(response, 200);
        t.expectSchema(response, 'message-response');
        const status = await loginStatus(t, user.email, String(json.password));
        if (status !== 200) throw new Error(`after the reset, logging in with the new password must answer 200, got ${status}`);
      } else if ('key' in expected) expectValidationError(t, response, expected.key);
      else expectValidationErrorWithout(t, response, expected.without, expected.probe);
    });
  }
});
