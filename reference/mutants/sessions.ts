import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import { onParsedBody, parse, routeOf } from './reading.js';
import { AUTH, JWT } from './routes.js';

/**
 * The pieces of the mutants that act by the kind of session a request carries (rounds wb16 and wb17, review-x's
 * probes): a password login, one with a 2FA code, or a JWT login.
 */

export type Kind = 'password' | '2fa' | 'jwt';

type WithHeaders = { headers: Record<string, string | string[] | undefined> };

/** The bearer token of a request's Authorization header, if it carries one. */
export function bearerOf(request: WithHeaders | FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** Sessions seen in the answers of both logins: each token's kind (password, with a 2FA code, JWT). */
export function kindLedger() {
  const kindOf = new Map<string, Kind>();
  return {
    see(answer: WireAnswer, reply: FastifyReply): void {
      if (answer.method !== 'POST' || answer.status !== 200 || (answer.url !== AUTH && answer.url !== JWT)) return;
      const data = parse(answer.payload)?.data;
      if (typeof data?.id !== 'string') return;
      const sent = (reply.request.body ?? {}) as Record<string, unknown>;
      kindOf.set(data.id, answer.url === JWT ? 'jwt' : typeof sent['2fa'] === 'string' && sent['2fa'] !== '' ? '2fa' : 'password');
    },
    of(request: WithHeaders | FastifyRequest): Kind | undefined {
      const bearer = bearerOf(request);
      return bearer === undefined ? undefined : kindOf.get(bearer);
    },
  };
}

/** The password of `route`'s body rewritten by `to` before the reference reads it. */
export function passwordRewritten(route: string, to: (text: string) => string): Mutation {
  return {
    request(request) {
      if (request.method !== 'POST' || routeOf(request) !== route) return;
      onParsedBody(request, (body) => {
        if (typeof body.password === 'string') body.password = to(body.password);
      });
    },
  };
}
