import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../reference/context.js';
import { fastifyPath, type Mutation, type ResponseTransform, type WireAnswer } from '../reference/mutation.js';
import type { Mutant } from '../reference/mutants/types.js';

/**
 * Judging allowed readings together. Most readings are judged by every test of every group, which
 * makes each one a whole run of the suite; yet each changes a few answers only. Several readings
 * whose changes touch different things are judged in one run against a reference carrying all of
 * them, the way an implementation that takes all those choices would answer (the fairness rounds
 * are such implementations). The verdict of a run together stands only when it is clean:
 * - every test passed, and none that passed against the unmutated reference skipped;
 * - no two readings changed the same thing of the same route: the same member of an answer (or a
 *   member and one inside it), its status, one header, its framing, its text beyond its value
 *   (escapes, spacing), which any later rewrite may undo, or the Node.js answer or server beyond it
 *   (`reply.raw`, `reply.server`: a keep-alive timeout one sets and another sets otherwise); nor did one change the status of a route
 *   whose status another one read (every transform of it, a wire rewrite reading `answer.status`),
 *   which may have kept that one from applying at all. Each rewrite is seen as it happens, in
 *   order, so a reading whose change another one covered or undid is never taken as judged;
 * otherwise each reading is judged alone, as before, and that verdict stands.
 * What cannot be seen is kept apart statically: deviations that the reference's modules honour
 * (their answers are not rewritten, so their changes cannot be traced, and they reach the routes of
 * every group through the guards and sessions) are judged alone.
 * A rewrite that decides from a member or a text that another reading changed (a pattern no longer found)
 * leaves no change behind: a reading that changed nothing in the whole run is judged again without the
 * others (`unchanged`). Known limit, not traced: one kept from acting on some answers but not on all.
 */

/** At most this many readings in one run: a run that is not clean judges each of them again, alone. */
export const MAX_TOGETHER = 8;

/** Whether `mutant` may be judged together with others: an allowed reading judged by every test of its groups. */
export function canJudgeTogether(mutant: Mutant): boolean {
  if (!mutant.allowed || mutant.judgedBy?.clauses !== 'all') return false;
  // A deviation changes what a module stores or answers, unseen by the tracing below, and not only on its
  // group's routes (the guards of every route, the sessions every group's tests log in with): another
  // reading's rewrite may cover its answer (a wire rewrite of every 404 covers r2.unknown-user-not-found's),
  // or it may change what another reading's rewrite needs to apply. Judged alone.
  return !(mutant.mutation.deviation || mutant.mutation.deviations?.length);
}

/** The units of readings of an earlier run (mutation/hints.ts): those judged together in a clean run, and those judged alone. */
export interface UnitHints {
  together: readonly (readonly string[])[];
  alone: readonly string[];
}

/**
 * The runs of `mutants`, in order: each either one mutant or several readings judged together
 * (same groups judged, none sharing what the static rules keep apart, at most MAX_TOGETHER).
 * Deterministic: every shard computes the same units.
 */
export function unitsOf(mutants: readonly Mutant[], groupsOf: (mutant: Mutant) => readonly string[], hints: UnitHints = { together: [], alone: [] }): Mutant[][] {
  const units: Mutant[][] = [];
  const open = new Map<string, Mutant[][]>();
  const key = (mutant: Mutant) => [...groupsOf(mutant)].sort().join(',');
  // The units of the last run first (mutation/hints.ts): readings judged together in a clean run form that unit again
  // (those still selected, still judged by the same groups, at most MAX_TOGETHER), and readings judged alone at the end
  // start alone, rather than spend again the runs whose failure, skip or conflict split them. Only time is at stake:
  // a unit's verdict stands only when its run is clean, as for any other.
  const byName = new Map(mutants.filter(canJudgeTogether).map((m) => [m.name, m]));
  const placed = new Set<string>();
  for (const names of hints.together) {
    const unit = names.map((name) => byName.get(name)).filter((m): m is Mutant => m !== undefined && !placed.has(m.name));
    const first = unit[0] && key(unit[0]);
    const kept = unit.filter((m) => key(m) === first && !unit.some((other) => other !== m && keptApart(m, other))).slice(0, MAX_TOGETHER);
    if (kept.length < 2) continue;
    for (const m of kept) placed.add(m.name);
    units.push(kept);
  }
  const alone = new Set(hints.alone);
  for (const mutant of mutants) {
    if (placed.has(mutant.name)) continue;
    if (!canJudgeTogether(mutant) || alone.has(mutant.name)) {
      units.push([mutant]);
      continue;
    }
    const groups = key(mutant);
    const batches = open.get(groups) ?? [];
    open.set(groups, batches);
    const batch = batches.find((b) => b.length < MAX_TOGETHER && b.every((other) => !keptApart(mutant, other)));
    if (batch) batch.push(mutant);
    else {
      const fresh = [mutant];
      batches.push(fresh);
      units.push(fresh);
    }
  }
  return units;
}

/** Two readings the runner cannot tell apart in one run. */
function keptApart(a: Mutant, b: Mutant): boolean {
  if (a.mutation.contentType && b.mutation.contentType) return true;
  if (a.mutation.request && b.mutation.request) return true;
  // Two readings that each answer their own hook's data (reference/mutation.ts `state`): the later one's covers the earlier's.
  if (a.mutation.state && b.mutation.state) return true;
  return false;
}

/**
 * Where a change was made: a JSON pointer into the answer ('' for its whole text), `POINTER#order` for
 * the order of a list, or `#status`, `#raw`, `#server`, `header:NAME`. A list of records is addressed by
 * their ids (`/data/@<id>/name`), so that a reading that reorders a list and one that changes a
 * record's member are seen to touch different things.
 */
type Place = string;

/**
 * What a rewrite read to decide whether to apply: the answer's status (every transform is given it, and
 * may be filtered by it; a wire rewrite that reads `answer.status`). Another reading that changes the
 * status of that route may have made it not apply at all, which leaves no change to trace.
 */
const STATUS_READ = '#status?';

function overlap(a: Place, b: Place): boolean {
  if ((a === '#status' && b === STATUS_READ) || (a === STATUS_READ && b === '#status')) return true;
  if (a === STATUS_READ && b === STATUS_READ) return false;
  // The Node.js answer or server itself (`reply.raw`, `reply.server`, a reply method that is no read): what one reading
  // sets there (the server's keep-alive timeout, say) another may set otherwise, for every connection, unseen.
  const beyond = (p: Place) => p === '#raw' || p === '#server' || p.startsWith('#call:');
  if (beyond(a) && beyond(b)) return true;
  const special = (p: Place) => p.startsWith('#') || p.startsWith('header:') || p.endsWith('#order');
  if (special(a) || special(b)) return a === b;
  return a === b || a === '' || b === '' || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** The member that names each record of both lists once, if any: lists of records are compared record by record. */
const RECORD_KEYS = ['id', 'publicId', 'asset', 'symbol', 'code'];
function recordKey(a: unknown[], b: unknown[]): string | undefined {
  const items = [...a, ...b];
  if (items.length === 0 || !items.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))) return undefined;
  return RECORD_KEYS.find((key) =>
    [a, b].every((list) => {
      const values = list.map((item) => (item as Record<string, unknown>)[key]);
      return values.every((v) => typeof v === 'string' || typeof v === 'number') && new Set(values.map(String)).size === values.length;
    }),
  );
}

/** The members of `a` and `b` (parsed JSON values) that differ, as places. */
export function changedPlaces(a: unknown, b: unknown, at = '', out = new Set<Place>()): Set<Place> {
  if (Object.is(a, b)) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = recordKey(a, b);
    if (key) {
      const byKey = (list: unknown[]) => new Map(list.map((item) => [String((item as Record<string, unknown>)[key]), item]));
      const left = byKey(a);
      const right = byKey(b);
      for (const name of new Set([...left.keys(), ...right.keys()])) {
        if (!left.has(name) || !right.has(name)) out.add(`${at}/@${name}`);
        else changedPlaces(left.get(name), right.get(name), `${at}/@${name}`, out);
      }
      const common = (from: Map<string, unknown>, other: Map<string, unknown>) => [...from.keys()].filter((name) => other.has(name));
      if (common(left, right).join('\u0000') !== common(right, left).join('\u0000')) out.add(`${at}#order`);
      return out;
    }
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
      if (Object.hasOwn(left, key) !== Object.hasOwn(right, key)) out.add(`${at}/${key}`);
      else changedPlaces(left[key], right[key], `${at}/${key}`, out);
    }
    return out;
  }
  out.add(at);
  return out;
}

function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** What a rewrite of an answer's text changed: the members whose value changed, and '' when its text says more than its value. */
export function changedInText(before: string, after: string): Set<Place> {
  if (before === after) return new Set();
  const was = parsed(before);
  const is = parsed(after);
  if (!was || !is) return new Set(['']);
  const places = changedPlaces(was.value, is.value);
  // Escapes, spacing or a number's form: a later rewrite that parses and serializes again would undo them.
  if (places.size === 0 || JSON.stringify(is.value) !== after) places.add('');
  return places;
}

/** The methods of a reply that only read it: calling any other one counts as a change (togetherVerdict relies on it). */
const READERS = new Set<string | symbol>(['getHeader', 'getHeaders', 'hasHeader', 'getResponseTime', 'elapsedTime', 'getSerializationFunction']);

/** A reference to `reply` that notes what a rewrite changes through it. */
function watched(reply: FastifyReply, note: (place: Place) => void): FastifyReply {
  return new Proxy(reply, {
    get(target, property, receiver) {
      if (property === 'raw') note('#raw');
      if (property === 'server') note('#server');
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (property === 'code' || property === 'status') return (code: number) => (note('#status'), (value as (c: number) => unknown).call(target, code), receiver);
      if (property === 'header' || property === 'removeHeader')
        return (name: string, ...rest: unknown[]) => (note(`header:${String(name).toLowerCase()}`), (value as (...a: unknown[]) => unknown).call(target, name, ...rest), receiver);
      if (property === 'headers') return (headers: Record<string, unknown>) => (Object.keys(headers).forEach((name) => note(`header:${name.toLowerCase()}`)), (value as (h: unknown) => unknown).call(target, headers), receiver);
      // Any other method may change the answer unseen (`type`, `redirect`, `hijack`, `send`): noted, unless it only reads.
      if (!READERS.has(property)) note(`#call:${String(property)}`);
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

function fastifyRoute(route: string): string {
  const [method, path] = route.split(' ');
  return `${method} ${fastifyPath(path ?? '')}`;
}

export interface Together {
  mutation: Mutation;
  /** What makes the run unclean: two readings that changed the same thing of one route, or one the status the other read. Empty when none. */
  conflicts(): { readings: [string, string]; what: string }[];
  /**
   * The readings that changed nothing in the whole run: no answer (its members, status, headers, framing, text,
   * label) and no request (a request hook's method, URL, headers, query or params). Their way of answering was never put to the tests
   * there, perhaps because another reading changed what they act on. They are judged again without the others.
   * A change on some routes only counts as acting (a rewrite kept from acting on one route but not on another
   * stays the known limit above).
   */
  unchanged(): string[];
}

/** One mutation carrying every member's changes, tracing what each changes so that a covered change is seen. */
export function together(members: readonly Mutant[]): Together {
  // route -> step -> places it changed there (over the whole run). A step is one member's rewrite at one
  // layer, in the order they apply: every transform (before serialization), then every wire rewrite.
  const effects = new Map<string, Map<number, Set<Place>>>();
  const TRANSFORM = 0;
  const WIRE = 1;
  const record = (route: string, member: number, places: Iterable<Place>, layer: number) => {
    const step = layer * members.length + member;
    const bySteps = effects.get(route) ?? new Map<number, Set<Place>>();
    effects.set(route, bySteps);
    const mine = bySteps.get(step) ?? new Set<Place>();
    bySteps.set(step, mine);
    for (const place of places) mine.add(place);
  };

  const deviations = members.map((m) => m.mutation.deviation).filter((d): d is string => Boolean(d));
  const contentType = members.find((m) => m.mutation.contentType)?.mutation.contentType;
  // A request hook is traced by what it changes of the request (method, URL, headers, query, params): one that changed nothing
  // (say, it maps back only a token form its own rewrite never issued) has not acted.
  const requested = new Set<number>();
  const requests = members.flatMap((m, member) => {
    const see = m.mutation.request;
    if (!see) return [];
    // Its URL and headers, and the query and params the routes read (a hook that deletes `query.status` changes the
    // reference's answer as surely as one that rewrites the URL: bonuses.ts and make.ts have such hooks).
    const seen = (request: FastifyRequest) => JSON.stringify([request.method, request.raw.url, request.headers, request.query ?? null, request.params ?? null]);
    return [
      (request: FastifyRequest, ctx?: ReferenceContext) => {
        const before = seen(request);
        see(request, ctx);
        if (seen(request) !== before) requested.add(member);
      },
    ];
  });

  // The provider-state data each member answers its own way (at most one in a unit: keptApart), in order.
  const states = members.flatMap((m) => (m.mutation.state ? [m.mutation.state] : []));

  // Every member's transforms of one route run in one hook, in order, each on what the previous left.
  const byRoute = new Map<string, { member: number; transform: ResponseTransform }[]>();
  members.forEach((m, member) => {
    for (const transform of [...(m.mutation.transform ? [m.mutation.transform] : []), ...(m.mutation.transforms ?? [])]) {
      const list = byRoute.get(transform.route) ?? [];
      byRoute.set(transform.route, list);
      list.push({ member, transform });
    }
  });
  const transforms: ResponseTransform[] = [...byRoute].map(([route, list]) => ({
    route,
    apply(body: unknown, status: number, server: object) {
      let current = body;
      let currentStatus = status;
      for (const { member, transform } of list) {
        record(fastifyRoute(route), member, [STATUS_READ], TRANSFORM);
        if (transform.status !== undefined && transform.status !== currentStatus) continue;
        const before = structuredClone(current);
        const changed = transform.apply(current, currentStatus, server) ?? {};
        const places = changedPlaces(before, changed.body === undefined ? current : changed.body);
        if (changed.body !== undefined) current = changed.body;
        if (changed.status !== undefined && changed.status !== currentStatus) {
          currentStatus = changed.status;
          places.add('#status');
        }
        record(fastifyRoute(route), member, places, TRANSFORM);
      }
      return { body: current, ...(currentStatus !== status ? { status: currentStatus } : {}) };
    },
  }));

  const wires = members.map((m, member) => ({ member, wire: m.mutation.wire })).filter((w): w is { member: number; wire: NonNullable<Mutation['wire']> } => Boolean(w.wire));
  // A content type alone still passes here, so that its relabelling of every answer is traced.
  const wire =
    wires.length === 0 && !contentType
      ? undefined
      : (answer: WireAnswer, reply: FastifyReply): string | Readable | void => {
          const route = `${answer.method} ${answer.url}`;
          let payload = answer.payload;
          let stream: { member: number; body: Readable; payload: string } | undefined;
          for (const { member, wire: rewrite } of wires) {
            const places = new Set<Place>();
            const seen: WireAnswer = {
              ...answer,
              get status() {
                places.add(STATUS_READ);
                return reply.statusCode;
              },
              payload,
            };
            const out = rewrite(seen, watched(reply, (place) => places.add(place)));
            if (typeof out === 'string') for (const place of changedInText(payload, out)) places.add(place);
            else if (out) {
              // A stream is sent as it is: it carries the text the rewrites before it left, and its own framing.
              places.add('').add('#raw');
              if (stream) record(route, stream.member, ['', '#raw'], WIRE);
              stream = { member, body: out, payload };
            }
            if (typeof out === 'string') payload = out;
            record(route, member, places, WIRE);
          }
          // A rewrite after the stream changed text the stream does not carry: both are marked, so the run is not clean.
          if (stream && stream.payload !== payload) record(route, stream.member, ['', '#raw'], WIRE);
          // The reading that labels every answer does so after the rewrites (reference/app.ts): a rewrite's own label is covered.
          if (contentType) record(route, members.findIndex((m) => m.mutation.contentType), ['header:content-type'], WIRE + 1);
          return stream?.body ?? (payload === answer.payload ? undefined : payload);
        };

  return {
    mutation: {
      ...(deviations.length > 0 ? { deviations } : {}),
      ...(transforms.length > 0 ? { transforms } : {}),
      ...(wire ? { wire } : {}),
      ...(contentType ? { contentType } : {}),
      ...(requests.length > 0 ? { request: (request: FastifyRequest, ctx?: ReferenceContext) => requests.forEach((see) => see(request, ctx)) } : {}),
      ...(states.length > 0 ? { state: (name: string, data: unknown, ctx: ReferenceContext) => states.reduce((current, answer) => answer(name, current, ctx), data) } : {}),
    },
    unchanged() {
      const changed = new Set<number>();
      for (const bySteps of effects.values()) for (const [step, places] of bySteps) if ([...places].some((p) => p !== STATUS_READ)) changed.add(step % members.length);
      return members.filter((m, i) => !changed.has(i) && !requested.has(i)).map((m) => m.name);
    },
    conflicts() {
      const found: { readings: [string, string]; what: string }[] = [];
      const nameOf = (step: number) => members[step % members.length]!.name;
      for (const [route, bySteps] of effects) {
        const steps = [...bySteps].sort((x, y) => x[0] - y[0]);
        for (let i = 0; i < steps.length; i++) {
          for (let j = i + 1; j < steps.length; j++) {
            const [first, earlier] = steps[i]!;
            const [second, later] = steps[j]!;
            if (first % members.length === second % members.length) continue;
            // The same member, status or header changed by two readings: one covers the other. A text beyond its
            // value (escapes, spacing) is undone by any later rewrite; a later one stands on what came before.
            const shared = [...earlier].find((p) => [...later].some((q) => overlap(p, q) && !(q === '' && p !== '')));
            if (shared === undefined) continue;
            const statusRead = shared === STATUS_READ || ![...later].some((q) => q === shared);
            const what = statusRead && (shared === '#status' || shared === STATUS_READ) ? `${route} #status (one changes it, the other reads it to apply)` : `${route} ${shared === '' ? '(its text)' : shared}`;
            found.push({ readings: [nameOf(first), nameOf(second)], what });
          }
        }
      }
      return found;
    },
  };
}

/**
 * The fewest readings (greedily: the one in most pairs first) without which no pair is left: they run
 * apart from the rest. Never all of them: the last of a pair is left.
 */
export function coverOf(pairs: readonly (readonly [string, string])[]): string[] {
  let left = pairs.filter(([a, b]) => a !== b);
  const cover: string[] = [];
  while (left.length > 0) {
    const count = new Map<string, number>();
    for (const pair of left) for (const name of pair) count.set(name, (count.get(name) ?? 0) + 1);
    const most = [...count].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0]![0];
    cover.push(most);
    left = left.filter((pair) => !pair.includes(most));
  }
  return cover;
}

/** Why a unit runs once more whole: its first run skipped tests (and failed none). */
export const SKIPPED_ONCE = 'tests skipped in the first run together, run once more';

/** What a run of readings together decides: the readings it judged, and the parts that run again (and why). */
export interface TogetherVerdict {
  judged: { names: string[]; vacuous: boolean }[];
  again: { names: string[]; why: string }[];
}

/**
 * The verdict of one run of `unit` together, from what the run saw:
 * - clean (no test failed or newly skipped, no two readings changed one thing), and each reading changed something:
 *   every reading is judged conformant by it;
 * - clean, and some readings changed nothing: those that changed something are judged; the others run again without
 *   them (another reading may have changed what they act on);
 * - clean, and no reading changed anything: every reading met the very answers of the unmutated reference, so none
 *   kept another from acting, and a run of each alone would meet the same answers again. They are judged by this run,
 *   as readings the suite did not put to the test (`vacuous`): running each alone, as before, spent a whole run of the
 *   suite on each to learn nothing more. This holds only because every way one reading reaches what another meets is
 *   traced (`together`): a request hook's change of the method, URL, headers, query or params; each transform's body
 *   and status; each wire rewrite's text, status, headers, `raw`, `server` and any call on the reply that is not a read.
 *   A new channel (a hook that reaches the reference's state, a reading that acts by time) must be traced too, or
 *   this branch would judge conformant a reading that another kept from acting;
 * - two readings changed one thing: the fewest that account for every such pair run apart from the rest;
 * - a test skipped, none failed: the unit runs once more whole (the moment, not a reading, skips most tests);
 * - a test failed, or skipped again: each half runs again, down to the reading alone, whose run decides.
 */
export function togetherVerdict(unit: readonly string[], seen: { failed: readonly string[]; skipped: readonly string[]; skippedWhy?: (id: string) => string; retried?: boolean; conflicts: readonly { readings: readonly [string, string]; what: string }[]; unchanged: readonly string[] }): TogetherVerdict {
  const { failed, skipped, conflicts, unchanged } = seen;
  const skips = skipped.map((id) => `${id} (${seen.skippedWhy?.(id) ?? ''})`).join(', ');
  // Skipped, none failed, on the unit's first run: a skip is most often the moment (a session's halfway request answered
  // late on a loaded machine), not a reading; the whole unit runs once more before it is halved (each half a whole run).
  if (failed.length === 0 && skipped.length > 0 && !seen.retried) return { judged: [], again: [{ names: [...unit], why: `${SKIPPED_ONCE}: ${skips}` }] };
  if (failed.length > 0 || skipped.length > 0) {
    const why = failed.length > 0 ? `failed together: ${failed.join(', ')}` : `tests skipped together: ${skips}`;
    const half = Math.ceil(unit.length / 2);
    return { judged: [], again: [{ names: unit.slice(0, half), why }, { names: unit.slice(half), why }] };
  }
  if (conflicts.length > 0) {
    const apart = new Set(coverOf(conflicts.map((c) => [c.readings[0], c.readings[1]] as const)));
    const why = `${conflicts[0]!.readings.join(' and ')} touch ${conflicts[0]!.what}${conflicts.length > 1 ? ` (+${conflicts.length - 1} more)` : ''}`;
    return { judged: [], again: [{ names: unit.filter((name) => !apart.has(name)), why }, { names: unit.filter((name) => apart.has(name)), why }] };
  }
  const acted = unit.filter((name) => !unchanged.includes(name));
  if (acted.length === 0) return { judged: [{ names: [...unit], vacuous: true }], again: [] };
  if (acted.length === unit.length) return { judged: [{ names: [...unit], vacuous: false }], again: [] };
  return { judged: [{ names: acted, vacuous: false }], again: [{ names: unit.filter((name) => unchanged.includes(name)), why: `changed nothing when together with ${acted.length} other readings` }] };
}
