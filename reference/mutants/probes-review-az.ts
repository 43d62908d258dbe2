import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.js';
import type { Mutation, WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { holderNamesEmbossed, isSessionAnswer, onAnswers, onForgotToken, only, parse, reading, recordsOf } from './reading.js';
import { swiftCyrillic } from './readings-r30.js';
import { BANK_ROUTES, BONUS_ROUTES, FORGOT, NFT_ROUTES } from './routes.js';

/**
 * review-az (issues 27 and 28): a code and fairness review of 2f49392 (the body scan's decodings, JSON and PHP texts,
 * member names, new credential names and hash formats), fix-ay (577b4c6..80ac942), dcd9dfd, 6955509, b673c50 and
 * e6b43d4. Each allowed-* probe takes a choice the text leaves open (a pin where it stays conformant); each deviation
 * (no `allowed-`) is a leak the suite should catch, proving a loss of detection when it survives. Verdicts below
 * (bin/mutants.mjs --shards 1 --mutant NAME; bin/conformance.mjs run --mutant NAME --group G), 2026-11-28:
 * - F1 allowed-review-az-nft-meta-pass-tier: REFUSED, balances 20 of 85 fail, 57 findings ("GET /api/v1/user/{user}/
 *   balances/nft answered 200 whose body /data/0/meta/pass is a credential field (pass)"). 2f49392 added `pass` to
 *   CREDENTIAL_NAMES (helpers/spec/credential-names.ts), and isCredentialValue takes any non-empty string: a member
 *   named `pass` is a finding whatever it means (a membership pass, a pass/fail check).
 * - F2 allowed-review-az-bonus-user-meta-pwd-flag: REFUSED, bonuses 33 of 72 fail, 172 findings ("/data/0/user/meta/pwd
 *   is a credential field (pwd)"): the same for `pwd`.
 * - F3 allowed-review-az-anti-phishing-platform-name-keyed-meta: REFUSED, bonuses 13 of 72 fail, 45 findings ("GET
 *   /api/v1/user/{user}/bonus answered 200 whose body /data/0/order/meta/fees/[REDACTED] (its member name) carries the
 *   anti-phishing code of another user than the one it answers"). 2f49392 searches a member name of 16 characters or
 *   more for every learnt secret but `configured` and `header-value`, own codes included, and judges it with no member:
 *   r29's code that is the platform's name (public text as a value, aaaf419) is a leak as a map key.
 * - F4 allowed-review-az-bonus-user-meta-settings-json-text: REFUSED, bonuses 33 of 72 fail, 354 findings ("/data/0/user/
 *   meta/settings (JSON text)/login/password is a credential field (password)"): a JSON text, opaque before 2f49392, is
 *   now walked as the answer's own members, so a settings flag `"password": "1"` inside it is a credential.
 * - R1 allowed-review-az-card-holder-swift-cyrillic: conformant (cards 177 passed). The very conversion e6b43d4 rules a
 *   deviation for a bankName ("the letters of one script rewritten and the others kept", r30-bank-name-cyrillic-swift-
 *   transliteration) passes for a holderName (the storage-normalisation row: "a character a table lacks kept as sent").
 * - P1 allowed-review-az-body-encoded-values: conformant (banks 170 passed, 0 findings): a login's refresh JWT naming its
 *   own Session, base64url JSON cursors, hex digests, base64 images and JSON texts in bank records give nothing.
 * - D1 review-az-forgot-answer-carries-reset-link-base64url-payload: SURVIVED (--no-hints; password 69 passed, 0
 *   findings): a string is decoded whole or by its `.`-segments only, so base64url inside a URL's query is never read.
 * - D2 review-az-bonus-header-carries-previous-users-anti-phishing-code: SURVIVED (--no-hints; bonuses 72 passed, 0
 *   findings, 38 advisories "header x-anti-phishing carries, as a whole value or piece, the anti-phishing code of another
 *   user ..., so not a security finding"): a62e4a3 made every long code of another user that is a whole header value an
 *   advisory unless the run saw it as public text (d390eff still found it), so a header filled from a cache shared
 *   across users leaks each user's code to the next one unjudged. The header of allowed-review-ay-anti-phishing-platform-
 *   name-header is one constant for every user; this one changes with the user it follows.
 * - S1 (safety, a throwaway measurement, not kept): scanCredentials' new `push` dedups with `list.includes`, quadratic in
 *   the findings of one answer. A 1 MiB body of 90,000 `{"pwd":"y"}` members: one scan 162-214 s (112 ms with a plain
 *   push, same findings); 9,000 members (100 KiB) 1.6-8 s; 16,000 bcrypt strings 2.3-4.5 s (114 ms). Each answer is
 *   scanned on arrival and again at the test's end.
 * - S2 (safety, measured alike): a string holding a JSON text is parsed whole (up to 1 MiB, twice: jsonText is called
 *   again for the pointer's label, and again at the rescan), outside the decoding budget: a 1 MiB string of 500,000
 *   nested `[` took 1.1 s and 122 MB RSS per scan.
 */

const b64u = (text: string | Buffer): string => Buffer.from(text).toString('base64url');

/** A reset link carrying its payload in base64url JSON in the query (review-az D1). */
function forgotAnswersResetLink(): Mutation {
  return onForgotToken((answer, _reply, token, email) => {
    const body = parse(answer.payload);
    if (!body?.data) return undefined;
    body.data.link = `https://accounts.example.com/reset?p=${b64u(JSON.stringify({ email, token, v: 1 }))}`;
    return JSON.stringify(body);
  });
}

/** Review-az D2: the anti-phishing code of the last other user a bonus answer served, in a header (a cache shared across users). */
function bonusHeaderCarriesPreviousUsersCode(): Mutation {
  const byRequest = new WeakMap<object, ReferenceContext>();
  const last = new WeakMap<object, { user: string; code: string }>();
  return {
    request(request: FastifyRequest, ctx?: ReferenceContext) {
      if (ctx) byRequest.set(request, ctx);
    },
    state(name: string, data: unknown, ctx: ReferenceContext) {
      const value = data as Record<string, any> | null;
      if (name !== 'bonuses' || !value || typeof value.antiPhishing !== 'string' || !Array.isArray(value.ids) || typeof value.ids[0] !== 'string') return data;
      const row = ctx.db.prepare('SELECT user_id AS userId FROM bonuses WHERE id = ?').get(value.ids[0]) as { userId: string } | undefined;
      if (!row) return data;
      const code = randomBytes(16).toString('hex');
      ctx.db.prepare('UPDATE users SET anti_phishing = ? WHERE id = ?').run(code, row.userId);
      return { ...value, antiPhishing: code };
    },
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (!BONUS_ROUTES.includes(answer.url) || answer.status !== 200) return undefined;
      const ctx = byRequest.get(reply.request);
      const user = (reply.request.params as Record<string, unknown> | undefined)?.user;
      if (!ctx || typeof user !== 'string') return undefined;
      const row = ctx.db.prepare('SELECT anti_phishing AS code FROM users WHERE id = ?').get(user) as { code: string } | undefined;
      const previous = last.get(ctx);
      if (previous !== undefined && previous.user !== user) reply.header('x-anti-phishing', previous.code);
      if (row && row.code.length >= 32) last.set(ctx, { user, code: row.code });
      return undefined;
    },
  };
}

const written: Mutant[] = [
  // F1 (item 1, 2f49392's credential name `pass`): an NFT that is a membership pass (a season or VIP pass, a common NFT
  // kind) names its tier in its metadata, `meta.pass: "Gold"`; any string under a member named `pass` is now "a credential
  // field", whatever it means.
  reading(
    'allowed-review-az-nft-meta-pass-tier',
    'balances',
    '2.2',
    'an NFT that is a membership pass carries its tier in its metadata, `meta: { image, url, owner, creator, pass: "Gold" }` (2.2: meta "May be empty. Keys seen: `image`, `url`, `owner`, `creator`": the keys seen, not all keys; extra members are allowed, issue 28; the value is a tier\u2019s name, no password of anyone)',
    onAnswers(NFT_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (record && typeof record === 'object' && record.type === 'nft') record.meta = { ...(record.meta ?? {}), pass: 'Gold' };
    }),
    only('balances'),
  ),
  // F2 (item 1, 2f49392's credential name `pwd`): a user object whose meta keeps a flag named `pwd` meaning "person with
  // disability" (the Philippine PWD discount status, RA 10754), as a string.
  reading(
    'allowed-review-az-bonus-user-meta-pwd-flag',
    'bonuses',
    '2.6',
    'the user object inside a bonus carries in its meta, beside `source`, the Philippine "PWD" (person with disability) discount status that exchanges serving the Philippines keep on a profile (RA 10754), `meta: { source, pwd: "none" }` (2.6: meta "object: `source` (string)"; extra members are allowed, issue 28; `pwd` is no password there)',
    onAnswers(BONUS_ROUTES, (body) => {
      for (const record of recordsOf(body)) if (record?.user && typeof record.user === 'object') record.user.meta = { ...(record.user.meta ?? {}), pwd: 'none' };
    }),
    only('bonuses'),
  ),
  // P1 (item 1, a pin): what a body ordinarily carries in base64, base64url, hex and JSON text must give no finding: a
  // refresh JWT in the login answer naming its own Session, base64url JSON cursors, hex digests, a base64 logo image, a
  // JSON text of the record's own fields.
  reading(
    'allowed-review-az-body-encoded-values',
    'banks',
    '1',
    'a login answer also issues `data.refreshToken`, a JWT whose payload names its own Session (`sid`: the Session id) and user; every bank record carries `cursor` (base64url JSON of its id and createdAt), `etag` (hex SHA-256 of the record), `logo` (a base64 PNG of random bytes) and `raw` (a JSON text of its own bankName and currency) (extra members are allowed, issue 28; a credential issued to the caller in the answer to its own authentication is no finding)',
    {
      wire(answer: WireAnswer) {
        if (isSessionAnswer(answer)) {
          const body = parse(answer.payload);
          const data = body?.data;
          if (typeof data?.id !== 'string' || typeof data?.userId !== 'string') return undefined;
          const head = b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
          const claims = b64u(JSON.stringify({ sub: data.userId, sid: data.id, typ: 'refresh', iat: Math.floor(Date.now() / 1000) }));
          data.refreshToken = `${head}.${claims}.${createHash('sha256').update(`${head}.${claims}`).digest('base64url')}`;
          return JSON.stringify(body);
        }
        if ((answer.status !== 200 && answer.status !== 201) || !BANK_ROUTES.includes(answer.url)) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        for (const record of recordsOf(body)) {
          if (!record || typeof record !== 'object' || typeof record.id !== 'string') continue;
          record.etag = createHash('sha256').update(JSON.stringify(record)).digest('hex');
          record.cursor = b64u(JSON.stringify({ id: record.id, createdAt: record.createdAt }));
          record.logo = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(48)]).toString('base64');
          record.raw = JSON.stringify({ bankName: record.bankName, currency: record.currency });
        }
        return JSON.stringify(body);
      },
    },
    only('banks'),
  ),
  // F3 (item 1, 2f49392's member names searched as values): reading round r29's anti-phishing code equal to the
  // platform's name (allowed-r29-state-anti-phishing-platform-name), and an order meta keyed by platform name. The name is
  // public text as a member's value (aaaf419's `whole` verdict); as a member's NAME it is searched as a secret, without a
  // member to give it a meaning.
  reading(
    'allowed-review-az-anti-phishing-platform-name-keyed-meta',
    'bonuses',
    '2.7',
    'the provider-state hook gives each account it makes with bonuses the name of its platform (`Reference Exchange`) as its anti-phishing code (reading round r29), and a bonus\u2019s order carries in its meta, beside `main`, the fee per platform keyed by the platform\u2019s name, `meta: { main: [...], fees: { "Reference Exchange": "0.5" } }` (2.7: order meta "object with `main` (array)": other members are not excluded; extra members are allowed, issue 28; a platform\u2019s name is public text)',
    {
      state(name: string, data: unknown, ctx: ReferenceContext) {
        const isObject = (value: unknown): value is Record<string, any> => !!value && typeof value === 'object' && !Array.isArray(value);
        if (name !== 'bonuses' || !isObject(data) || typeof data.antiPhishing !== 'string' || !Array.isArray(data.ids) || typeof data.ids[0] !== 'string') return data;
        const row = ctx.db.prepare('SELECT b.user_id AS userId, p.name AS platform FROM bonuses b JOIN bonus_orders o ON o.id = b.order_id JOIN platforms p ON p.id = o.platform_id WHERE b.id = ?').get(data.ids[0]) as { userId: string; platform: string } | undefined;
        if (!row) return data;
        ctx.db.prepare('UPDATE users SET anti_phishing = ? WHERE id = ?').run(row.platform, row.userId);
        return { ...data, antiPhishing: row.platform };
      },
      ...onAnswers(BONUS_ROUTES, (body) => {
        for (const record of recordsOf(body)) {
          const order = record?.order;
          const platform = order?.externalPlatform?.name;
          if (!order || typeof order !== 'object' || typeof platform !== 'string') continue;
          order.meta = { ...(order.meta ?? { main: [] }), fees: { [platform]: '0.5' } };
        }
      }),
    },
    only('bonuses'),
  ),
  // F4 (item 1, 2f49392's JSON text walked as members): a user's meta keeps its guard settings as the JSON text a PHP form
  // stored, flags written "1"/"0"; the text was opaque before, and now `password: "1"` in it is "a credential field".
  reading(
    'allowed-review-az-bonus-user-meta-settings-json-text',
    'bonuses',
    '2.6',
    'the user object inside a bonus carries in its meta, beside `source`, the JSON text its settings were saved as by a PHP form (`json_encode($request->input(\'guard\'))`, flags as the strings "1" and "0"), `meta: { source, settings: "{\\"login\\":{\\"2fa\\":\\"0\\",\\"password\\":\\"1\\"}}" }` (2.6: meta "object: `source` (string)"; extra members are allowed, issue 28; a JSON string is text, 1.2; the flag is no password)',
    onAnswers(BONUS_ROUTES, (body) => {
      for (const record of recordsOf(body)) {
        if (record?.user && typeof record.user === 'object') record.user.meta = { ...(record.user.meta ?? {}), settings: JSON.stringify({ login: { '2fa': '0', password: '1' }, operations: { '2fa': '0', password: '1' } }) };
      }
    }),
    only('bonuses'),
  ),
  // R1 (item 5, e6b43d4's ruling on allowed-r30-bank-name-cyrillic-swift-transliteration): the very conversion ruled "a
  // rewrite of some letters, not a conversion to a set" for a bankName, applied to a card's holderName.
  reading(
    'allowed-review-az-card-holder-swift-cyrillic',
    'cards',
    '2.5',
    'a card\u2019s `holderName` is stored and shown with its Cyrillic letters transliterated as SWIFT\u2019s Russian scheme for MT messages writes them (\u0416 J, \u0426 C, \u0427 CH, \u042e IU, \u042a and \u042c an apostrophe), every other character kept, as a Russian issuer\u2019s card system does (2.5: "holderName | string"; 4.6a: "holderName | string | yes | max 191": nothing says a record repeats the characters sent)',
    holderNamesEmbossed(swiftCyrillic),
    only('cards'),
  ),
];

/**
 * Deviations (no `allowed-`): leaks the suite should catch; a survivor proves a loss of detection.
 */
const deviations: Mutant[] = [
  // D1 (item 1): the forgot-password answer carries the reset link, whose query holds the token in base64url JSON (a
  // stateless reset link, as Laravel's signed URL or a SPA's `?p=` payload carries it). 2f49392 decodes a whole string or
  // its `.`-segments only; a URL's query is neither.
  {
    name: 'review-az-forgot-answer-carries-reset-link-base64url-payload',
    group: 'password',
    clause: '4.4',
    description: 'forgot-password answers `data.link`, the reset link e-mailed, `https://accounts.example.com/reset?p=<base64url of {"email","token"}>`: the reset token in an answer, base64url-encoded inside a URL (4.4: the token is received by e-mail)',
    mutation: forgotAnswersResetLink(),
  } as Mutant,
  // D2 (item 2, a62e4a3's F1 rule): another user's long anti-phishing code as a whole header value is advised on only,
  // at the test's end, unless the run saw it as public text: a header filled from a cache shared across users.
  {
    name: 'review-az-bonus-header-carries-previous-users-anti-phishing-code',
    group: 'bonuses',
    clause: '2.6',
    description: 'the hook gives each account with bonuses a long anti-phishing code (32 hex digits), and every bonus answer carries `X-Anti-Phishing: <the code of the last other user a bonus answer served>` (a header cached across users): another user\u2019s anti-phishing code, which 2.6 masks even to its owner',
    mutation: bonusHeaderCarriesPreviousUsersCode(),
  } as Mutant,
];

/**
 * Open after the review (the lead): D2 survives. A long code as a whole header value may be public text (review-ay F1:
 * a platform's name that a white-label deployment names in a header, which the run may not have seen in a body yet when
 * the test ends), and no rule yet tells that from another user's code in the same place without depending on the order
 * of tests. Not registered until a check catches it.
 */
const OPEN = new Set<string>(['review-az-bonus-header-carries-previous-users-anti-phishing-code']);

/** The open gaps of the review (not registered). */
export const probesReviewAzOpenGaps: readonly Mutant[] = deviations.filter((m) => OPEN.has(m.name));

export const probesReviewAzMutants: readonly Mutant[] = [...written, ...deviations.filter((m) => !OPEN.has(m.name))];
