import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactText } from '../helpers/net/redact.js';
import { HookStates, StateError, StatesAuthError } from '../helpers/states/transport.js';

let server: Server;
let url: string;
const seen: { authorization?: string; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text) as { state: string };
      seen.push({ authorization: request.headers.authorization, body });
      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(json));
      if (request.headers.authorization !== 'Bearer right') return answer(401, { message: 'no' });
      const params = (body as { params?: Record<string, unknown> }).params ?? {};
      // A strict hook of the contract before platformId and type: it refuses the params it does not know.
      if ((body.state === 'user' || body.state === 'password-reset.token') && ('platformId' in params || 'type' in params)) return answer(422, { message: 'unknown param' });
      if (body.state === 'user' && params.emailLength === 1) return answer(422, { message: 'emailLength must be 20 to 255' });
      if (body.state === 'user') return answer(200, { data: { id: 'u1', email: 'u@x.test', password: 'Pw-from-hook-123' } });
      if (body.state === 'bank.used') return answer(501, { message: 'not implemented' });
      // A strict hook of the contract before sharedOrder of bonuses (added later) refuses it.
      if (body.state === 'bonuses' && 'sharedOrder' in params) return answer(422, { message: 'unknown param' });
      if (body.state === 'bonuses' && params.userId === 'old-hook') return answer(200, { data: { ids: ['b1', 'b2', 'b3'], assets: ['BTC'] } });
      if (body.state === 'bonuses') return answer(500, { message: 'boom' });
      if (body.state === 'balances') return answer(503, { message: 'busy' }, { 'retry-after': '0' });
      return answer(404, { message: 'unknown' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/states`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('provider states over the HTTP hook', () => {
  it('asks a hook that refuses a param added later (422) again without it, as the contract stood before the param', async () => {
    const hook = new HookStates(url, 'right', 2000);
    const before = seen.length;
    expect(await hook.get('user', { twoFactor: true, platformId: 'p1' })).toEqual({ provided: true, data: { id: 'u1', email: 'u@x.test', password: 'Pw-from-hook-123' } });
    expect(seen.slice(before).map((s) => s.body)).toEqual([
      { state: 'user', params: { twoFactor: true, platformId: 'p1' } },
      { state: 'user', params: { twoFactor: true } },
    ]);
    // sharedOrder of state bonuses (added later): asked again without it, the bonuses answered without sharedOrder.
    const shared = seen.length;
    expect(await hook.get('bonuses', { userId: 'old-hook', sharedOrder: true })).toEqual({ provided: true, data: { ids: ['b1', 'b2', 'b3'], assets: ['BTC'] } });
    expect(seen.slice(shared).map((s) => s.body)).toEqual([
      { state: 'bonuses', params: { userId: 'old-hook', sharedOrder: true } },
      { state: 'bonuses', params: { userId: 'old-hook' } },
    ]);
    // A 422 to params that were always in the contract stays the state's refusal: asked once, never again.
    const refused = seen.length;
    await expect(hook.get('user', { emailLength: 1 })).rejects.toThrow(StateError);
    expect(seen.length - refused).toBe(1);
  });

  it('sends { state, params } with the bearer token and answers the data, registering its secrets', async () => {
    const hook = new HookStates(url, 'right', 2000);
    const outcome = await hook.get('user', { twoFactor: true });
    expect(outcome).toEqual({ provided: true, data: { id: 'u1', email: 'u@x.test', password: 'Pw-from-hook-123' } });
    expect(seen.at(-1)).toEqual({ authorization: 'Bearer right', body: { state: 'user', params: { twoFactor: true } } });
    expect(redactText('Pw-from-hook-123')).not.toContain('Pw-from-hook-123');
  });

  it.each([['user.locked', 404], ['bank.used', 501]] as const)('treats %s answered with %i as a state the target does not provide', async (state, _status) => {
    const outcome = await new HookStates(url, 'right', 2000).get(state, {});
    expect(outcome).toEqual({ provided: false, reason: `target does not provide state ${state}` });
  });

  it('stops the run on 401 or 403 naming STATES_TOKEN', async () => {
    await expect(new HookStates(url, 'wrong', 2000).get('user', {})).rejects.toThrowError(StatesAuthError);
    await expect(new HookStates(url, undefined, 2000).get('user', {})).rejects.toThrowError(/STATES_TOKEN is missing/);
    // A JSON 401 may be a gateway's ({"message":"Invalid API key"}): the line names both causes.
    await expect(new HookStates(url, 'wrong', 2000).get('user', {})).rejects.toThrowError(/STATES_TOKEN is wrong; .*or, if a gateway in front of the hook refused, add the header it wants with --header/);
  });

  it('reports a state the hook still answers 503 with Retry-After as not verified, like a 429', async () => {
    const outcome = await new HookStates(url, 'right', 2000).get('balances', {});
    expect(outcome).toEqual({ provided: false, reason: expect.stringMatching(/^not verified: rate limited, the provider-state hook still answered 503 with Retry-After after 3 retries/) });
  });

  it('fails the tests that need a state the hook answers with anything else', async () => {
    await expect(new HookStates(url, 'right', 2000).get('bonuses', {})).rejects.toThrowError(StateError);
  });
});

describe('provider-state answers outside the contract', () => {
  let hook: Server;
  let hookUrl: string;
  beforeAll(async () => {
    hook = createServer((request, response) => {
      request.resume();
      request.on('end', () =>
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id: 'u9', email: 'u9@x.test', password: 'Pw-leaky-hook-201' } })),
      );
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const address = hook.address();
    hookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/states`;
  });
  afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())));

  it('quotes the answer of a hook that created the state with 201, without the secrets it carries', async () => {
    const failure = new HookStates(hookUrl, 'right', 2000).get('user', {});
    await expect(failure).rejects.toThrowError(/answered 201 \(the contract allows 200, 404, 501, 401, 403\): .*\[REDACTED\]/);
    await expect(new HookStates(hookUrl, 'right', 2000).get('user', {})).rejects.not.toThrowError(/Pw-leaky-hook-201/);
  });
});
