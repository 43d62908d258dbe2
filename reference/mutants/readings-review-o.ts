import type { Mutant } from './types.js';
import { ROUTE, answered } from './make.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import { isSessionAnswer, onAnswers, parse, reading, recordsOf, only, tokenShownAs } from './reading.js';

/**
 * Readings found by the read-only review review-o (issue 28): expects of the suite that decided a point the text leaves
 * open, each pinned here as an allowed reading that must stay conformant (branch fix-o fixed the suite; docs/judging.md
 * gives each judgement and its reason). Each description quotes the text that leaves the point open.
 */
const CARDS = '/api/v1/user/:user/card';
const CARD = '/api/v1/user/:user/card/:card';

export const readingsReviewOMutants: Mutant[] = [
  // Storage normalises holderName (a DB trigger / column rule upper-cases it); the create answer is the model built
  // from the request (not read back), so it shows the letters sent; every read shows the stored, upper-cased form.
  reading(
    'allowed-o-card-reads-holder-upper-create-echoes',
    'cards',
    '2.5',
    'holderName stored upper-case (a column rule, as embossed cards are); the 201 answers the model built from the request, so it shows the letters sent, and every list and show the stored text (2.5 gives holderName as "string" and no clause says a record repeats the letters sent)',
    onAnswers([CARDS, CARD], (body, answer) => {
      if (answer.method !== 'GET') return false;
      const records = recordsOf(body).filter((r) => r && typeof r.holderName === 'string');
      if (records.length === 0) return false;
      for (const r of records) r.holderName = r.holderName.toUpperCase();
    }),
    only('cards'),
  ),
  // Access tokens whose secret is written in hex (random bytes, base16), read by a hex decoder, which takes either
  // letter case (Go hex.DecodeString, Python bytes.fromhex, Node Buffer.from(x, 'hex')): `7|9F86...` is `7|9f86...`.
  reading(
    'allowed-o-token-secret-hex-read-case-free',
    'banks',
    '2.1',
    'the access token\u2019s secret is random bytes written in lower-case hex, read back by a hex decoder, which takes either letter case (2.1: "Access token, form <numeric_id>|<secret>", no alphabet given)',
    hexTokens(),
    only('authentication', 'banks'),
  ),
  // A target whose clock runs 400 s behind the suite's (its Date header and its Sessions alike) and whose access tokens
  // live 300 s (an OAuth-style short access token): every Session is consistent with the target's own Date.
  reading(
    'allowed-o-target-clock-400s-behind-ttl-300',
    'authentication',
    '2.1',
    'the target\u2019s clock runs 400 s behind the suite\u2019s (its Date header and its Sessions alike) and its sessions live 300 s (2.1: ttl "Lifetime in seconds", until "ISO 8601 UTC timestamp, expiry": whose clock is not said)',
    {
      wire(answer, reply) {
        const skewMs = 400_000;
        reply.header('date', new Date(Date.now() - skewMs).toUTCString());
        if (!isSessionAnswer(answer)) return undefined;
        const body = parse(answer.payload);
        const session = body?.data;
        if (!session || typeof session.created !== 'string' || !(session.ttl >= 60)) return undefined;
        const created = Date.parse(session.created) - skewMs;
        const micros = /\.(\d{6})/.exec(session.created)?.[1] ?? '000000';
        const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, `.${micros}Z`);
        session.ttl = 300;
        session.created = iso(created);
        session.until = iso(created + 300_000);
        return JSON.stringify(body);
      },
    },
    only('authentication'),
  ),
  // Review-q: a re-cased one-case hex secret refused with 403 instead of 401 (the hex reading excuses acceptance only).
  {
    name: 'q-token-secret-hex-recased-403',
    clause: '5',
    group: 'banks',
    description: 'section 5.3 ("Without valid authentication the response is 401"): access tokens with a lower-case hex secret, and that secret sent in upper case answered 403 "This action is unauthorized." on bank endpoints, neither read as the same token nor 401',
    mutation: hexTokensRecasedForbidden(),
  },
  // The inactive account's 403 on bank, bonus and card endpoints written { error } (an account check in the auth
  // middleware, as the 401s of protected endpoints are), not { message }.
  reading(
    'allowed-o-inactive-403-as-error-member',
    'banks',
    '7',
    'the inactive account\u2019s 403 on bank, bonus and card endpoints written { error } (section 7: "{ error: string } for authentication failures", "{ message: string } for most other errors"; 5.6: "403 with a message that the account is inactive")',
    {
      wire(answer) {
        if (answer.status !== 403 || !/\/(bank|bonus|card)/.test(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body.message !== 'string' || !/inactive/i.test(body.message)) return undefined;
        return JSON.stringify({ error: body.message });
      },
    },
    { groups: ['banks', 'bonuses', 'cards'], clauses: 'all' },
  ),
  // A deviation beside it: the inactive account's 403 with neither member (no message at all) still fails.
  {
    name: 'o-inactive-403-neither-member',
    clause: '5',
    group: 'banks',
    description: 'section 5.6 ("Inactive accounts receive 403 with a message that the account is inactive"): the inactive account\u2019s 403 on bank, bonus and card endpoints carries neither { message } nor { error } ({ status: "inactive" })',
    mutation: {
      wire(answer) {
        if (answer.status !== 403 || !/\/(bank|bonus|card)/.test(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (!body || typeof body.message !== 'string' || !/inactive/i.test(body.message)) return undefined;
        return JSON.stringify({ status: 'inactive' });
      },
    },
  },
  // Login e-mails of 190 and 191 characters need DNS labels under example.com, which do not resolve: a validator that
  // checks the domain resolves (Laravel's email:dns) refuses them, and a short address of the same domain alike.
  reading(
    'allowed-o-login-email-domain-must-resolve',
    'authentication',
    '4.2',
    'a login e-mail whose domain does not resolve is refused with 422 keyed by email, as Laravel\u2019s email:dns rule refuses it (4.2: email "required, a valid e-mail, max 191": whether its domain must resolve is not said); stood in for by a domain with a label of 40 characters or more',
    answered(ROUTE.login, undefined, (_body, request, status) => {
      const email = request.body?.email;
      if (status === 422 || typeof email !== 'string' || !email.includes('@')) return;
      if (!email.slice(email.lastIndexOf('@') + 1).split('.').some((label) => label.length >= 40)) return;
      return { status: 422, body: { message: 'The email field must be a valid email address.', errors: { email: ['The email field must be a valid email address.'] } } };
    }),
    only('authentication'),
  ),
  // A deviation beside it: a limit of 190 characters (the 191-character address refused for its length; a short address
  // of the same domain is accepted), which the control does not excuse.
  {
    name: 'o-authenticate-email-max-190',
    clause: '8',
    group: 'authentication',
    description: 'section 8 ("max 191" for the login e-mail): a login e-mail of 191 characters is refused with 422 keyed by email (the limit is 190)',
    mutation: answered(ROUTE.login, undefined, (_body, request, status) => {
      const email = request.body?.email;
      if (status === 422 || typeof email !== 'string' || email.length !== 191) return;
      return { status: 422, body: { message: 'The email field must not be greater than 190 characters.', errors: { email: ['The email field must not be greater than 190 characters.'] } } };
    }),
  },
];

/**
 * Review-q: access tokens with a lower-case hex secret (as hexTokens) whose secret sent in another letter case is
 * refused with 403 `{ message: "This action is unauthorized." }` (an authorization layer that finds no token) instead
 * of 401: neither the answer of a token read case-free (the session's own answer) nor section 5.3's 401.
 */
function hexTokensRecasedForbidden(): { request(request: FastifyRequest): void; wire(answer: WireAnswer, reply: FastifyReply): string | undefined } {
  const tokens = tokenShownAs(hexSecret);
  const recased = new WeakSet<object>();
  return {
    request(request) {
      const shown = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
      const split = shown ? /^(\d+)\|([0-9A-Fa-f]+)$/.exec(shown) : null;
      if (split && !tokens.issued.has(shown!) && tokens.issued.has(`${split[1]}|${split[2]!.toLowerCase()}`)) recased.add(request);
      tokens.request(request);
    },
    wire(answer, reply) {
      if (recased.has(reply.request) && answer.status === 401) {
        reply.code(403);
        return JSON.stringify({ message: 'This action is unauthorized.' });
      }
      return tokens.wire(answer);
    },
  };
}

/** A token's secret shown as the lower-case hex of its UTF-8 bytes. */
function hexSecret(id: string, secret: string): string {
  return `${id}|${Buffer.from(secret, 'utf8').toString('hex')}`;
}

/** Tokens shown with a lower-case hex secret (hexSecret) and read case-free, as a hex decoder reads them. */
function hexTokens(): { request(request: FastifyRequest): void; wire(answer: WireAnswer): string | undefined } {
  return tokenShownAs(hexSecret, (bearer) => bearer.replace(/^(\d+)\|([0-9A-Fa-f]+)$/, (_whole, id: string, secret: string) => `${id}|${secret.toLowerCase()}`));
}
