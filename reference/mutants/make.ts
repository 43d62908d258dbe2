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
