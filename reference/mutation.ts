import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from './context.js';

/** The decoration every scope of a reference server carries, naming the server itself (reference/app.ts; reading.ts perServer). */
export const REFERENCE_ROOT: unique symbol = Symbol('reference root');

/**
 * The seam through which a mutant changes the reference: one named deviation that the modules
 * honour, and/or a transform of one route's response body. A mutant never copies the reference.
 */
export interface ResponseTransform {
  /** "METHOD /api/v1/..." as the route is registered (fastify's `:param` form is translated from `{param}`). */
  route: string;
  /** Only answers with this status; all statuses when absent. */
  status?: number;
  /** `server` is the reference answering (one per run): a mutant that remembers across answers keeps its memory per server (perServer). */
  apply(body: any, status: number, server: object): { body?: unknown; status?: number } | void;
}

/** One answer of the interface as it is about to be sent: its serialized JSON text. */
export interface WireAnswer {
  method: string;
  /** fastify's form of the route (`/api/v1/user/:user/bank`); empty for an answer no route matched. */
  url: string;
  status: number;
  payload: string;
}

export interface Mutation {
  deviation?: string;
  /** Several deviations at once: only the mutation runner's judging of allowed readings together (mutation/compose.ts). */
  deviations?: readonly string[];
  transform?: ResponseTransform;
  /** More transforms, for a reading that answers several routes its way. */
  transforms?: readonly ResponseTransform[];
  /** Every answer of the interface (not the provider-state hook) is labelled with this Content-Type. */
  contentType?: string;
  /**
   * Rewrites every answer of the interface as sent (not the provider-state hook): its JSON text, its
   * headers (through `reply`) and its framing (a stream is sent without Content-Length).
   */
  wire?(answer: WireAnswer, reply: FastifyReply): string | Readable | void;
  /**
   * Sees every request of the interface (not the provider-state hook) before it is routed and
   * authenticated: a reading that issues its own form of a value the server keeps (a token) maps it back here.
   * `ctx.db` reads what the server keeps (a reading that applies a filter only when its value resolves looks it up).
   */
  request?(request: FastifyRequest, ctx?: ReferenceContext): void;
  /**
   * Rewrites the data a provider state answers (the hook, not the interface), as a target taking the reading would
   * answer its own hook: the optional `company` of `bank.two-platforms` and `card.two-platforms` is a value of the
   * company filter in the target's own meaning (docs/provider-states.md). `ctx.db` reads the records the state made.
   */
  state?(name: string, data: unknown, ctx: ReferenceContext): unknown;
}

/** A path template of the catalogue (`/api/v1/user/{user}/bonus/assets/{asset?}`) in fastify's form (`:user`, `:asset?`). */
export function fastifyPath(template: string): string {
  return template.replace(/\{(\w+)(\?)?\}/g, (_, name: string, optional?: string) => `:${name}${optional ?? ''}`);
}
