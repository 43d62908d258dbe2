import { describe, expect, it } from 'vitest';
import type { FastifyReply } from 'fastify';
import { canJudgeTogether, changedInText, changedPlaces, coverOf, MAX_TOGETHER, SKIPPED_ONCE, together, togetherVerdict, unitsOf } from '../mutation/compose.js';
import { judgedGroups } from '../mutation/runner.js';
import { MUTANTS } from '../reference/mutants/index.js';
import type { Mutation, WireAnswer } from '../reference/mutation.js';
import type { Mutant } from '../reference/mutants/types.js';

const ALL = { groups: 'all', clauses: 'all' } as const;
const readingOf = (name: string, mutation: Mutation, extra: Partial<Mutant> = {}): Mutant => ({ name, clause: '1', group: 'banks', description: 'a reading for a test', mutation, allowed: true, judgedBy: ALL, ...extra });
const wire = (rewrite: (text: string) => string): Mutation => ({ wire: (answer) => rewrite(answer.payload) });
/** The reference a transform answers for (a mutant remembers per server: perServer). */
const server = {};

/** A stand-in for fastify's reply: its status and headers. */
function replyStub(): FastifyReply & { headersSet: Record<string, unknown> } {
  const stub = {
    statusCode: 200,
    headersSet: {} as Record<string, unknown>,
    code(status: number) {
      stub.statusCode = status;
      return stub;
    },
    header(name: string, value: unknown) {
      stub.headersSet[name] = value;
      return stub;
    },
  };
  return stub as unknown as FastifyReply & { headersSet: Record<string, unknown> };
}

function send(mutation: Mutation, payload: unknown, url = '/api/v1/user/:user/bank'): string | undefined {
  const answer: WireAnswer = { method: 'GET', url, status: 200, payload: JSON.stringify(payload) };
  const out = mutation.wire?.(answer, replyStub());
  return typeof out === 'string' ? out : undefined;
}

describe('readings judged together (mutation/compose.ts)', () => {
  it('only allowed readings judged by every test of their groups, and no server-wide deviation, are judged together', () => {
    expect(canJudgeTogether(readingOf('a', wire((t) => t)))).toBe(true);
    expect(canJudgeTogether(readingOf('a', wire((t) => t), { judgedBy: { clauses: ['1'] } }))).toBe(false);
    expect(canJudgeTogether(readingOf('a', { deviation: 'http.php-style-answers' }))).toBe(false);
    expect(canJudgeTogether({ ...readingOf('a', wire((t) => t)), allowed: undefined })).toBe(false);
    // Every registered deviation is judged alone.
    expect(MUTANTS.filter((m) => !m.allowed).every((m) => !canJudgeTogether(m))).toBe(true);
  });

  it('batches readings of the same judged groups, at most MAX_TOGETHER, keeping apart what cannot be traced', () => {
    const many = Array.from({ length: MAX_TOGETHER + 2 }, (_, i) => readingOf(`w${i}`, wire((t) => t)));
    const units = unitsOf(many, judgedGroups);
    expect(units.map((u) => u.length)).toEqual([MAX_TOGETHER, 2]);
    const twoDeviations = unitsOf([readingOf('d1', { deviation: 'banks.numeric-currency' }), readingOf('d2', { deviation: 'banks.unknown-filter-value-422' }), readingOf('d3', { deviation: 'cards.four-digit-year' }, { group: 'cards' })], judgedGroups);
    // A deviation is never traced: judged alone, whatever its group.
    expect(twoDeviations.map((u) => u.map((m) => m.name))).toEqual([['d1'], ['d2'], ['d3']]);
    const labels = unitsOf([readingOf('c1', { contentType: 'a/b' }), readingOf('c2', { contentType: 'c/d' })], judgedGroups);
    expect(labels).toHaveLength(2);
    const groupsApart = unitsOf([readingOf('x', wire((t) => t)), readingOf('y', wire((t) => t), { judgedBy: { groups: ['banks'], clauses: 'all' } })], judgedGroups);
    expect(groupsApart).toHaveLength(2);
    // Two readings that each answer their own hook's data (a company value of their meaning): the later would cover the earlier's.
    const ownHooks = unitsOf([readingOf('s1', { ...wire((t) => t), state: (_name, data) => data }), readingOf('s2', { ...wire((t) => t), state: (_name, data) => data }), readingOf('s3', wire((t) => t))], judgedGroups);
    expect(ownHooks.map((u) => u.map((m) => m.name))).toEqual([['s1', 's3'], ['s2']]);
    const joint = together([readingOf('s1', { ...wire((t) => t), state: (_name, data) => ({ ...(data as object), company: { value: 'DEUT', ids: [] } }) }), readingOf('s3', wire((t) => t))]);
    expect(joint.mutation.state!('bank.two-platforms', { platforms: [] }, {} as Parameters<NonNullable<Mutation['state']>>[2])).toEqual({ platforms: [], company: { value: 'DEUT', ids: [] } });
    // Every mutant lands in exactly one unit, in the registry's order within it.
    const all = unitsOf(MUTANTS, judgedGroups);
    expect(all.flat().map((m) => m.name).sort()).toEqual(MUTANTS.map((m) => m.name).sort());
    expect(all.length).toBeLessThan(MUTANTS.length);
  });

  it('start from the units of the last run (unit hints): its clean runs together again, its readings judged alone alone', () => {
    const names = (units: Mutant[][]) => units.map((u) => u.map((m) => m.name));
    const r = (name: string, extra: Partial<Mutant> = {}) => readingOf(name, wire((t) => t), extra);
    const mutants = [r('a'), r('b'), r('c'), r('d'), r('e'), r('f', { group: 'cards', judgedBy: { groups: ['cards'], clauses: 'all' } }), readingOf('g', { deviation: 'banks.numeric-currency' })];
    const hinted = unitsOf(mutants, judgedGroups, {
      // c and e together again; a name no longer registered, a deviation and a reading of other groups are left out of a hinted unit.
      together: [['c', 'e', 'gone'], ['b', 'g'], ['d', 'f']],
      alone: ['a'],
    });
    expect(names(hinted)).toEqual([['c', 'e'], ['a'], ['b', 'd'], ['f'], ['g']]);
    // Every mutant once, whatever the hints say.
    expect(hinted.flat().map((m) => m.name).sort()).toEqual(mutants.map((m) => m.name).sort());
    // No hints: as before.
    expect(names(unitsOf(mutants, judgedGroups))).toEqual([['a', 'b', 'c', 'd', 'e'], ['f'], ['g']]);
  });

  it('addresses records of a list by their id, so a reordering and a changed member are told apart', () => {
    const before = { data: [{ id: 'a', name: 'x' }, { id: 'b', name: 'y' }] };
    expect([...changedPlaces(before, { data: [{ id: 'b', name: 'y' }, { id: 'a', name: 'x' }] })]).toEqual(['/data#order']);
    expect([...changedPlaces(before, { data: [{ id: 'a', name: 'x' }, { id: 'b', name: 'z' }] })]).toEqual(['/data/@b/name']);
    expect([...changedPlaces(before, { data: [{ id: 'a', name: 'x' }] })]).toEqual(['/data/@b']);
    expect([...changedPlaces({ data: [1, 2] }, { data: [2, 1] })]).toEqual(['/data/0', '/data/1']);
    expect([...changedPlaces({ a: 1 }, { a: 1, b: null })]).toEqual(['/b']);
  });

  it('sees a text that says more than its value (escapes, spacing, key order), which a later rewrite would undo', () => {
    expect([...changedInText('{"a":"x/y"}', '{"a":"x\\/y"}')]).toEqual(['']);
    expect([...changedInText('{"a":1,"b":2}', '{"b":2,"a":1}')]).toEqual(['']);
    expect([...changedInText('{"a":1}', '{"a":2}')]).toEqual(['/a']);
    expect([...changedInText('{"a":1}', '{ "a": 2 }')].sort()).toEqual(['', '/a']);
    expect([...changedInText('{"a":1}', 'not json')]).toEqual(['']);
    expect(changedInText('{"a":1}', '{"a":1}').size).toBe(0);
  });

  it('composes the rewrites in order and finds two readings that change the same thing of one route', () => {
    const rename = readingOf('rename', wire((t) => JSON.stringify({ ...JSON.parse(t), name: 'N' })));
    const extra = readingOf('extra', wire((t) => JSON.stringify({ ...JSON.parse(t), extra: 1 })));
    const renameToo = readingOf('rename-too', wire((t) => JSON.stringify({ ...JSON.parse(t), name: 'M' })));
    const clean = together([rename, extra]);
    expect(JSON.parse(send(clean.mutation, { name: 'a' })!)).toEqual({ name: 'N', extra: 1 });
    expect(clean.conflicts()).toEqual([]);
    const covered = together([rename, renameToo]);
    expect(JSON.parse(send(covered.mutation, { name: 'a' })!)).toEqual({ name: 'M' });
    expect(covered.conflicts()).toEqual([{ readings: ['rename', 'rename-too'], what: 'GET /api/v1/user/:user/bank /name' }]);
  });

  it('lets a text-only rewrite stand last, but not before a rewrite that writes the text again', () => {
    const escapes = readingOf('escapes', wire((t) => t.replace(/\//g, '\\/')));
    const extra = readingOf('extra', wire((t) => JSON.stringify({ ...JSON.parse(t), extra: 1 })));
    expect(together([extra, escapes]).conflicts()).toEqual([]);
    const undone = together([escapes, extra]);
    send(undone.mutation, { url: 'a/b' });
    expect(undone.conflicts().map((c) => c.readings)).toEqual([['escapes', 'extra']]);
  });

  it('finds two readings that set one header or status, and transforms that change what a rewrite changes', () => {
    const header = (name: string, value: string): Mutation => ({ wire: (_answer, reply) => void reply.header(name, value) });
    const twoHeaders = together([readingOf('h1', header('x-a', '1')), readingOf('h2', header('X-A', '2'))]);
    send(twoHeaders.mutation, {});
    expect(twoHeaders.conflicts().map((c) => c.what)).toEqual(['GET /api/v1/user/:user/bank header:x-a']);
    const otherHeaders = together([readingOf('h1', header('x-a', '1')), readingOf('h2', header('x-b', '2'))]);
    send(otherHeaders.mutation, {});
    expect(otherHeaders.conflicts()).toEqual([]);
    // A transform (before serialization) and a wire rewrite (after) of the same member of the same route.
    const transform = readingOf('t', { transform: { route: 'GET /api/v1/user/{user}/bank', apply: (body) => void (body.name = 'T') } });
    const both = together([transform, readingOf('w', wire((t) => JSON.stringify({ ...JSON.parse(t), name: 'W' })))]);
    const body = { name: 'a' };
    const transformed = both.mutation.transforms![0]!.apply(body, 200, server);
    expect(transformed).toMatchObject({ body: { name: 'T' } });
    send(both.mutation, { name: 'T' });
    expect(both.conflicts().map((c) => c.readings)).toEqual([['t', 'w']]);
  });

  it('never lets a deviation share a run: a rewrite of another group may cover its answer, untraced', () => {
    // r2.unknown-user-not-found (banks) answers 404 for an unknown path user on every route, through the guard;
    // a wire rewrite of another group that answers every 404 its own way would cover that answer, and the
    // deviation leaves no trace to conflict with. Were the deviation's answer to fail a test alone, the run
    // together would still be clean.
    const deviation = readingOf('unknown-user-404', { deviation: 'r2.unknown-user-not-found' });
    const cover = readingOf(
      'every-404-its-way',
      { wire: (answer, reply) => (answer.status === 404 ? (reply.code(403), JSON.stringify({ message: 'This action is unauthorized.' })) : undefined) },
      { group: 'authentication' },
    );
    expect(canJudgeTogether(deviation)).toBe(false);
    expect(unitsOf([deviation, cover], judgedGroups).map((u) => u.map((m) => m.name))).toEqual([['unknown-user-404'], ['every-404-its-way']]);
    expect(MUTANTS.filter((m) => m.mutation.deviation).every((m) => !canJudgeTogether(m))).toBe(true);
  });

  it('finds two readings that reach the server or the Node.js answer (keep-alive timeouts of r4 and r7): one may undo the other, unseen', () => {
    const server = { keepAliveTimeout: 5000 };
    const viaServer = readingOf('idle-1s', {
      wire: (_answer, reply) => {
        (reply.server.server as unknown as typeof server).keepAliveTimeout = 1000;
      },
    });
    const viaRaw = readingOf('idle-2s', {
      wire: (_answer, reply) => {
        (reply.raw as unknown as { _keepAliveTimeout?: number })._keepAliveTimeout = 2000;
      },
    });
    const joint = together([viaServer, viaRaw]);
    joint.mutation.wire!({ method: 'GET', url: '/api/v1/user/:user/bank', status: 200, payload: '{"data":[]}' }, { ...replyStub(), server: { server }, raw: {} } as unknown as FastifyReply);
    expect(joint.conflicts().map((c) => c.readings)).toEqual([['idle-1s', 'idle-2s']]);
  });

  it('sees a reading kept from applying by another that changed the status it applies to', () => {
    const route = 'GET /api/v1/user/{user}/bank';
    // "created" answers 201 where the reference answers 200; "renamed" rewrites the member of a 200 answer only.
    const created = readingOf('created', { transform: { route, status: 200, apply: () => ({ status: 201 }) } });
    const renamed = readingOf('renamed', { transform: { route, status: 200, apply: (body) => void (body.name = 'R') } });
    const joint = together([created, renamed]);
    // Together, "renamed" never applies: its change reaches no test, so the run says nothing about it.
    expect(joint.mutation.transforms![0]!.apply({ name: 'a' }, 200, server)).toEqual({ body: { name: 'a' }, status: 201 });
    expect(joint.conflicts()).toEqual([{ readings: ['created', 'renamed'], what: 'GET /api/v1/user/:user/bank #status (one changes it, the other reads it to apply)' }]);
    // The same with a wire rewrite that reads the status the transform changed.
    const onlyOn200 = readingOf('wire-on-200', { wire: (answer) => (answer.status === 200 ? JSON.stringify({ ...JSON.parse(answer.payload), name: 'W' }) : undefined) });
    const withWire = together([created, onlyOn200]);
    withWire.mutation.transforms![0]!.apply({ name: 'a' }, 200, server);
    const reply = replyStub();
    reply.code(201);
    expect(withWire.mutation.wire!({ method: 'GET', url: '/api/v1/user/:user/bank', status: 201, payload: '{"name":"a"}' }, reply)).toBeUndefined();
    expect(withWire.conflicts().map((c) => c.readings)).toEqual([['created', 'wire-on-200']]);
    // A wire rewrite that never reads the status stands beside a status change.
    const headerOnly = readingOf('header-only', { wire: (_answer, r) => void r.header('x-a', '1') });
    const apart = together([created, headerOnly]);
    apart.mutation.transforms![0]!.apply({ name: 'a' }, 200, server);
    apart.mutation.wire!({ method: 'GET', url: '/api/v1/user/:user/bank', status: 201, payload: '{"name":"a"}' }, replyStub());
    expect(apart.conflicts()).toEqual([]);
  });

  it('runs apart the fewest readings that account for every pair, never all of them', () => {
    expect(coverOf([['a', 'b'], ['a', 'c'], ['a', 'd']])).toEqual(['a']);
    expect(coverOf([['a', 'b']])).toHaveLength(1);
    const cover = coverOf([['a', 'b'], ['c', 'd'], ['b', 'c']]);
    for (const [x, y] of [['a', 'b'], ['c', 'd'], ['b', 'c']]) expect(cover.includes(x!) || cover.includes(y!)).toBe(true);
    expect(cover.length).toBeLessThan(4);
  });

  it('names the readings that changed nothing in the run, so that they are judged again without the others', () => {
    const numbersAsText = readingOf('numbers-as-text', wire((t) => JSON.stringify({ ...JSON.parse(t), n: String(JSON.parse(t).n) })));
    const onlyNumbers = readingOf('pads-numbers', wire((t) => (typeof JSON.parse(t).n === 'number' ? JSON.stringify({ ...JSON.parse(t), n: JSON.parse(t).n + 0.5 }) : t)));
    const joint = together([numbersAsText, onlyNumbers]);
    send(joint.mutation, { n: 1 });
    expect(joint.conflicts()).toEqual([]);
    expect(joint.unchanged()).toEqual(['pads-numbers']);
    const apart = together([onlyNumbers]);
    send(apart.mutation, { n: 1 });
    expect(apart.unchanged()).toEqual([]);
  });

  it('judges a clean run: each reading that acted, the others again without them; none acted, all judged as not put to the test', () => {
    const unit = ['a', 'b', 'c', 'd'];
    const clean = { failed: [], skipped: [], conflicts: [] };
    expect(togetherVerdict(unit, { ...clean, unchanged: [] })).toEqual({ judged: [{ names: unit, vacuous: false }], again: [] });
    expect(togetherVerdict(unit, { ...clean, unchanged: ['b', 'd'] })).toEqual({ judged: [{ names: ['a', 'c'], vacuous: false }], again: [{ names: ['b', 'd'], why: 'changed nothing when together with 2 other readings' }] });
    // No reading changed any answer: each met the unmutated reference's answers, so none kept another from acting, and
    // a run alone would meet the same answers again (it used to cost a whole run of the suite each).
    expect(togetherVerdict(unit, { ...clean, unchanged: unit })).toEqual({ judged: [{ names: unit, vacuous: true }], again: [] });
    // Not clean: nothing is judged, whatever changed.
    const failed = togetherVerdict(unit, { ...clean, failed: ['t1'], unchanged: unit });
    expect(failed.judged).toEqual([]);
    expect(failed.again).toEqual([{ names: ['a', 'b'], why: 'failed together: t1' }, { names: ['c', 'd'], why: 'failed together: t1' }]);
    // A skip (none failed) runs the whole unit once more; a second skip halves it.
    expect(togetherVerdict(unit, { ...clean, skipped: ['t2'], skippedWhy: () => 'late', unchanged: [] })).toEqual({ judged: [], again: [{ names: unit, why: `${SKIPPED_ONCE}: t2 (late)` }] });
    expect(togetherVerdict(unit, { ...clean, skipped: ['t2'], skippedWhy: () => 'restricted', retried: true, unchanged: [] }).again[0]).toEqual({ names: ['a', 'b'], why: 'tests skipped together: t2 (restricted)' });
    expect(togetherVerdict(unit, { ...clean, failed: ['t1'], skipped: ['t2'], unchanged: [] }).again).toHaveLength(2);
    const conflicted = togetherVerdict(unit, { ...clean, conflicts: [{ readings: ['a', 'c'], what: 'GET /x /data/name' }], unchanged: [] });
    expect(conflicted.judged).toEqual([]);
    expect(conflicted.again.map((part) => part.names)).toEqual([['b', 'c', 'd'], ['a']]);
  });

  it('takes a reading with a request hook as acting only when it changed an answer or a request, and traces a content type alone', () => {
    // A token shown in another form, mapped back by its request hook; another reading rewrote the token first, so it never issued one.
    const issued = new Map<string, string>();
    const shownForm: Mutation = {
      request(request) {
        const shown = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
        if (shown && issued.has(shown)) request.headers.authorization = `Bearer ${issued.get(shown)}`;
      },
      wire(answer) {
        const body = JSON.parse(answer.payload);
        if (!/^\d+\|/.test(String(body?.data?.id))) return undefined;
        issued.set(`shown-${body.data.id}`, body.data.id);
        return JSON.stringify({ ...body, data: { ...body.data, id: `shown-${body.data.id}` } });
      },
    };
    const rewritesToken = readingOf('token-wrapped', wire((t) => JSON.stringify({ ...JSON.parse(t), data: { id: `t:${JSON.parse(t).data.id}` } })));
    const masked = together([rewritesToken, readingOf('token-shown', shownForm)]);
    send(masked.mutation, { data: { id: '1|abc' } });
    const request = (authorization: string) => ({ raw: { url: '/api/v1/user/u/bank' }, headers: { authorization } }) as unknown as Parameters<NonNullable<Mutation['request']>>[0];
    masked.mutation.request!(request('Bearer t:1|abc'));
    expect(masked.unchanged()).toEqual(['token-shown']);
    // Alone it issues its form, and its hook maps it back: it acted.
    const alone = together([readingOf('token-shown', shownForm), readingOf('label', { contentType: 'application/json;charset=UTF-8' })]);
    const shown = JSON.parse(send(alone.mutation, { data: { id: '2|def' } })!).data.id as string;
    alone.mutation.request!(request(`Bearer ${shown}`));
    expect(alone.unchanged()).toEqual([]);
    // A content type with no rewrite beside it is traced too: it labels every answer.
    const labelOnly = together([readingOf('label', { contentType: 'application/json;charset=UTF-8' }), readingOf('transform-only', { transform: { route: 'GET /api/v1/user/{user}/bank', apply: () => undefined } })]);
    send(labelOnly.mutation, { data: [] });
    expect(labelOnly.unchanged()).toEqual(['transform-only']);
  });

  it('sees a request hook that changes only the query, and a reply method that is no read: neither is taken as unchanged', () => {
    // A hook that takes the status filter off the query (the reference lists everything) and a wire that filters again:
    // the answer's text is the unmutated one, yet a transform between them met the unfiltered list. Had the hook been
    // taken as unchanged, togetherVerdict would judge both readings vacuously, though alone the transform acts.
    const FILTER = Symbol('filter');
    const refilters: Mutation = {
      request(request) {
        const query = (request.query ?? {}) as Record<string, unknown>;
        if (typeof query.status !== 'string') return;
        (request as unknown as Record<symbol, unknown>)[FILTER] = query.status;
        delete query.status;
      },
    };
    const joint = together([readingOf('refilters', refilters), readingOf('empty-list-404', { transform: { route: 'GET /api/v1/user/{user}/bank', apply: () => undefined } })]);
    const request = { method: 'GET', raw: { url: '/api/v1/user/u/bank?status=VERIFIED' }, headers: {}, query: { status: 'VERIFIED' }, params: { user: 'u' } } as unknown as Parameters<NonNullable<Mutation['request']>>[0];
    joint.mutation.request!(request);
    expect(joint.unchanged()).toEqual(['empty-list-404']);
    // A rewrite that relabels the answer through a reply method other than header/code (reply.type) has acted.
    const relabels = together([readingOf('relabels', { wire: (_answer, reply) => void reply.type('text/plain') }), readingOf('reads', { wire: (_answer, reply) => void reply.getHeader('content-type') })]);
    const answer: WireAnswer = { method: 'GET', url: '/api/v1/user/:user/bank', status: 200, payload: '{"data":[]}' };
    relabels.mutation.wire!(answer, { ...replyStub(), type: () => undefined, getHeader: () => 'application/json' } as unknown as FastifyReply);
    expect(relabels.unchanged()).toEqual(['reads']);
  });
});
