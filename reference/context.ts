import type Database from 'better-sqlite3';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** One user row as the modules see it. */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  is_active: number;
  locked: number;
  totp_secret: string | null;
  anti_phishing: string;
  language: string;
  platform_id: string;
  created_at: number;
}

export interface AuthenticatedRequest extends FastifyRequest {
  user: UserRow;
  tokenId: number;
}

/**
 * What every module of the reference receives. `deviates(name)` is the mutation seam: a mutant of
 * the reference turns on one named deviation from the specification; without a mutant it is false.
 */
export interface ReferenceContext {
  db: Database.Database;
  now(): number;
  deviates(name: string): boolean;
  guards: {
    /** Section 5.3: bearer token required; 401 `{ error }` otherwise. */
    authenticated(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * Section 5.6 for `{user}` routes: the token's user must be the path's user (else `unauthorizedStatus`
     * with "This action is unauthorized."), and, where `activeOnly`, an active account (else 403 inactive).
     */
    ownUser(options: { unauthorizedStatus: 403 | 409; activeOnly: boolean }): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  };
}

export type StateHandler = (params: Record<string, unknown>) => unknown;

/** Thrown by a state handler when the params do not allow the state: the contract's 422. Any other error is the hook's 500. */
export class StateNotAllowed extends Error {}

/** A part of the interface: its tables, routes, provider states and the deviations mutants may turn on. */
export interface ReferenceModule {
  name: string;
  ddl: string;
  /** Names this module honours through `ctx.deviates(...)`. A mutant naming another deviation is refused. */
  deviations: readonly string[];
  register(app: FastifyInstance, ctx: ReferenceContext): void;
  states?(ctx: ReferenceContext): Record<string, StateHandler>;
}
