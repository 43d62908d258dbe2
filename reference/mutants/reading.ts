import type { Group } from '../../helpers/spec/catalogue.js';
import { createHash, createPublicKey, randomUUID, verify } from 'node:crypto';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFERENCE_ROOT, type Mutation, type ResponseTransform, type WireAnswer } from '../mutation.js';
import type { ReferenceContext } from '../context.js';
import type { Mutant } from './types.js';
import { BANKS, CARD_ROUTES, CARDS, COIN_ROUTES, FORGOT, NFT_ROUTES } from './routes.js';

/** The pieces every reading round (readings-r3.ts and later) writes its allowed readings with. */

export type Judged = Mutant['judgedBy'];
/** A reading judged by every test of every group. */
export const ALL: Judged = { groups: 'all', clauses: 'all' };
/** A reading judged by every test of these groups. */
export const only = (...groups: Group[]): Judged => ({ groups, clauses: 'all' });

/** An allowed reading: a choice the specification leaves open, which must stay conformant. */
export function reading(name: string, group: Mutant['group'], clause: string, description: string, mutation: Mutant['mutation'], judgedBy: Judged): Mutant {
  return { name, group, clause, description, mutation, allowed: true, judgedBy };
}

/** The same transform on several routes. */
export function onRoutes(routes: readonly string[], apply: ResponseTransform['apply'], status?: number): ResponseTransform[] {
  return routes.map((route) => ({ route, ...(status === undefined ? {} : { status }), apply }));
}

/** The records of an answer: `data` as a list, `data.coins`, or `data` as one record. */
export function recordsOf(body: any): any[] {
  if (Array.isArray(body?.data)) return body.data;
  if (Array.isArray(body?.data?.coins)) return body.data.coins;
  return body?.data && typeof body.data === 'object' ? [body.data] : [];
}

/**
 * What a mutant remembers across answers, kept for one reference server (`reply.server`, or the `server` a transform is
 * given). A mutant object outlives its server: the mutation runner judges it in several runs (its hinted tests, then
 * the whole run), each against a new reference. A memory kept in the closure carried one run's values into the next,
 * so "the token of the server's first login" became a token no test of the new run had seen, and the deviation was
 * judged on a value from elsewhere (login-session-leaks-first-refresh-token survived CI once the suite forgot, per
 * target, what it had learnt).
 */
export function perServer<T>(init: () => T): (server: object) => T {
  const memories = new WeakMap<object, T>();
  return (server) => {
    // The reference itself, whichever encapsulated scope of it answers (r31: the cards' routes have a server of their own).
    const root = ((server as Record<symbol, unknown>)[REFERENCE_ROOT] as object | undefined) ?? server;
    let memory = memories.get(root);
    if (memory === undefined) memories.set(root, (memory = init()));
    return memory;
  };
}

/**
 * A mutation made afresh for each reference server (perServer): the memory its factory's closure keeps (the last login,
 * a platform seen, symbols known) is that server's alone. For mutations of request, wire and transform hooks; one with a
 * provider-state hook keeps its memory itself.
 */
export function perServerMutation(make: () => Mutation): Mutation {
  const shape = make();
  if (shape.state) throw new Error('perServerMutation: a mutation with a state hook keeps its memory per server itself');
  const of = perServer(make);
  const mutation: Mutation = {};
  if (shape.deviation !== undefined) mutation.deviation = shape.deviation;
  if (shape.deviations !== undefined) mutation.deviations = shape.deviations;
  if (shape.contentType !== undefined) mutation.contentType = shape.contentType;
  if (shape.request) mutation.request = (request, ctx) => of(request.server).request!(request, ctx);
  if (shape.wire) mutation.wire = (answer, reply) => of(reply.server).wire!(answer, reply);
  const fresh = (transform: ResponseTransform, pick: (made: Mutation) => ResponseTransform): ResponseTransform => ({ ...transform, apply: (body, status, server) => pick(of(server)).apply(body, status, server) });
  if (shape.transform) mutation.transform = fresh(shape.transform, (made) => made.transform!);
  if (shape.transforms) mutation.transforms = shape.transforms.map((transform, i) => fresh(transform, (made) => made.transforms![i]!));
  return mutation;
}

/** The reset token a forgot-password just e-mailed (the reference's outbox keeps the e-mail as sent). */
export function lastResetToken(ctx: ReferenceContext, email: string): string | undefined {
  const row = ctx.db.prepare('SELECT token FROM outbox WHERE recipient = ? COLLATE NOCASE ORDER BY created_ms DESC, rowid DESC LIMIT 1').get(email) as { token: string } | undefined;
  return row?.token;
}

/** A Set-Cookie added to an answer as sent, after those already set. */
export function setCookie(reply: FastifyReply, value: string): void {
  const prior = reply.getHeader('set-cookie');
  reply.header('set-cookie', prior === undefined ? value : [...(Array.isArray(prior) ? prior.map(String) : [String(prior)]), value]);
}

/** A header set on an answer as sent, a Set-Cookie appended to those already set (the body is left as it is). */
export function setHeader(reply: FastifyReply, name: string, value: string): void {
  const prior = reply.getHeader(name);
  if (name.toLowerCase() === 'set-cookie' && prior !== undefined) reply.header(name, [...(Array.isArray(prior) ? prior : [String(prior)]), value]);
  else reply.header(name, value);
}

/** The reference context of each request, seen by a mutation's request hook (wire hooks get none). */
export function requestContexts() {
  const byRequest = new WeakMap<object, ReferenceContext>();
  return {
    see(request: FastifyRequest, ctx: ReferenceContext | undefined) {
      if (ctx) byRequest.set(request, ctx);
    },
    of: (reply: FastifyReply): ReferenceContext | undefined => byRequest.get(reply.request),
  };
}

/**
 * A wire hook on each forgot-password answered 200, given the token its e-mail carried (the reference's outbox) and the
 * address it went to: what `act` returns replaces the answer's text (undefined: left as it is).
 */
export function onForgotToken(act: (answer: WireAnswer, reply: FastifyReply, token: string, email: string) => string | undefined): Mutation {
  const contexts = requestContexts();
  return {
    request: (request, ctx) => contexts.see(request, ctx),
    wire(answer, reply) {
      if (answer.method !== 'POST' || answer.url !== FORGOT || answer.status !== 200) return undefined;
      const ctx = contexts.of(reply);
      const email = (reply.request.body as Record<string, unknown> | undefined)?.email;
      if (!ctx || typeof email !== 'string') return undefined;
      const token = lastResetToken(ctx, email);
      return token ? act(answer, reply, token, email) : undefined;
    },
  };
}

/** The JSON of an answer's text, or undefined when it is not JSON. */
export function parse(payload: string): any {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

/** The successful answers (200, 201) of `urls` changed by `change`, which edits the body in place (and may set headers through `reply`). */
export function onSuccess(urls: readonly string[], change: (body: any, answer: WireAnswer, reply: FastifyReply) => void) {
  return onAnswers(urls, change);
}

/** As onSuccess, where `change` may answer false to leave the answer as it is (rounds r13 and r14). */
export function onAnswers(urls: readonly string[], change: (body: any, answer: WireAnswer, reply: FastifyReply) => boolean | void) {
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if ((answer.status !== 200 && answer.status !== 201) || !urls.includes(answer.url)) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      return change(body, answer, reply) === false ? undefined : JSON.stringify(body);
    },
  };
}

/** The route (fastify form) of a request, when it matched one. */
export const routeOf = (request: FastifyRequest): string => request.routeOptions?.url ?? '';

/** The orders of the bonus records of an answer. */
export const ordersOf = (body: any): any[] => recordsOf(body).map((record) => record?.order).filter((order) => order && typeof order === 'object');

/** The asset summaries (2.3) of the bonus records and bonus asset summaries of an answer. */
export function assetSummariesOf(body: any): any[] {
  const found: any[] = [];
  for (const record of recordsOf(body)) found.push(record?.asset, record?.order?.fromAsset, record?.order?.toAsset);
  return found.filter((summary) => summary && typeof summary === 'object');
}

/** Each string field `keys` of the records of an answer rewritten by `rewrite`. */
export function eachText(body: any, keys: readonly string[], rewrite: (text: string) => string): void {
  for (const record of recordsOf(body)) for (const key of keys) if (typeof record?.[key] === 'string') record[key] = rewrite(record[key]);
}

/** An answer that issues a Session: a login or a JWT login answered 200. */
export const isSessionAnswer = (answer: WireAnswer): boolean => answer.status === 200 && (answer.url === '/api/v1/authenticate' || answer.url === '/api/v1/authenticate-jwt/:platform');

/**
 * A reading that shows each issued access token (`<id>|<secret>`) as `show(id, secret, userId)` in the Session, and
 * maps the shown form back to the token before the request is authenticated: a bearer `readAs` turns into a shown form
 * (the identity: exactly as shown). `issued` holds the shown forms, for a reading that judges other bearers itself.
 */
export function tokenShownAs(show: (id: string, secret: string, userId: string) => string, readAs: (bearer: string) => string = (bearer) => bearer): { request(request: FastifyRequest): void; wire(answer: WireAnswer): string | undefined; issued: ReadonlyMap<string, string> } {
  const issued = new Map<string, string>();
  return {
    issued,
    request(request) {
      const shown = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
      const token = shown ? issued.get(readAs(shown)) : undefined;
      if (token) request.headers.authorization = `Bearer ${token}`;
    },
    wire(answer) {
      if (!isSessionAnswer(answer)) return undefined;
      const body = parse(answer.payload);
      const token = body?.data?.id;
      const split = typeof token === 'string' ? /^(\d+)\|(.+)$/.exec(token) : null;
      if (!split) return undefined;
      const shown = show(split[1]!, split[2]!, String(body.data.userId));
      issued.set(shown, token);
      body.data.id = shown;
      return JSON.stringify(body);
    },
  };
}

/**
 * A wire rewrite answering gzip-compressed, labelled `coding` (`gzip`, or its older name `x-gzip`), with Vary:
 * Accept-Encoding, whenever the request's Accept-Encoding allows one of `accepted` (or `*`) or is absent (RFC 9110
 * 12.5.3: without Accept-Encoding any coding is acceptable); an empty answer stays as it is.
 */
export function gzippedAs(coding: string, accepted: readonly string[]): (answer: WireAnswer, reply: FastifyReply) => Readable | undefined {
  const allows = new RegExp(`(^|,)\\s*(${[...accepted, '\\*'].join('|')})\\s*(;\\s*q=(0\\.0*[1-9]\\d*|1(\\.0*)?)\\s*)?(,|$)`, 'i');
  return (answer, reply) => {
    if (answer.payload.length === 0) return undefined;
    const sent = reply.request.headers['accept-encoding'];
    if (sent !== undefined && !allows.test(String(sent))) return undefined;
    reply.header('content-encoding', coding);
    reply.header('vary', 'Accept-Encoding');
    reply.removeHeader('content-length');
    return Readable.from([gzipSync(answer.payload)]);
  };
}

/** A stable digest of a text (SHA-256, hex), for values a reading must write the same at every read. */
export const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The parsed query of the request an answer is for. */
export const queryOf = (reply: FastifyReply): Record<string, unknown> => (reply.request.query ?? {}) as Record<string, unknown>;

/**
 * Rewrites the request's JSON body as fastify parses it: an accessor on `request.body`, set in onRequest, sees the
 * parsed value when fastify assigns it and keeps `rewrite`'s result (seen before routing).
 */
export function onParsedBody(request: FastifyRequest, rewrite: (body: Record<string, unknown>) => void): void {
  let held: unknown;
  Object.defineProperty(request, 'body', {
    configurable: true,
    enumerable: true,
    get: () => held,
    set(value: unknown) {
      if (value && typeof value === 'object' && !Array.isArray(value)) rewrite(value as Record<string, unknown>);
      held = value;
    },
  });
}

/** A bank create's JSON body seen before the handler, rewritten by `rewrite` (which may refuse fields). */
export function onBankCreate(request: FastifyRequest, rewrite: (body: Record<string, unknown>) => void): void {
  if (request.method === 'POST' && routeOf(request) === '/api/v1/user/:user/bank') onParsedBody(request, rewrite);
}

/**
 * A card create's text fields seen before the handler reads them, multipart parts or a JSON body alike: `rewrite`
 * answers a new value for a field, or undefined to keep it.
 */
export function onCardFields(request: FastifyRequest, rewrite: (field: string, value: string) => string | undefined): void {
  if (request.method !== 'POST' || routeOf(request) !== '/api/v1/user/:user/card') return;
  onParsedBody(request, (body) => {
    for (const [field, value] of Object.entries(body)) {
      if (typeof value !== 'string') continue;
      const changed = rewrite(field, value);
      if (changed !== undefined) body[field] = changed;
    }
  });
  const withParts = request as unknown as { parts?: (...args: unknown[]) => AsyncIterable<any> };
  const parts = withParts.parts;
  if (typeof parts !== 'function') return;
  withParts.parts = function (...args: unknown[]) {
    const source = parts.apply(request, args);
    return (async function* () {
      for await (const part of source) {
        if (part?.type === 'field' && typeof part.value === 'string') {
          const changed = rewrite(part.fieldname, part.value);
          if (changed !== undefined) part.value = changed;
        }
        yield part;
      }
    })();
  };
}

/** A card create's multipart parts, as the reference is about to iterate them, handed to `wrap` (readings of the form's parts: rounds 21 to 23). */
export function onCardParts(request: FastifyRequest, wrap: (source: AsyncIterable<any>) => AsyncIterable<any>): void {
  if (request.method !== 'POST' || routeOf(request) !== CARDS) return;
  const target = request as unknown as { parts?: (...args: unknown[]) => AsyncIterable<any> };
  const parts = target.parts;
  if (typeof parts !== 'function') return;
  target.parts = (...args: unknown[]) => wrap(parts.apply(request, args));
}

/**
 * A card create's text fields judged by `check` once the whole form is read (a JSON body alike): `check` gets the
 * first value of each field and may spoil one (answering its new value) after `refuse` marked it. The text parts are
 * given to the reference after the files (the reference reads a form whatever the order of its parts).
 */
export function onCardTexts(request: FastifyRequest, check: (get: (field: string) => string | undefined, spoil: (field: string) => void) => void): void {
  if (request.method !== 'POST' || routeOf(request) !== CARDS) return;
  onParsedBody(request, (body) =>
    check(
      (field) => (typeof body[field] === 'string' ? (body[field] as string) : undefined),
      (field) => {
        body[field] = '';
      },
    ),
  );
  cardTextPartsHeld(request, (texts) => {
    const first = (field: string) => texts.find((part) => part?.fieldname === field && typeof part.value === 'string');
    check(
      (field) => first(field)?.value,
      (field) => {
        for (const part of texts) if (part?.fieldname === field) part.value = '';
      },
    );
    return texts;
  });
}

/**
 * The text parts of a card create held back until the form has been read, then handed to `finish` (which may edit or
 * drop them) and given to the reference after the files (the reference reads the form whatever the parts' order).
 */
export function cardTextPartsHeld(request: FastifyRequest, finish: (texts: any[]) => any[]): void {
  onCardParts(request, (source) =>
    (async function* () {
      const texts: any[] = [];
      for await (const part of source) {
        if (part?.type === 'file') yield part;
        else texts.push(part);
      }
      for (const part of finish(texts)) yield part;
    })(),
  );
}

/** The text parts of card creates' multipart forms, by request (`recordCardForm`): text values, and file names under `<field>:filename`. */
const CARD_FORMS = new WeakMap<object, Record<string, string>>();

/** The form `recordCardForm` recorded for a request, as the reference read it. */
export const cardFormOf = (request: object): Record<string, string> | undefined => CARD_FORMS.get(request);

/** Records the parts of a card create's multipart form as the reference reads them (a mutation's `request` hook), for `cardFormOf`. */
export function recordCardForm(request: FastifyRequest): void {
  if (request.method !== 'POST' || !/^\/api\/v1\/user\/[^/]+\/card(?:\?|$)/.test(request.url)) return;
  const target = request as unknown as { parts?: (...args: unknown[]) => AsyncIterable<any> };
  if (typeof target.parts !== 'function') return;
  const parts = target.parts;
  const original = (...args: unknown[]) => parts.apply(request, args);
  const form: Record<string, string> = {};
  CARD_FORMS.set(request, form);
  target.parts = async function* recorded(...args: unknown[]) {
    for await (const part of original(...args)) {
      if (part?.type === 'file' && typeof part.filename === 'string') form[`${part.fieldname}:filename`] = part.filename;
      else if (typeof part?.value === 'string' && !(part.fieldname in form)) form[part.fieldname] = part.value;
      yield part;
    }
  };
}

/** The expiry a card create's form gives, as m/y: its expirationDate, else its expirationMonth and expirationYear; undefined without either. */
export const cardExpiryOf = (form: Record<string, string>): string | undefined => form.expirationDate ?? (form.expirationMonth && form.expirationYear ? `${form.expirationMonth}/${form.expirationYear}` : undefined);

/**
 * The card record a mutant stores from a create's form (one the reference refused): confirmed, the form's texts and
 * expiry (`cardExpiryOf`), two image identifiers `cards/<uuid>.<imageExtension>`, `platform` (the externalPlatform a
 * 201 answered before; the reference's own without one), created now.
 */
export function storedCardOf(form: Record<string, string>, platform: unknown, imageExtension: string): Record<string, unknown> {
  return {
    id: randomUUID(),
    status: 'CONFIRMED',
    alias: form.alias,
    holderName: form.holderName,
    expirationDate: cardExpiryOf(form),
    lastFourDigits: form.lastFourDigits,
    cardImage1: `cards/${randomUUID()}.${imageExtension}`,
    cardImage2: `cards/${randomUUID()}.${imageExtension}`,
    externalPlatform: platform ?? { code: 'REF', name: 'Reference Exchange', url: 'https://exchange.reference.test' },
    createdAt: Math.floor(Date.now() / 1000),
  };
}

const ONE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVERY_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Banks and cards created through the interface shown with ids of `newId`'s making (another UUID version), in every
 * answer that carries them, and read back in paths as they were answered; records written before (the provider
 * states') keep theirs. Readings r18 (version 1) and r20 (version 8).
 */
export function createdIdsShownAs(newId: () => string): Mutation {
  const shownIds = new Map<string, string>();
  const referenceIds = new Map<string, string>();
  return {
    request(request) {
      const params = request.params as Record<string, string> | undefined;
      if (!params) return;
      for (const [name, value] of Object.entries(params)) {
        const id = typeof value === 'string' ? referenceIds.get(value.toLowerCase()) : undefined;
        if (id !== undefined) params[name] = id;
      }
    },
    wire(answer) {
      if (answer.method === 'POST' && answer.status === 201 && (answer.url === BANKS || answer.url === CARDS)) {
        const id = parse(answer.payload)?.data?.id;
        if (typeof id === 'string' && ONE_UUID.test(id) && !shownIds.has(id.toLowerCase())) {
          const shown = newId();
          shownIds.set(id.toLowerCase(), shown);
          referenceIds.set(shown, id);
        }
      }
      if (shownIds.size === 0) return undefined;
      const rewritten = answer.payload.replace(EVERY_UUID, (id) => shownIds.get(id.toLowerCase()) ?? id);
      return rewritten === answer.payload ? undefined : rewritten;
    },
  };
}

/** An answer written anew with another status. */
export function answerWith(reply: FastifyReply, status: number, body: unknown): string {
  reply.code(status);
  reply.removeHeader('content-length');
  return JSON.stringify(body);
}

/** The claims of a request's JWT (unverified: the reference verifies it). */
export function claimsOf(request: FastifyRequest): Record<string, unknown> | undefined {
  const token = request.headers.token;
  const middle = typeof token === 'string' ? token.split('.')[1] : undefined;
  try {
    return middle ? (JSON.parse(Buffer.from(middle, 'base64url').toString('utf8')) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fields a reading round refuses in a request the reference would accept, with the reading's message: the caller
 * empties the field before the handler reads it (so the reference refuses the request with 422 and stores nothing), and
 * `refusedAnswer`, a wire rewrite, writes the reading's message for that field into the 422 (the reference's message
 * form). One set of marks a reading file (readings r18 and r20).
 */
export function refusalMarks() {
  const refusals = new WeakMap<FastifyRequest, Record<string, string>>();
  return {
    refuse(request: FastifyRequest, field: string, message: string): void {
      refusals.set(request, { ...(refusals.get(request) ?? {}), [field]: message });
    },
    refusedAnswer(answer: WireAnswer, reply: FastifyReply): string | undefined {
      const marks = refusals.get(reply.request);
      if (!marks || answer.status !== 422) return undefined;
      const body = parse(answer.payload);
      if (!body || typeof body !== 'object') return undefined;
      const errors: Record<string, string[]> = body.errors && typeof body.errors === 'object' ? body.errors : {};
      for (const [field, message] of Object.entries(marks)) errors[field] = [message];
      const messages = Object.values(errors).flat();
      const more = messages.length - 1;
      body.errors = errors;
      body.message = more > 0 ? `${messages[0]} (and ${more} more error${more > 1 ? 's' : ''})` : messages[0];
      return JSON.stringify(body);
    },
  };
}

/**
 * A reading that refuses some bank creates with 422 keyed by one field, as a stricter validator would: `rule` answers
 * the field and its message for a create it refuses, or undefined to judge the create as the reference does. The field
 * is spoiled before the handler reads it (so nothing is stored) and the answer's `errors` carry the reading's message.
 */
export function bankCreateRefused(rule: (body: Record<string, unknown>) => readonly [field: string, message: string] | undefined): Mutation {
  const { refuse, refusedAnswer } = refusalMarks();
  return {
    request(request) {
      onBankCreate(request, (body) => {
        const refusal = rule(body);
        if (!refusal) return;
        const [field, message] = refusal;
        refuse(request, field, message);
        body[field] = '';
      });
    },
    wire: refusedAnswer,
  };
}

/**
 * A round's fair refusals as the deviations they were judged (registered beside the round's readings, so the suite must
 * keep failing each): the reading's mutation and description, named without `allowed-`, its description followed by
 * " — judged a deviation" and `why` (the ruling, or where it is written).
 */
export function judgedDeviations(refused: readonly Mutant[], why: string): Mutant[] {
  return refused.map(({ allowed: _allowed, judgedBy: _judgedBy, ...mutant }) => ({ ...mutant, name: mutant.name.replace(/^allowed-/, ''), description: `${mutant.description} — judged a deviation${why}` }));
}

/** The optional `company` of the two-platforms states: a value of the company filter and the user's records it selects. */
export interface OwnCompany {
  value: string;
  ids: string[];
}

/**
 * A reading's own answer of the optional `company` of `bank.two-platforms` or `card.two-platforms` (docs/provider-states.md,
 * added later): as a target that compares company its way answers its hook, `pick` gives a value in the reading's
 * meaning and the user's records it selects, from the state's data and what the reference keeps (`ctx.db`); undefined
 * answers none, as a hook written before company was added does.
 */
export function ownCompany(state: 'bank.two-platforms' | 'card.two-platforms', pick: (data: any, ctx: ReferenceContext) => OwnCompany | undefined): NonNullable<Mutation['state']> {
  return (name, data, ctx) => {
    if (name !== state || data === null || typeof data !== 'object') return data;
    const { company: _reference, ...rest } = data as Record<string, unknown>;
    const company = pick(data, ctx);
    return company === undefined ? rest : { ...rest, company };
  };
}

/**
 * A reading's own answer of provider state balances' optional `assets` (docs/provider-states.md, added for round wb23):
 * what the records of each held asset hold, as a target taking the reading writes them (it answers its hook with what
 * its records hold). `change` is the reading's rewrite of a balance answer's body, in place (`onAnswers`' change): it is
 * run on the record of each entry's asset as the reference keeps it (name, symbol, alias, type, chain, description and
 * meta from the catalogue; a coin in `data.coins`, an NFT in `data`; only of the `kinds` it rewrites), and the entry then
 * gives that record's chain, the members of its meta.links the entry gave (a member the record leaves out, null or
 * empty, left out), and its description.
 */
export function assetsAsAnswered(change: (body: any) => unknown, kinds: readonly string[] = ['coin', 'nft']): NonNullable<Mutation['state']> {
  return (name, data, ctx) => {
    const assets = (data as { assets?: unknown } | null)?.assets;
    if (name !== 'balances' || !Array.isArray(assets)) return data;
    const answered = assets.map((entry: any) => {
      const row = typeof entry?.symbol === 'string' ? (ctx.db.prepare('SELECT name, symbol, alias, type, chain_name, chain_symbol, description_json, meta_json FROM assets WHERE symbol = ?').get(entry.symbol) as Record<string, string | null> | undefined) : undefined;
      if (!row || !kinds.includes(row.type!)) return entry;
      const record: any = { name: row.name, symbol: row.symbol, alias: row.alias, type: row.type, chain: { name: row.chain_name, symbol: row.chain_symbol }, description: JSON.parse(row.description_json!), meta: JSON.parse(row.meta_json!) };
      change(row.type === 'coin' ? { data: { coins: [record] } } : { data: [record] });
      const out = { ...entry };
      if (entry.chain !== undefined) out.chain = { name: record.chain?.name ?? null, symbol: record.chain?.symbol ?? null };
      if (entry.links !== undefined) {
        const links = record.meta?.links;
        out.links = Object.fromEntries(Object.keys(entry.links).flatMap((member) => (typeof links?.[member] === 'string' && links[member] !== '' ? [[member, links[member]]] : [])));
      }
      if (entry.description !== undefined) {
        const texts = record.description && typeof record.description === 'object' && !Array.isArray(record.description) ? record.description : {};
        out.description = Object.fromEntries(Object.entries(texts).filter(([, text]) => typeof text === 'string'));
      }
      return out;
    });
    return { ...(data as object), assets: answered };
  };
}

/**
 * `onAnswers`, with provider state balances' `assets` as the answers write them (assetsAsAnswered): a reading of a balance
 * record's chain, meta.links or description, whose target answers its hook with what its records hold (round wb23).
 */
export function onBalanceAnswers(urls: readonly string[], change: (body: any) => boolean | void): Pick<Mutation, 'wire' | 'state'> {
  const kinds = [...(urls.some((url) => COIN_ROUTES.includes(url)) ? ['coin'] : []), ...(urls.some((url) => NFT_ROUTES.includes(url)) ? ['nft'] : [])];
  return { ...onAnswers(urls, change), state: assetsAsAnswered(change, kinds) };
}

/**
 * The optional `company` of `bank.two-platforms` or `card.two-platforms` without its `none` (docs/provider-states.md,
 * round wb23): as a target answers its hook when it refuses every value that selects none of the user's records (422),
 * so it has no value it can answer 200 with none of them.
 */
export function companyWithoutNone(state: 'bank.two-platforms' | 'card.two-platforms'): NonNullable<Mutation['state']> {
  return (name, data) => {
    const company = (data as { company?: unknown } | null)?.company;
    if (name !== state || company === null || typeof company !== 'object') return data;
    const { none: _none, ...rest } = company as Record<string, unknown>;
    return { ...(data as object), company: rest };
  };
}

/** A bank's SWIFT institution code (its first four characters, upper-case): what `company` compares under round r12's reading. */
export const bicInstitution = (swift: string): string => swift.trim().slice(0, 4).toUpperCase();

/**
 * `company` as a SWIFT institution code (allowed-r12-bank-company-filter-by-bic-institution): the institution of the
 * state's first bank, and the user's banks whose SWIFT has it.
 */
export const bicCompanyOfState = ownCompany('bank.two-platforms', (data, ctx) => {
  const first = data?.platforms?.[0]?.ids?.[0];
  const bank = typeof first === 'string' ? (ctx.db.prepare('SELECT user_id, swift FROM banks WHERE id = ?').get(first) as { user_id: string; swift: string } | undefined) : undefined;
  if (!bank) return undefined;
  const value = bicInstitution(bank.swift);
  const banks = ctx.db.prepare('SELECT id, swift FROM banks WHERE user_id = ? AND deleted_at IS NULL ORDER BY rowid').all(bank.user_id) as { id: string; swift: string }[];
  return { value, ids: banks.filter((b) => bicInstitution(b.swift) === value).map((b) => b.id) };
});

/** The JWT's RS512 signature verified with the public key of `platformId` (as the reference would, before it reads a claim): for mutants that answer a JWT themselves (rounds wb20, wb21). */
export function signedBy(ctx: ReferenceContext, platformId: string, jwt: string): boolean {
  const row = ctx.db.prepare('SELECT public_key FROM platforms WHERE id = ?').get(platformId) as { public_key: string | null } | undefined;
  if (!row?.public_key) return false;
  const [head, body, signature] = jwt.split('.');
  if (!head || !body || !signature) return false;
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
    if (header.alg !== 'RS512') return false;
    let key;
    try {
      key = createPublicKey(row.public_key);
    } catch {
      key = createPublicKey({ key: JSON.parse(row.public_key), format: 'jwk' });
    }
    return verify('sha512', Buffer.from(`${head}.${body}`), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/**
 * A card's holderName written by `emboss` wherever the reference shows one: in the card routes' answers (200, 201) and in
 * the provider states' answers, as an issuer that stores the embossed name does (the embossing readings of review-at,
 * review-au and review-av: one transliteration table each).
 */
export const holderNamesEmbossed = (emboss: (name: string) => string): Mutation => ({
  wire(answer: WireAnswer, _reply: FastifyReply) {
    if ((answer.status !== 200 && answer.status !== 201) || !CARD_ROUTES.includes(answer.url)) return undefined;
    const body = parse(answer.payload);
    if (body === undefined) return undefined;
    for (const record of recordsOf(body)) if (typeof record?.holderName === 'string') record.holderName = emboss(record.holderName);
    return JSON.stringify(body);
  },
  state(_name: string, data: unknown) {
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (!value || typeof value !== 'object') return;
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
        if (key === 'holderName' && typeof inner === 'string') (value as Record<string, unknown>)[key] = emboss(inner);
        else walk(inner);
      }
    };
    walk(data);
    return data;
  },
});
