import { describe, expect, it } from 'vitest';
import { isFailedLogin, isRestrictedLogin, loginRoute } from '../helpers/spec/logins.js';

const exchange = (method: string, url: string, status?: number) => ({ request: { method, url }, ...(status === undefined ? {} : { response: { status } }) });

describe('failed logins and the brute-force restriction (sections 5.5 and 8, issue 28)', () => {
  it('knows both login routes, behind a base path too, and nothing else', () => {
    expect(loginRoute('POST', 'http://t.test/api/v1/authenticate')).toBe('password');
    expect(loginRoute('post', 'https://t.test/prefix/api/v1/authenticate?x=1')).toBe('password');
    expect(loginRoute('POST', 'http://t.test/api/v1/authenticate-jwt/abc')).toBe('jwt');
    expect(loginRoute('GET', 'http://t.test/api/v1/authenticate')).toBeUndefined();
    expect(loginRoute('POST', 'http://t.test/api/v1/user/logout')).toBeUndefined();
    expect(loginRoute('POST', 'http://t.test/api/v1/user/reset-password')).toBeUndefined();
  });
  it('counts a refused login (any 4xx but a validation 422) as failed', () => {
    for (const status of [401, 403, 412, 416, 423, 425]) expect(isFailedLogin(exchange('POST', 'http://t.test/api/v1/authenticate', status))).toBe(true);
    for (const status of [200, 422, 500]) expect(isFailedLogin(exchange('POST', 'http://t.test/api/v1/authenticate', status))).toBe(false);
    expect(isFailedLogin(exchange('POST', 'http://t.test/api/v1/authenticate'))).toBe(false);
    expect(isFailedLogin(exchange('GET', 'http://t.test/api/v1/user/1/bank', 403))).toBe(false);
  });
  it('tells a restricted login (425) from any other answer', () => {
    expect(isRestrictedLogin(exchange('POST', 'http://t.test/api/v1/authenticate-jwt/p', 425))).toBe(true);
    expect(isRestrictedLogin(exchange('POST', 'http://t.test/api/v1/authenticate', 403))).toBe(false);
    expect(isRestrictedLogin(exchange('GET', 'http://t.test/api/v1/user/1/bank', 425))).toBe(false);
  });
});
