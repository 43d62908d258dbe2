import { timingSafeEqual } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AuthenticatedRequest, ReferenceContext, ReferenceModule, StateHandler } from './context.js';
import { StateNotAllowed } from './context.js';
import { ERRORS, HttpAnswer, fail, type ErrorAnswer } from './errors.js';
import { fastifyPath, REFERENCE_ROOT, type Mutation } from './mutation.js';
import { MODULES } from './modules/index.js';
import { TOKENS_DDL, resolveToken, resolveTokenBySecret } from './tokens.js';

export const STATES_PATH = '/__provider-states';

/** The grace of the `tokens.outlive-until` mutant: shorter than the minute by which `user.expired-token`'s token is over, so only a short session shows it. */
const TOKEN_GRACE_MS = 30_000;

export interface ReferenceOptions {
  /** SQLite file; in memory when absent. */
  database?: string;
  /** Serve the provider-state hook (test-only). */
  states?: boolean;
  /** When set, the hook requires `Authorization: Bearer <statesToken>`. */
  statesToken?: string;
  /** A mutant: one deliberate deviation from the specification. */
  mutation?: Mutation;
  /** Milliseconds since the epoch; tests of the reference may fix it. */
  now?: () => number;
  logger?: boolean;
}

/** Deviations of the whole server rather than of one module. */
const SERVER_DEVIATIONS = [
  // Allowed reading (a mutant that must survive): section 1.2 says clients send Content-Type: application/json; insist on it (415).
  'http.content-type-required',
  // Issue 28, allowed reading: the same JSON values as a PHP service behind an HTTP/1.0-minded proxy writes them.
  'http.php-style-answers',
  // Section 5.3, issue 19: authentication faults of the server-wide guard.
  'auth.token-header-accepted',
  'auth.query-token-accepted',
  'auth.any-scheme-accepted',
  'auth.expiry-ignored-on-cards',
  'auth.stale-token-cache-on-banks',
  'auth.unknown-token-as-path-user-on-bonuses',
  'auth.bare-token-accepted-on-bank-list',
  // Issue 27: the bonus routes compare the token's secret in any letter case.
  'auth.secret-case-folded-on-bonuses',
  // Reading round 2, allowed readings of the order of the owner guard.
  'r2.inactive-before-owner',
  'r2.unknown-user-not-found',
  // Sections 2.1 and 5.2, issue 19: a token still authenticates for a while after its `until`.
  'tokens.outlive-until',
  // Allowed reading (reading round 1): outer whitespace of string inputs trimmed.
  'r1.trim-input-strings',
  // White-box round wb1: token exactness and expiry on one route or path shape.
  'wb1.token-id-ignored',
  'wb1.token-secret-first-40',
  'wb1.logout-expiry-ignored',
  'wb1.expiry-ignored-on-bonus-summary-asset',
  // White-box round wb2.
  'wb2.expiry-ignored-on-nft-show',
  // White-box round wb3: the expiry of JWT-issued tokens not checked.
  'wb3.jwt-tokens-expiry-ignored',
  // Reading round r8, allowed readings: the server's clock 3 s off the client's; a show's record looked up before its owner; a burst rate limit.
  'r8.clock-ahead',
  'r8.clock-behind',
  'r8.record-lookup-before-owner',
  'r8.rate-limit-burst',
] as const;

/** Reading round r8 (allowed reading r8.rate-limit-burst): requests of the interface one client address may send in one second. */
const BURST_LIMIT = 20;
/** Reading round r8 (r8.record-lookup-before-owner): the table and model of a show route's record segment. */
const RECORD_SEGMENTS: Record<string, { table: string; model: string; live: string }> = {
  bank: { table: 'banks', model: 'Bank', live: ' AND deleted_at IS NULL' },
  card: { table: 'cards', model: 'Card', live: '' },
  bonus: { table: 'bonuses', model: 'Bonus', live: '' },
};

/**
 * Deviations of mutants only: the access token taken from somewhere section 5.3 does not name (a
 * `Token` header, a query parameter, an `Authorization` scheme other than Bearer, the bare token in `Authorization`).
 */
function tokenElsewhere(request: FastifyRequest, deviates: (name: string) => boolean): string | undefined {
  if (deviates('auth.token-header-accepted')) {
    const header = request.headers.token;
    return (Array.isArray(header) ? header[0] : header) || undefined;
  }
  if (deviates('auth.query-token-accepted')) {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const value = query.token ?? query.api_token;
    return typeof value === 'string' && value !== '' ? value : undefined;
  }
  if (deviates('auth.any-scheme-accepted')) return /^\w+\s+(.+)$/.exec(request.headers.authorization ?? '')?.[1]?.trim();
  // The bare token in the Authorization header, without the Bearer scheme, on the bank list only.
  if (deviates('auth.bare-token-accepted-on-bank-list') && request.method === 'GET' && request.routeOptions.url === '/api/v1/user/:user/bank') {
    const header = (request.headers.authorization ?? '').trim();
    return header !== '' && !/\s/.test(header) ? header : undefined;
  }
  return undefined;
}

/** The deviations every module together honours: a mutant must name one of these. */
export function knownDeviations(modules: readonly ReferenceModule[] = MODULES): Set<string> {
  return new Set([...modules.flatMap((m) => m.deviations), ...SERVER_DEVIATIONS]);
}

function send(reply: FastifyReply, answer: ErrorAnswer): FastifyReply {
  return reply.code(answer.status).send(answer.body);
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export async function buildReference(options: ReferenceOptions = {}): Promise<FastifyInstance> {
  const mutation = options.mutation ?? {};
  // One deviation, or several when the mutation runner judges readings together (mutation/compose.ts).
  const deviations = new Set([...(mutation.deviation ? [mutation.deviation] : []), ...(mutation.deviations ?? [])]);
  for (const deviation of deviations) if (!knownDeviations().has(deviation)) throw new Error(`unknown deviation "${deviation}": no module of the reference honours it`);
  const deviates = (name: string): boolean => deviations.has(name);

  const db = new Database(options.database ?? ':memory:');
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  // Each statement is prepared once per SQL text: preparing again at every request was the reference's largest
  // own cost in a mutation run (a profile of 12 bank deviations: 9 s of 75 s in better-sqlite3's prepare). No module
  // changes a statement's mode (pluck, raw, expand) or iterates one lazily, so a statement serves every caller.
  // Bounded, in case SQL is ever built with values inside: past the bound a statement is prepared each time as before.
  const prepared = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = prepare(sql);
      if (prepared.size < 2000) prepared.set(sql, statement);
    }
    return statement;
  }) as typeof db.prepare;
  db.exec(TOKENS_DDL);
  for (const module of MODULES) db.exec(module.ddl);

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 1024 * 1024, forceCloseConnections: true });
  // The reference server itself, seen from every encapsulated scope of its routes (the cards' multipart scope has a
  // `request.server` of its own): a mutant's memory per server (reference/mutants/reading.ts perServer) is keyed by it.
  app.decorate(REFERENCE_ROOT, app);
  const clock = options.now ?? Date.now;
  // Allowed readings (reading round 8): the server's clock runs 3 s ahead of, or behind, the client's.
  const now = deviates('r8.clock-ahead') ? () => clock() + 3000 : deviates('r8.clock-behind') ? () => clock() - 3000 : clock;

  const tokenCache = new Map<string, ReturnType<typeof resolveToken>>();
  const ctx: ReferenceContext = {
    db,
    now,
    deviates,
    guards: {
      // Section 5.3: protected endpoints answer 401 `{ error }` without valid authentication.
      async authenticated(request: FastifyRequest) {
        const header = request.headers.authorization ?? '';
        const match = /^Bearer\s+(.+)$/i.exec(header);
        const route = request.routeOptions.url ?? '';
        const bearer = match?.[1]!.trim() ?? tokenElsewhere(request, deviates);
        // Deviations of mutants only: tokens never expire (checked as at the epoch), on every route or on the card routes.
        const ignoreExpiry =
          deviates('tokens.expiry-ignored') ||
          (deviates('auth.expiry-ignored-on-cards') && route.startsWith('/api/v1/user/:user/card')) ||
          // White-box round wb1, deviations of mutants only: expiry not checked by logout, or by the bonus summary with its {asset} segment.
          (deviates('wb1.logout-expiry-ignored') && route === '/api/v1/user/logout') ||
          // White-box round wb2, deviation of a mutant only: expiry not checked by the NFT show route.
          (deviates('wb2.expiry-ignored-on-nft-show') && route === '/api/v1/user/:user/balances/nft/:asset') ||
          (deviates('wb1.expiry-ignored-on-bonus-summary-asset') && route.startsWith('/api/v1/user/:user/bonus/assets') && Boolean((request.params as { asset?: string }).asset));
        // Deviation of a mutant only: tokens are honoured TOKEN_GRACE_MS after their expiry.
        const checkedAt = ignoreExpiry ? 0 : deviates('tokens.outlive-until') ? now() - TOKEN_GRACE_MS : now();
        const foldCase = deviates('auth.secret-case-folded-on-bonuses') && route.startsWith('/api/v1/user/:user/bonus');
        let resolved = bearer ? resolveToken(db, bearer, checkedAt, foldCase) : undefined;
        if (bearer && deviates('auth.stale-token-cache-on-banks')) {
          // Deviation of a mutant only: the bank routes trust a cache of tokens once resolved, which logout does not clear.
          if (resolved) tokenCache.set(bearer, resolved);
          else if (route.startsWith('/api/v1/user/:user/bank')) resolved = tokenCache.get(bearer);
        }
        if (!resolved && bearer && deviates('auth.unknown-token-as-path-user-on-bonuses') && route.startsWith('/api/v1/user/:user/bonus')) {
          // Deviation of a mutant only: a bearer the bonus routes cannot resolve is taken for the path's user.
          const user = db.prepare('SELECT * FROM users WHERE id = ?').get((request.params as { user?: string }).user) as AuthenticatedRequest['user'] | undefined;
          if (user) resolved = { user, tokenId: 0 };
        }
        // White-box round wb1, deviations of mutants only: the token's id ignored; the secret compared on its first 40 characters.
        if (!resolved && bearer && deviates('wb1.token-id-ignored')) resolved = resolveTokenBySecret(db, bearer, checkedAt);
        if (!resolved && bearer && deviates('wb1.token-secret-first-40')) {
          const parts = /^(\d+)\|(.{41,})$/s.exec(bearer);
          if (parts) resolved = resolveToken(db, `${parts[1]}|${parts[2]!.slice(0, 40)}`, checkedAt);
        }
        // White-box round wb3, deviation of a mutant only: a token issued by JWT login never expires.
        if (!resolved && bearer && deviates('wb3.jwt-tokens-expiry-ignored')) {
          const unexpired = resolveToken(db, bearer, 0);
          if (unexpired && (db.prepare('SELECT kind FROM access_tokens WHERE id = ?').get(unexpired.tokenId) as { kind: string } | undefined)?.kind === 'jwt') resolved = unexpired;
        }
        if (!resolved) fail(ERRORS.unauthenticated());
        (request as AuthenticatedRequest).user = resolved.user;
        (request as AuthenticatedRequest).tokenId = resolved.tokenId;
      },
      ownUser({ unauthorizedStatus, activeOnly }) {
        return async (request: FastifyRequest) => {
          const { user } = request as AuthenticatedRequest;
          const pathUser = (request.params as { user?: string }).user;
          // Allowed reading (reading round 8): a show's record id is looked up first (route-model binding): an id nobody has is 404 before the owner and the account are checked.
          if (deviates('r8.record-lookup-before-owner') && request.method === 'GET') {
            for (const [segment, { table, model, live }] of Object.entries(RECORD_SEGMENTS)) {
              const id = (request.params as Record<string, string | undefined>)[segment];
              if (id !== undefined && !db.prepare(`SELECT 1 FROM ${table} WHERE id = ?${live}`).get(id)) fail(ERRORS.notFound(model, id));
            }
          }
          // Allowed reading (reading round 2): the caller's own state is checked before the path's owner (5.6 gives no order).
          if (deviates('r2.inactive-before-owner') && activeOnly && !user.is_active) fail(ERRORS.accountInactive());
          // Allowed reading (reading round 2): a path user that does not exist is a missing record, as route-model binding answers it.
          if (deviates('r2.unknown-user-not-found') && pathUser !== user.id && !db.prepare('SELECT 1 FROM users WHERE id = ?').get(pathUser)) {
            fail({ status: 404, body: { message: `No query results for model [User] ${pathUser}` } });
          }
          // Section 5.6: another user's resources are refused with "This action is unauthorized.".
          if (pathUser !== user.id) fail(ERRORS.unauthorized(unauthorizedStatus));
          // Section 5.6 and 7: inactive accounts receive 403 on bank, bonus and card endpoints.
          if (activeOnly && !user.is_active) fail(ERRORS.accountInactive());
        };
      },
    },
  };

  // Section 1.2: clients send Content-Type: application/json even without a body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpAnswer(ERRORS.malformedJson()), undefined);
    }
  });

  app.setErrorHandler((error: unknown, _request, reply) => {
    if (error instanceof HttpAnswer) return send(reply, error.answer);
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) return send(reply, ERRORS.payloadTooLarge());
    if (status && status >= 400 && status < 500) return reply.code(status).send({ message: (error as Error).message });
    app.log.error(error);
    return reply.code(500).send({ message: 'Server Error' });
  });
  app.setNotFoundHandler((_request, reply) => send(reply, ERRORS.routeNotFound()));

  for (const transform of [...(mutation.transform ? [mutation.transform] : []), ...(mutation.transforms ?? [])]) {
    const [method, path] = transform.route.split(' ');
    const route = fastifyPath(path ?? '');
    app.addHook('preSerialization', async (request, reply, payload) => {
      if (request.method !== method || request.routeOptions.url !== route) return payload;
      if (transform.status !== undefined && reply.statusCode !== transform.status) return payload;
      const copy = structuredClone(payload);
      const changed = transform.apply(copy, reply.statusCode, app) ?? {};
      if (changed.status !== undefined) reply.code(changed.status);
      return changed.body === undefined ? copy : changed.body;
    });
  }

  if (deviates('http.content-type-required')) {
    app.addHook('onRequest', async (request, reply) => {
      const type = request.headers['content-type'] ?? '';
      if (request.url.startsWith('/api/') && !/^application\/json\b/i.test(type) && !/^multipart\/form-data\b/i.test(type)) {
        await reply.code(415).send({ message: 'Requests must be sent with Content-Type: application/json.' });
      }
    });
  }

  // Allowed reading of a mutant only (issue 28): answers as a PHP service behind an HTTP/1.0-minded proxy writes them,
  // the same JSON values in other clothes: every object's keys in reverse order, list items oldest first, an extra
  // member on every record, `/` escaped as `\/` and non-ASCII as \uXXXX, an X-Powered-By header and no keep-alive.
  if (deviates('http.php-style-answers')) {
    const reshape = (value: unknown, depth: number): unknown => {
      if (Array.isArray(value)) return value.map((item) => reshape(item, depth + 1));
      if (value === null || typeof value !== 'object') return value;
      const entries = Object.entries(value as Record<string, unknown>).reverse().map(([key, item]) => [key, reshape(item, depth + 1)] as const);
      const record = Object.fromEntries(entries) as Record<string, unknown>;
      if (typeof record.id === 'string' && typeof record.createdAt === 'number') record.updatedAt = record.createdAt;
      return record;
    };
    const oldestFirst = (body: any): unknown => {
      if (Array.isArray(body?.data)) body.data.reverse();
      if (Array.isArray(body?.data?.coins)) body.data.coins.reverse();
      return body;
    };
    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.url.startsWith('/api/') || typeof payload !== 'string') return payload;
      let value: unknown;
      try {
        value = JSON.parse(payload);
      } catch {
        return payload;
      }
      reply.header('x-powered-by', 'PHP/8.2.12');
      reply.header('connection', 'close');
      return JSON.stringify(reshape(oldestFirst(value), 0))
        .replace(/\//g, '\\/')
        .replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    });
  }

  // Allowed reading (reading round 8): a rate limiter in front answers 429 once a client address sent BURST_LIMIT requests within a second.
  if (deviates('r8.rate-limit-burst')) {
    const recent = new Map<string, number[]>();
    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/api/')) return;
      const at = Date.now();
      const times = (recent.get(request.ip) ?? []).filter((t) => at - t < 1000);
      if (times.length >= BURST_LIMIT) {
        recent.set(request.ip, times);
        await reply.code(429).header('retry-after', '1').send({ message: 'Too Many Attempts.' });
        return reply;
      }
      times.push(at);
      recent.set(request.ip, times);
    });
  }

  if (mutation.request) {
    const see = mutation.request;
    app.addHook('onRequest', async (request) => {
      if (request.url.startsWith('/api/')) see(request, ctx);
    });
  }

  if (mutation.wire) {
    const wire = mutation.wire;
    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.url.startsWith('/api/') || typeof payload !== 'string') return payload;
      return wire({ method: request.method, url: request.routeOptions.url ?? '', status: reply.statusCode, payload }, reply) ?? payload;
    });
  }

  // Allowed reading (a mutant that must survive): string inputs trimmed of outer whitespace before validation, passwords excepted (Laravel's TrimStrings).
  if (deviates('r1.trim-input-strings')) {
    app.addHook('preValidation', async (request) => {
      const body = request.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) return;
      for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
        if (typeof value === 'string' && !/password/i.test(field)) (body as Record<string, unknown>)[field] = value.trim();
      }
    });
  }

  if (mutation.contentType) {
    const contentType = mutation.contentType;
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.url.startsWith('/api/')) reply.header('content-type', contentType);
      return payload;
    });
  }

  for (const module of MODULES) module.register(app, ctx);

  if (options.states) {
    const handlers: Record<string, StateHandler> = {};
    for (const module of MODULES) Object.assign(handlers, module.states?.(ctx) ?? {});
    app.post(STATES_PATH, async (request, reply) => {
      if (options.statesToken) {
        const header = request.headers.authorization ?? '';
        if (!safeEqual(header, `Bearer ${options.statesToken}`)) return reply.code(401).send({ message: 'STATES_TOKEN required' });
      }
      const { state, params } = (request.body ?? {}) as { state?: unknown; params?: unknown };
      const handler = typeof state === 'string' ? handlers[state] : undefined;
      if (!handler) return reply.code(404).send({ message: `unknown state ${String(state)}` });
      try {
        const made = handler(params && typeof params === 'object' ? (params as Record<string, unknown>) : {});
        // A reading answers its own hook's data where it differs (the company value of the two-platforms states).
        const data = mutation.state ? mutation.state(state as string, made, ctx) : made;
        return reply.code(200).send({ data });
      } catch (error) {
        // The params do not allow the state (no forgot-password e-mail sent yet): the contract's 422.
        if (error instanceof StateNotAllowed) return reply.code(422).send({ message: `state ${state}: ${error.message}` });
        throw error;
      }
    });
  }

  app.addHook('onClose', async () => {
    db.close();
  });
  return app;
}

export interface RunningReference {
  app: FastifyInstance;
  baseUrl: string;
  statesUrl: string | undefined;
  close(): Promise<void>;
}

/** Starts the reference on a loopback port (0 = ephemeral) and answers where it listens. */
export async function startReference(options: ReferenceOptions & { host?: string; port?: number } = {}): Promise<RunningReference> {
  const app = await buildReference(options);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${shownHost}:${port}`;
  return { app, baseUrl, statesUrl: options.states ? `${baseUrl}${STATES_PATH}` : undefined, close: () => app.close() };
}
