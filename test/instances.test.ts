import { describe, expect, it } from 'vitest';
import type { ManifestEntry } from '../cli/list.js';
import { CONSTRAINTS, ENDPOINTS, pathShapes } from '../helpers/spec/catalogue.js';
import { REFUSAL_RULES_NOT_SENT, bankFieldRefusals, cardFieldRefusals } from '../helpers/arrange/refusals.js';
import { ACCESS_CLASSES, CREATES, EQUALITY_FILTERS, FIRST_LOGIN, WRITE_READS, INSTANCES, LOGIN_KINDS, OWNER_QUERY_RULE, OWNER_QUERY_VARIANT, accessRows, LISTS, RECORD_ROUTES, REFUSED_CREATES, hasDerivedInstances, instanceId, isCreate, isList, isProtected, isUserScoped, listInvariants } from '../helpers/spec/instances.js';
import { RULES } from '../helpers/spec/rules.js';
import { instanceCoverage, ruleCoverage } from '../reporting/coverage.js';
import type { TestRecord } from '../reporting/model.js';
import { conformance } from './support.js';

/**
 * Issue 27: a rule is verified only where it was checked everywhere it applies. The invariant tables
 * (helpers/spec/instances.ts) must cover every protected route and path shape, every list and every
 * create of the catalogue; a new endpoint or path shape that they miss fails here.
 */
describe('rule instances', () => {
  it('gives every rule one instance or more, each id once', () => {
    const ids = INSTANCES.map((i) => i.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const rule of RULES) expect(INSTANCES.some((i) => i.rule === rule.id), rule.id).toBe(true);
  });

  it('puts the whole access table on every protected route in every path shape, the bonus asset summary with and without {asset}', () => {
    const summary = ENDPOINTS.find((e) => e.id === 'GET /api/v1/user/{user}/bonus/assets/{asset?}')!;
    expect(pathShapes(summary)).toEqual(['without {asset}', 'with {asset}']);
    const protectedRoutes = ENDPOINTS.filter(isProtected);
    expect(protectedRoutes.length).toBe(15);
    for (const endpoint of protectedRoutes) {
      for (const shape of pathShapes(endpoint)) {
        for (const access of ACCESS_CLASSES) {
          if (access.userScoped && !isUserScoped(endpoint)) continue;
          // A row made from a login's token is asked with a token of every kind of login (round wb8), the password's under its own name.
          const variants = access.ofLogin ? LOGIN_KINDS.map((k) => (k.variant === FIRST_LOGIN ? access.variant : `${access.variant} (${k.variant})`)) : [access.variant];
          for (const variant of variants) {
            const id = instanceId(access.rule, endpoint.id, shape || null, variant);
            expect(INSTANCES.some((i) => i.id === id), id).toBe(true);
          }
        }
        // The owner-from-query instance of S326 (round wb25) is no row of the access table: asked of every user-scoped read and delete.
        expect(accessRows(endpoint).map((r) => r.variant)).toEqual(INSTANCES.filter((i) => i.endpoint === endpoint.id && i.shape === (shape || null) && ACCESS_CLASSES.some((c) => c.rule === i.rule) && i.variant !== OWNER_QUERY_VARIANT).map((i) => i.variant));
        expect(INSTANCES.some((i) => i.id === instanceId(OWNER_QUERY_RULE, endpoint.id, shape || null, OWNER_QUERY_VARIANT)), `${endpoint.id} ${shape}: owner-from-query`).toBe(isUserScoped(endpoint) && /^(GET|DELETE) /.test(endpoint.id));
      }
    }
    // Every kind of login has its logged-out row, and every row of another user or an altered secret is asked of each kind.
    expect(LOGIN_KINDS.map((k) => ACCESS_CLASSES.filter((c) => c.login === k.variant).length)).toEqual(LOGIN_KINDS.map(() => 1));
    for (const kind of ['valid-2fa', 'valid-jwt-id', 'valid-jwt-email']) {
      for (const cls of ['another-user', 'recased-secret', 'secret-truncated']) expect(INSTANCES.some((i) => i.id === `${cls === 'another-user' ? 'S326' : 'S322'} GET /api/v1/user/{user}/bonus/assets/{asset?} [with {asset}] \u00b7 ${cls} (${kind})`), `${cls} (${kind})`).toBe(true);
    }
    expect(INSTANCES.some((i) => i.id === 'S326 GET /api/v1/user/{user}/bonus/assets/{asset?} [with {asset}] · another-user')).toBe(true);
    expect(INSTANCES.some((i) => i.id === 'S322 GET /api/v1/user/{user}/bonus/assets/{asset?} [with {asset}] · recased-secret')).toBe(true);
    // Section 5.6: the inactive-account row on every bank, bonus and card route, each group with its rule; none on balances.
    expect(INSTANCES.some((i) => i.id === 'S330 GET /api/v1/user/{user}/bonus/assets/{asset?} [with {asset}] · inactive-account')).toBe(true);
    expect(INSTANCES.filter((i) => i.variant === 'inactive-account').map((i) => i.rule).sort()).toEqual([...Array(4).fill('S329'), ...Array(4).fill('S330'), ...Array(3).fill('S331')]);
    expect(INSTANCES.some((i) => i.variant === 'inactive-account' && i.endpoint!.includes('/balances'))).toBe(false);
  });

  it('holds every list and every create of the catalogue in its tables', () => {
    const lists = ENDPOINTS.filter(isList).map((e) => e.id);
    expect(LISTS.map((l) => l.endpoint).sort()).toEqual(lists.sort());
    const creates = ENDPOINTS.filter(isCreate).map((e) => e.id);
    expect(CREATES.map((c) => c.endpoint).sort()).toEqual(creates.sort());
    expect(listInvariants('GET /api/v1/user/{user}/bank')).toEqual(['each-once', 'only-own', 'shows-create', 'past-a-page', 'shows-delete', 'filters-combined', 'filtered-same-fields']);
    expect(listInvariants('GET /api/v1/user/{user}/card')).toEqual(['each-once', 'only-own', 'shows-create', 'past-a-page', 'filters-combined', 'filtered-same-fields']);
    // A coin two users can each hold: only the caller's is asked as each user's own entry of it (round wb13); an NFT one user holds.
    expect(listInvariants('GET /api/v1/user/{user}/balances')).toEqual(['each-once', 'only-own', 'filtered-same-fields']);
    expect(listInvariants('GET /api/v1/user/{user}/balances/nft')).toEqual(['each-once', 'filtered-same-fields']);
    // Every list with a filter is judged filtered against unfiltered, field by field: each has stable fields to compare.
    const filtered = ENDPOINTS.filter((e) => isList(e) && (e.query?.length ?? 0) > 0).map((e) => e.id);
    expect(LISTS.filter((l) => listInvariants(l.endpoint).includes('filtered-same-fields')).map((l) => l.endpoint).sort()).toEqual(filtered.sort());
    for (const list of LISTS) expect(list.stable.length, `${list.endpoint}: stable fields`).toBeGreaterThan(0);
    expect(LISTS.find((l) => l.endpoint === 'GET /api/v1/user/{user}/bank')!.stable).toEqual(CREATES.find((c) => c.endpoint === 'POST /api/v1/user/{user}/bank')!.stable);
    expect(LISTS.find((l) => l.endpoint === 'GET /api/v1/user/{user}/card')!.stable).toEqual(CREATES.find((c) => c.endpoint === 'POST /api/v1/user/{user}/card')!.stable);
    for (const create of CREATES) for (const refused of REFUSED_CREATES) expect(INSTANCES.some((i) => i.id === instanceId(refused.rule, create.endpoint, null, refused.variant))).toBe(true);
    // Every route of one record (a {bank}, {card} or {bonus} id last) is asked with ids of another kind and ids that are no UUID (round wb12).
    const recordRoutes = ENDPOINTS.filter((e) => /\{(bank|card|bonus)\}$/.test(e.id)).map((e) => e.id);
    expect(RECORD_ROUTES.map((r) => r.endpoint).sort()).toEqual(recordRoutes.sort());
  });

  it('refuses one create per rule of each create field in the refused-create checks (helpers/arrange/refusals.ts), the rules left out named with their reason', () => {
    // White-box round wb26: one row a RULE, not a field (an iban over 191 beside one with hyphens; a swift with an
    // underscore beside one of 7 characters), so a validator run after the save is met by every rule of the field.
    const rows = [
      { endpoint: 'POST /api/v1/user/{user}/bank', sent: bankFieldRefusals().map(([what, , field, constraint]) => ({ what, field: [field], constraint })) },
      { endpoint: 'POST /api/v1/user/{user}/card', sent: cardFieldRefusals().map(([what, , key, constraint]) => ({ what, field: [key].flat(), constraint })) },
    ];
    for (const { endpoint, sent } of rows) {
      const constraints = CONSTRAINTS.filter((c) => c.endpoint === endpoint);
      for (const row of sent) {
        const constraint = constraints.find((c) => c.id === row.constraint);
        expect(constraint, `${endpoint}: the row "${row.what}" names ${row.constraint}, a constraint of this create`).toBeDefined();
        expect(row.field, `${endpoint}: the row "${row.what}" is keyed by the field of ${row.constraint}`).toContain(constraint!.field);
        expect(REFUSAL_RULES_NOT_SENT[row.constraint], `${row.constraint}: sent, so not among the rules left out`).toBeUndefined();
      }
      const missing = constraints.filter((c) => !sent.some((r) => r.constraint === c.id) && !REFUSAL_RULES_NOT_SENT[c.id]).map((c) => c.id);
      expect(missing, `${endpoint}: constraints with no refusal row and no reason to leave them out`).toEqual([]);
    }
    const known = new Set(CONSTRAINTS.map((c) => c.id));
    expect(Object.keys(REFUSAL_RULES_NOT_SENT).filter((id) => !known.has(id)), 'rules left out that the catalogue does not hold').toEqual([]);
  });

  it('judges every create and every delete of a user\u2019s record by the reads of one table (WRITE_READS), for a session of every kind of login', () => {
    // Round wb16: a write is followed by its record's show and its list under filters, whichever login made it.
    const writes = ENDPOINTS.filter((e) => isCreate(e) || /^DELETE .*\{user\}.*\{\w+\}$/.test(e.id)).map((e) => e.id);
    expect(WRITE_READS.map((w) => w.endpoint).sort()).toEqual(writes.sort());
    for (const write of WRITE_READS) {
      const list = ENDPOINTS.find((e) => e.id === write.list)!;
      expect(list && isList(list), `${write.endpoint}: its list`).toBe(true);
      expect(ENDPOINTS.some((e) => e.id === write.show), `${write.endpoint}: its show`).toBe(true);
      const filters = (list.query ?? []).map((q) => q.name);
      // A created record is looked for under the filters that compare by equality; a deleted one under every filter.
      expect(write.filters, write.endpoint).toEqual(write.written === 'created' ? filters.filter((f) => EQUALITY_FILTERS.includes(f)) : filters);
    }
    expect(WRITE_READS.find((w) => w.endpoint === 'POST /api/v1/user/{user}/bank')!.filters).toEqual(['status', 'currency']);
    expect(WRITE_READS.find((w) => w.endpoint === 'POST /api/v1/user/{user}/card')!.filters).toEqual(['status']);
    expect(WRITE_READS.find((w) => w.endpoint === 'DELETE /api/v1/user/{user}/bank/{bank}')).toMatchObject({ written: 'deleted', show: 'GET /api/v1/user/{user}/bank/{bank}', filters: ['status', 'currency', 'company', 'platform'] });
  });

  it('verifies a rule of several places only when each instance has a passing test; a failing one fails it', () => {
    const rule = 'S326';
    const all = INSTANCES.filter((i) => i.rule === rule).map((i) => i.id);
    expect(hasDerivedInstances(rule)).toBe(true);
    const record = (id: string, outcome: TestRecord['outcome'], instances: string[]): TestRecord =>
      ({ id, name: id, group: 'banks', file: 'x', endpoint: 'GET /api/v1/user/{user}/bank', status: [403, 409], clauses: ['5'], rules: [rule], instances, constraint: null, outcome, reason: outcome === 'failed' ? 'boom' : null, observedStatus: [], advisories: [], durationMs: 0, failure: null, exchanges: [] }) as TestRecord;
    const byRule = (tests: TestRecord[]) => ruleCoverage(tests, [], instanceCoverage(tests)).find((r) => r.id === rule)!;
    // Cited by the rule alone, or on all but one instance: not verified, and the instance left is named.
    expect(byRule([record('plain', 'passed', [])]).outcome).toBe('not verified');
    const most = byRule([record('most', 'passed', all.slice(1))]);
    expect(most.outcome).toBe('not verified');
    expect(most.instances).toEqual({ total: all.length, verified: all.length - 1, notVerified: [all[0]] });
    expect(byRule([record('every', 'passed', all)]).outcome).toBe('passed');
    expect(byRule([record('every', 'passed', all), record('one', 'failed', [all[0]!])]).outcome).toBe('failed');
  });

  it('every instance of every observable rule is cited by a test of the suite', async () => {
    const listed = await conformance(['list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const entries = JSON.parse(listed.stdout) as ManifestEntry[];
    const cited = new Set(entries.flatMap((e) => e.instances));
    const missing = INSTANCES.filter((i) => i.endpoint !== null && !cited.has(i.id)).map((i) => i.id);
    expect(missing, 'instances no test cites').toEqual([]);
  });
});
