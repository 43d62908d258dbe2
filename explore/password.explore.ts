import fc from 'fast-check';
import { endpoint } from '../helpers/check/check.js';
import { bearerOf, FORGOT, RESET, resetInProgress } from '../helpers/arrange/password.js';
import { learnSecret } from '../helpers/net/secrets.js';
import { twoByteText } from '../helpers/arrange/text.js';
import { property } from './engine.js';
import { errorKeys, expectRefusedForAny, expectStatus, expectShape, judgeRule, judgeType, Nonconformance } from './judge.js';
import { blank, describeSecret, describeText, lengthVerdict, nonString, notAnEmail, plainEmail, textBetween } from './values.js';
import { schemaRules } from '../helpers/spec/rules.js';

/**
 * Sections 4.3 and 4.4 with 7 and 8: the type of forgot-password, and the e-mail and password of
 * reset-password, explored. A reset that may change a password uses a fresh `user` state marked as
 * changed, one per run; forgot-password too uses a fresh user per run, so no reset throttle (a broker's
 * 422 keyed by email for repeated requests) builds up. The e-mail rules of forgot-password and the token rules of reset-password
 * cannot be observed (a value that breaks them is also unknown or invalid), so they are not explored.
 */

const forgot = endpoint('POST /api/v1/user/forgot-password');
const reset = endpoint('POST /api/v1/user/reset-password');
const TYPES = ['text', 'link'];

/** Whether a password holds an ASCII upper-case letter, lower-case letter, digit and symbol: what a strength policy asks, under every reading of its classes. */
const holdsEveryClass = (password: string) => /[A-Z]/.test(password) && /[a-z]/.test(password) && /[0-9]/.test(password) && /[!-/:-@[-`{-~]/.test(password);

forgot.describe(() => {
  property(forgot, 'type text, link, null or absent starts the reset (200)', { rules: [...schemaRules('message-response'), 'S169', 'S173', 'S176'], clauses: ['4.3'], status: 200, constraint: 'forgot.type.enum' }, {
    arbitrary: fc.constantFrom<string | null | undefined>('text', 'link', null, undefined),
    runs: (base) => base / 8,
    arrange: async () => undefined,
    probe: async (probe, type) => {
      const user = await probe.t.state('user');
      // A bearer of the account itself, as the reference calls of section 4 send (a target may require one).
      const token = await bearerOf(probe.t, user);
      const response = await probe.send({ method: 'POST', path: FORGOT, token, json: type === undefined ? { email: user.email } : { email: user.email, type } });
      expectStatus(response, 200, `forgot-password with type ${JSON.stringify(type)}`);
      expectShape(response, 'message-response');
    },
  });

  // A type outside text and link may be refused (422 keyed by type) or ignored (200, advised on): sections 4.3, 7 and 8
  // name forgot-password's 422 for an unknown e-mail only (rule S352, not observable; reading round r17). Text and link
  // are taken under every reading (constraint forgot.type.enum, rule S174).
  property(forgot, 'a type other than text or link is refused with 422 keyed by type, or ignored (200, advised on)', { rules: [], clauses: ['4.3', '7'], status: 422, constraint: 'forgot.type.enum' }, {
    arbitrary: textBetween(0, 12),
    runs: (base) => base / 2,
    show: describeText,
    arrange: async () => undefined,
    probe: async (probe, type) => {
      const user = await probe.t.state('user');
      // A bearer of the account itself, as the reference calls of section 4 send (a target may require one).
      const token = await bearerOf(probe.t, user);
      const response = await probe.send({ method: 'POST', path: FORGOT, token, json: { email: user.email, type } });
      // Trimmed, lower-cased or empty values may be read as text, link or no type: ambiguous.
      const loose = TYPES.includes(type.trim().toLowerCase()) || blank(type);
      if (!TYPES.includes(type) && response.status === 200) {
        expectShape(response, 'message-response');
        probe.advise(`type ${describeText(type)} (neither text nor link) is answered 200: ignored, not refused with 422 keyed by type; sections 4.3, 7 and 8 name no status for another type`, 'type outside text and link ignored (200)');
        return;
      }
      judgeRule(probe, response, 'type', 'null, text or link', TYPES.includes(type) ? 'inside' : loose ? 'ambiguous' : 'outside', type, TYPES.includes(type) || blank(type));
    },
  });

  property(forgot, 'a JSON number, boolean, array or object as email is refused with 422 keyed by email, and as type is refused or ignored', { rules: schemaRules('error-validation'), clauses: ['4.3', '7'], status: 422 }, {
    arbitrary: fc.record({ field: fc.constantFrom('email', 'type'), value: nonString }),
    runs: (base) => base / 4,
    arrange: async () => undefined,
    probe: async (probe, { field, value }) => {
      const user = await probe.t.state('user');
      // A bearer of the account itself, as the reference calls of section 4 send (a target may require one).
      const token = await bearerOf(probe.t, user);
      const response = await probe.send({ method: 'POST', path: FORGOT, token, json: { email: user.email, [field]: value } });
      // Section 4.3: an e-mail that is not a known address answers 422 keyed by email, whatever its JSON type. For type
      // (one of text and link) sections 7 and 8 name no status: ignored (200, the reset started) or another refusal is
      // advised on, as a string outside text and link is (rule S352; reading round r17).
      if (field === 'type' && response.status === 200) {
        expectShape(response, 'message-response');
        probe.advise(`type as a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value} is answered 200: ignored, not refused with 422 keyed by type; sections 4.3, 7 and 8 name no status for another type`, 'type of another JSON type ignored (200)');
        return;
      }
      judgeType(probe, response, field, value, field === 'email', field === 'type');
    },
  });
});

reset.describe(() => {
  property(reset, 'a new password of 8 to 191 characters resets the password (200) and logs in', { rules: [...schemaRules('message-response'), 'S178', 'S186', 'S188'], clauses: ['4.4', '8'], status: 200, constraint: 'reset.password.max' }, {
    arbitrary: textBetween(8, 191),
    // The boundaries, tried first and shrunk like generated values (characters, not bytes): 191 characters, 187 of them
    // two-byte, after `Rp1-` (the classes a strength policy asks, as the suites' passwords carry them; 378 bytes).
    // Then 8 letters only, which a strength policy refuses (advised on) and every other reading takes.
    examples: [`Rp1-${twoByteText(187)}`, 'passw\u00f6rd'],
    runs: (base) => Math.max(2, base / 4),
    show: describeSecret,
    arrange: async () => undefined,
    probe: async (probe, password) => {
      learnSecret(password, 'password');
      const { user, token, bearer } = await resetInProgress(probe.t);
      const response = await probe.send({ method: 'POST', path: RESET, token: bearer, json: { email: user.email, token, password } });
      const verdict = lengthVerdict(password, 8, 191);
      // Section 8 gives a password lengths and forbids no more: a strength policy (allowed-reset-password-strength-policy)
      // may refuse one without an upper-case letter, a digit or a symbol. The suites send such passwords only with all of
      // them; a refusal keyed by password of one that lacks an ASCII upper-case or lower-case letter, digit or symbol (the
      // classes every such policy takes) is advised on, not judged.
      if (verdict !== 'outside' && errorKeys(response).includes('password') && !holdsEveryClass(password)) {
        return probe.advise(`a new password without an ASCII upper-case letter, lower-case letter, digit or symbol (${describeSecret(password)}) is refused with 422 keyed by password: a strength policy section 8 does not rule out, so not judged`, 'password refused by a strength policy');
      }
      judgeRule(probe, response, 'password', 'at least 8, at most 191 characters', verdict, password, true, true);
      if (verdict !== 'inside' && response.status !== 200) return;
      expectStatus(response, 200, 'a reset with a valid token and a password inside the rules');
      const login = await probe.read({ method: 'POST', path: '/api/v1/authenticate', json: { email: user.email, password } });
      const issued = login.isJson ? login.json?.data?.id : undefined;
      if (typeof issued === 'string') await probe.read({ method: 'POST', path: '/api/v1/user/logout', token: issued });
      if (login.status !== 200) throw new Nonconformance(`after the reset answered 200, the new password must log in (section 4.4); login answered ${login.status}`);
    },
  });

  property(reset, 'a new password shorter than 8 or longer than 191 characters is refused with 422 keyed by password', { rules: [...schemaRules('error-validation'), 'S187'], clauses: ['4.4', '8', '7'], status: 422, constraint: 'reset.password.min' }, {
    arbitrary: fc.oneof(textBetween(1, 7), textBetween(192, 260)),
    examples: [twoByteText(4), twoByteText(7)],
    runs: (base) => base / 4,
    show: describeSecret,
    arrange: async () => undefined,
    probe: async (probe, password) => {
      const { user, token, bearer } = await resetInProgress(probe.t);
      const response = await probe.send({ method: 'POST', path: RESET, token: bearer, json: { email: user.email, token, password } });
      judgeRule(probe, response, 'password', 'at least 8, at most 191 characters', blank(password) ? 'outside' : lengthVerdict(password, 8, 191), password, false, true);
    },
  });

  // The token is the one e-mailed to an address, so it is invalid for an e-mail that breaks its rules too: email or token may key the 422.
  property(reset, 'an e-mail longer than 255 characters, or not an address, is refused with 422 keyed by email (or token)', { rules: [...schemaRules('error-validation'), 'S180'], clauses: ['4.4', '8', '7'], status: 422, constraint: 'reset.email.max' }, {
    arbitrary: fc.oneof(plainEmail(256, 320), notAnEmail),
    runs: (base) => base / 4,
    show: describeText,
    arrange: (t) => resetInProgress(t),
    probe: async (probe, email, { token, bearer }) => {
      const response = await probe.send({ method: 'POST', path: RESET, token: bearer, json: { email, token, password: 'Explored-password-1' } });
      expectRefusedForAny(probe, response, ['email', 'token'], 'a valid e-mail, at most 255 characters');
    },
  });

  property(reset, 'a JSON number, boolean, array or object as email, token or password never resets the password', { rules: ['S178'], clauses: ['4.4', '7'], status: null }, {
    arbitrary: fc.record({ field: fc.constantFrom('email', 'token', 'password'), value: nonString }),
    runs: (base) => base / 8,
    show: ({ field, value }) => `${field} = a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}`,
    arrange: async () => undefined,
    probe: async (probe, { field, value }) => {
      const { user, token, bearer } = await resetInProgress(probe.t);
      const response = await probe.send({ method: 'POST', path: RESET, token: bearer, json: { email: user.email, token, password: 'Explored-password-1', [field]: value } });
      judgeType(probe, response, field, value, false, false, field === 'password');
    },
  });
});
