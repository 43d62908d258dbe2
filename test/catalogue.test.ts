import { describe, expect, it } from 'vitest';
import { CLAUSES, CONSTRAINTS, ENDPOINTS, GROUPS, documentedPairs } from '../helpers/spec/catalogue.js';
import { endpoint, validateMeta, type CheckMeta } from '../helpers/check/check.js';

describe('the catalogue of the specification', () => {
  it('writes every endpoint as METHOD /api/v1/... (section 1.1), once', () => {
    const ids = ENDPOINTS.map((e) => e.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^(GET|POST|DELETE) \/api\/v1\//);
  });

  it('cites only known clauses and groups', () => {
    for (const e of ENDPOINTS) {
      expect(GROUPS).toContain(e.group);
      for (const clause of e.clauses) expect(Object.keys(CLAUSES), e.id).toContain(clause);
    }
    for (const c of CONSTRAINTS) for (const clause of c.clauses) expect(Object.keys(CLAUSES), c.id).toContain(clause);
  });

  it('ties every constraint to a documented endpoint that can answer 422', () => {
    for (const c of CONSTRAINTS) {
      const owner = ENDPOINTS.find((e) => e.id === c.endpoint);
      expect(owner, c.id).toBeDefined();
      expect(owner!.statuses.map((s) => s.status), c.id).toContain(422);
    }
  });

  it('lists every status of the section 7 table for the endpoints it names', () => {
    const has = (id: string, status: number) => documentedPairs().some((p) => p.endpoint.id === id && p.status.status === status);
    expect(has('POST /api/v1/authenticate-jwt/{platform}', 412)).toBe(true);
    expect(has('POST /api/v1/authenticate-jwt/{platform}', 416)).toBe(true);
    expect(has('DELETE /api/v1/user/{user}/bank/{bank}', 403)).toBe(true);
    expect(has('GET /api/v1/user/{user}/card/{card}', 404)).toBe(true);
    expect(has('POST /api/v1/user/forgot-password', 422)).toBe(true);
  });
});

describe('test metadata is linted when a suite loads', () => {
  const login = 'POST /api/v1/authenticate';
  const cases: [CheckMeta, RegExp | null][] = [
    [{ clauses: ['4.2'], status: 200, rules: ['S156'] }, null],
    [{ clauses: ['4.2'], status: [403, 409], rules: ['S166'] }, null],
    [{ clauses: ['4.2', '8'], status: 422, constraint: 'authenticate.email.max' }, null],
    [{ clauses: ['4.2'], status: 200 }, /cites no rule/],
    [{ clauses: ['4.2'], status: 200, rules: [] }, /cites no rule.*judges: 'advisory'/],
    [{ clauses: ['4.2'], status: null, rules: [], judges: 'advisory' }, null],
    [{ clauses: ['4.2'], status: null, judges: 'advisory' }, /judges only advisories, so it cites no rule/],
    [{ clauses: ['4.2'], status: null, rules: ['S156'], judges: 'advisory' }, /judges only advisories, so it cites no rule/],
    [{ clauses: ['4.2', '8'], status: null, rules: [], judges: 'advisory', constraint: 'authenticate.email.max' }, /judges only advisories, so it cites no rule and no constraint/],
    [{ clauses: ['4.2'], status: 200, rules: ['S999'] }, /unknown rule "S999"/],
    [{ clauses: ['4.2'], status: 200, rules: ['S4'] }, /rule S4 cannot be observed by a client/],
    [{ clauses: ['4.99'], status: 200 }, /unknown clause "4.99"/],
    [{ clauses: [], status: 200 }, /cites no clause/],
    [{ clauses: ['4.2'], status: 404 }, /expects 404, which the specification does not document/],
    [{ clauses: ['4.2', '8'], status: 422, constraint: 'authenticate.email.nope' }, /unknown constraint/],
    [{ clauses: ['4.2', '8'], status: 422, constraint: 'bank.swift.length' }, /belongs to POST \/api\/v1\/user\/\{user\}\/bank/],
    [{ clauses: ['4.2'], status: null, rules: ['S156'], rulesOnEveryBranch: 'each step asserts its own status' }, null],
    [{ clauses: ['4.2'], status: [200, 422], rules: ['S156'], rulesOnEveryBranch: 'both answers are judged by the rule' }, null],
    [{ clauses: ['4.2'], status: [403, 409], rules: ['S166'], rulesOnEveryBranch: 'both answers are judged by the rule' }, /leaves it one branch/],
    [{ clauses: ['4.2'], status: [422, 403], rules: ['S157'], rulesOnEveryBranch: 'a refusal either way judges the rule' }, null],
    [{ clauses: ['4.2'], status: 200, rules: ['S156'], rulesOnEveryBranch: 'the one answer is judged' }, /leaves it one branch/],
    [{ clauses: ['4.2'], status: null, rules: ['S156'], rulesOnEveryBranch: ' ' }, /must say, in words, why/],
  ];

  it('refuses a test claiming a constraint no client can observe', () => {
    expect(() => validateMeta('POST /api/v1/user/forgot-password', 'answers 422', { clauses: ['4.3'], status: 422, constraint: 'forgot.email.format' })).toThrowError(/cannot be observed by a client/);
  });
  it.each(cases)('%j', (meta, error) => {
    const check = () => validateMeta(login, 'answers something', meta);
    if (error) expect(check).toThrowError(error);
    else expect(check).not.toThrow();
  });

  it('refuses an endpoint the specification does not have', () => {
    expect(() => endpoint('GET /api/v1/user/{user}/wallets')).toThrowError(/unknown endpoint/);
  });
});
