import type { Group } from '../../helpers/spec/catalogue.js';
import { fastifyPath, type Mutation } from '../mutation.js';
import { parse } from './reading.js';
import type { Mutant } from './types.js';

/**
 * Mutants that skip one check of one route, made from its answer: a validation error the route
 * gives for one field and rule is answered as a success, or an unauthenticated request (401) is
 * answered as if it were authenticated.
 */

/** The route answers `success` where it refused `field` with a 422 whose message for it matches `message`. */
export function validationSkipped(name: string, group: Group, clause: string, route: string, field: string, message: RegExp, success: number, description: string): Mutant {
  return {
    name,
    clause,
    group,
    description,
    mutation: {
      transform: {
        route,
        status: 422,
        apply(body) {
          const errors = (body as { errors?: Record<string, string[]> }).errors?.[field];
          if (errors?.some((text) => message.test(text))) return { status: success, body: success === 200 ? { data: { message: 'ok' } } : { data: {} } };
        },
      },
    },
  };
}

/** The create route answers its new record with `status` instead of section 3's CONFIRMED. */
export function newRecordStatus(name: string, group: Group, route: string, status: string, what: string): Mutant {
  return {
    name,
    clause: '3',
    group,
    description: `create answers the new ${what} with status ${status} instead of CONFIRMED`,
    mutation: {
      transform: {
        route,
        status: 201,
        apply(body) {
          body.data.status = status;
        },
      },
    },
  };
}

/** The route answers a request without valid authentication with `status` and `body` instead of 401. */
export function authenticationSkipped(name: string, group: Group, route: string, status: number, body: unknown, what: string): Mutant {
  return {
    name,
    clause: '5',
    group,
    description: `${what} answers a request without valid authentication with ${status} instead of 401`,
    mutation: { transform: { route, status: 401, apply: () => ({ status, body }) } },
  };
}

/** The routes of the interface as the catalogue writes them, for the rounds that rewrite answers (round wb6 on). */
export const ROUTE = {
  login: 'POST /api/v1/authenticate',
  jwt: 'POST /api/v1/authenticate-jwt/{platform}',
  logout: 'POST /api/v1/user/logout',
  bankList: 'GET /api/v1/user/{user}/bank',
  bonusSummary: 'GET /api/v1/user/{user}/bonus/assets/{asset?}',
  bonusList: 'GET /api/v1/user/{user}/bonus',
  bonusShow: 'GET /api/v1/user/{user}/bonus/{bonus}',
  cardList: 'GET /api/v1/user/{user}/card',
} as const;

/** What a rewrite sees of the request it answers. */
export interface Seen {
  headers: Record<string, string | string[] | undefined>;
  body?: any;
  query?: any;
  params?: any;
  /** The authenticated user of a protected route, when the reference resolved one. */
  user?: { id: string };
}

/** The claims of the JWT a request sends in its Token header (unverified: the reference verifies it). */
export function claimsOf(request: Seen): Record<string, unknown> | undefined {
  const token = request.headers.token;
  const payload = typeof token === 'string' ? token.split('.')[1] : undefined;
  if (payload === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * One route's answers (of `status`, or all) rewritten as sent, with sight of the request: `change`
 * edits the parsed body in place and answers true, or answers a new status and/or body; nothing leaves
 * the answer as it was.
 */
export function answered(route: string, status: number | undefined, change: (body: any, request: Seen, status: number) => boolean | { status?: number; body?: unknown } | void): Mutation {
  const [method, path] = route.split(' ') as [string, string];
  const url = fastifyPath(path);
  return {
    wire(answer, reply) {
      if (answer.method !== method || answer.url !== url) return;
      if (status !== undefined && answer.status !== status) return;
      const body = parse(answer.payload);
      if (body === undefined) return;
      const changed = change(body, reply.request as unknown as Seen, answer.status);
      if (!changed) return;
      if (changed === true) return JSON.stringify(body);
      if (changed.status !== undefined) reply.code(changed.status);
      return JSON.stringify(changed.body === undefined ? body : changed.body);
    },
  };
}

/**
 * A record (bank or card) verified a moment after it is first listed (section 3 shows a new one CONFIRMED and no
 * transition): the list that first holds it shows it CONFIRMED, every later answer of `list` or `show` VERIFIED, and the
 * list's status filter takes it by what it now is. `list` and `show` are fastify's forms of the routes.
 */
export function statusMovesOnceListed(list: string, show: string): Mutation {
  const moved = new Set<string>();
  const FILTER = Symbol('moved status filter');
  const key = (id: unknown) => String(id).toLowerCase();
  const listPattern = new RegExp(`^${list.replace(/:\w+/g, '[^/?]+')}(?:\\?|$)`);
  return {
    request(request) {
      if (request.method !== 'GET' || !listPattern.test(request.url)) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      if (typeof query.status !== 'string') return;
      (request as any)[FILTER] = query.status;
      delete query.status;
    },
    wire(answer, reply) {
      if (answer.method !== 'GET' || answer.status !== 200 || (answer.url !== list && answer.url !== show)) return undefined;
      const body = parse(answer.payload);
      if (body === undefined) return undefined;
      const records: any[] = Array.isArray(body?.data) ? body.data : body?.data && typeof body.data === 'object' ? [body.data] : [];
      for (const record of records) if (record?.status === 'CONFIRMED' && moved.has(key(record.id))) record.status = 'VERIFIED';
      if (answer.url !== list || !Array.isArray(body?.data)) return JSON.stringify(body);
      const filter = (reply.request as any)[FILTER];
      if (typeof filter === 'string') body.data = body.data.filter((record: any) => record?.status === filter);
      for (const record of body.data) moved.add(key(record?.id));
      return JSON.stringify(body);
    },
  };
}
