import type { Group } from '../../helpers/spec/catalogue.js';
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
