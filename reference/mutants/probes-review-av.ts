import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { hashPassword } from '../modules/authentication.js';
import type { ReferenceContext } from '../context.js';
import type { Mutant } from './types.js';
import { onParsedBody, only, reading, routeOf } from './reading.js';
import { RESET } from './routes.js';

/**
 * review-av (issue 28, "fair to the readings nobody listed"): a fairness and code review of the newest fixes (reading
 * round r28's two false failures, review-au fixes, transliteratedAlike, fix-wb26) and of what no review had read
 * (suites/password.test.ts, helpers/arrange/password.ts, the image tests of suites/cards.test.ts). Each allowed-* probe
 * takes one choice the text leaves open, the other way from the reference; each description quotes the text that leaves
 * the point open. Verdicts (bin/mutants.mjs --shards 1 --mutant NAME), 2026-11-28: in the report of review-av.
 */

const isObject = (value: unknown): value is Record<string, any> => !!value && typeof value === 'object' && !Array.isArray(value);
const ACCOUNT_STATES = ['user', 'user.inactive', 'user.expired-token', 'user.short-session', 'user.brute-force', 'user.locked', 'user.throttled', 'user.forbidden'];

/** A password of exactly `length` letters and digits (a hook's fixed-length generator). */
const passwordOf = (length: number): string => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let out = '';
  for (const byte of randomBytes(length)) out += alphabet[byte % alphabet.length];
  return out;
};

/** The first 72 bytes of a password, what bcrypt keeps of it. */
const bcryptKept = (password: string): string => Buffer.from(password, 'utf8').subarray(0, 72).toString('utf8');

/** The signed reset tokens the `password-reset.token` state answered, by the first 72 bytes bcrypt compares of each. */
const signedTokens = new Map<string, string>();
/** A token of 96 characters standing for `token`: the token, a full stop and a base64url signature of it. */
const signedTokenOf = (token: string): string => `${token}.${createHash('sha256').update(`sig:${token}`).digest('base64url')}`.slice(0, 96);

const written: Mutant[] = [
  // F1 (code review of 00cba72, wrongPasswordOf): two allowed readings together. The state's password of 100 characters
  // (a length 4.2 allows, as allowed-r28-state-passwords-191-characters takes 191) with `-wrong` appended is 106
  // characters, so wrongPasswordOf appends; bcrypt (allowed-login-password-72-byte-prefix) compares only the first 72
  // bytes, and takes the suite's "wrong" password as the right one.
  reading(
    'allowed-review-av-state-passwords-100-characters-bcrypt',
    'authentication',
    '4.2',
    'the accounts the provider states make have passwords of 100 letters and digits, and the service keeps a password as bcrypt does, its first 72 bytes (allowed-login-password-72-byte-prefix), as a Laravel service with the framework\u2019s default hasher whose hook draws long random passwords makes them (docs/provider-states.md, `user`: "{ id, email, password, ... }": the password\u2019s length is left to the target; 4.2: "password | string | yes | min 8, max 191 characters"; readings of 8 and 191 characters were pinned in round r28)',
    {
      deviation: 'login.password-72-byte-prefix',
      state(name: string, data: unknown, ctx: ReferenceContext) {
        if (!ACCOUNT_STATES.includes(name) || !isObject(data) || typeof data.password !== 'string' || typeof data.id !== 'string') return data;
        const password = passwordOf(100);
        const changed = ctx.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hashPassword(bcryptKept(password)), data.id).changes;
        return changed === 1 ? { ...data, password } : data;
      },
    },
    only('authentication', 'password'),
  ),
  // F2 (suites/password.test.ts, 'answers 422 keyed by token for a token that was never sent'): the wrong token is the
  // e-mailed one with its LAST four characters changed, where the sibling test of wb14 (a character appended or removed)
  // is not verified for a token of 72 bytes or more, since a token compared as bcrypt compares does not see its end.
  reading(
    'allowed-review-av-reset-token-signed-96-bcrypt',
    'password',
    '4.4',
    'the forgot-password e-mail carries a signed reset token of 96 characters (the token, a full stop and a base64url signature), the `password-reset.token` state answers it so, and the service keeps a reset token as it keeps a password, hashed with bcrypt, so it compares the token’s first 72 bytes (4.4: "token | string | yes | max 255; the token received by e-mail": its form and length are not given, nor how it is compared; docs/judging.md "A reset token is the one e-mailed" already leaves a token of 72 bytes or more compared so unjudged at its end; allowed-login-password-72-byte-prefix is the same comparison for passwords)',
    {
      request(request: FastifyRequest) {
        if (request.method !== 'POST' || routeOf(request) !== RESET) return;
        onParsedBody(request, (body) => {
          if (typeof body.token !== 'string' || Buffer.byteLength(body.token, 'utf8') < 72) return;
          const token = signedTokens.get(bcryptKept(body.token));
          if (token !== undefined) body.token = token;
        });
      },
      state(name: string, data: unknown) {
        if (name !== 'password-reset.token' || !isObject(data) || typeof data.token !== 'string' || data.token.length >= 72) return data;
        const signed = signedTokenOf(data.token);
        signedTokens.set(bcryptKept(signed), data.token);
        return { ...data, token: signed };
      },
    },
    only('password'),
  ),
];

export const probesReviewAvMutants: readonly Mutant[] = written;
