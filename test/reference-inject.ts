import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { STATES_PATH } from '../reference/app.js';

/** Asks the reference's provider-state hook for a state through inject; fails the test unless it answers 200. */
export async function injectState(app: FastifyInstance, name: string, params: Record<string, unknown> = {}): Promise<any> {
  const response = await app.inject({ method: 'POST', url: STATES_PATH, payload: { state: name, params } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** A fresh `user` state of the reference and an access token for it. */
export async function injectUserWithToken(app: FastifyInstance): Promise<{ user: { id: string; email: string; password: string }; token: string }> {
  const user = await injectState(app, 'user');
  const login = await app.inject({ method: 'POST', url: '/api/v1/authenticate', payload: { email: user.email, password: user.password } });
  expect(login.statusCode, login.body).toBe(200);
  return { user, token: login.json().data.id };
}
