import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Agent, request } from 'undici';
import { FAILED_LOGINS_PER_ACCOUNT } from '../spec/logins.js';

/**
 * Exclusive leases on the accounts of a static provider-states file. A test that uses an account
 * holds it alone until its clean-up ran; other tests wait for a free account. Test workers are
 * separate threads, so one lease server in the runner's process decides for all of them; workers
 * ask it over loopback HTTP.
 *
 * Deadlock freedom: a test holds at most two accounts of one class (an owner and a caller). The
 * first account of a class a test takes is granted only while at least two accounts of that class
 * are free (one when the class has one account), a second one while one is free. So the last free
 * account of a class always goes to a test that then holds everything it needs and finishes.
 * Across classes no order is enforced: a wait has a time limit (`waitMs` without an account of its class
 * granted to any test, `maxWaitMs` in all), so a test that gets no account within it is skipped with that
 * reason instead of hanging the run or outliving its test timeout.
 *
 * An account leased with `spends` (a disposable account a test changes) serves once: it is retired
 * for the rest of the run and never granted again.
 */

export interface AcquireRequest {
  /** The test holding the lease. */
  holder: string;
  /** The kind of account asked for (state plus what the account must carry). */
  cls: string;
  /** The accounts (indices in the file) of that class, in order of preference. */
  candidates: number[];
  /** The test changes the account (a disposable one): it serves this request and no other after it. */
  spends?: boolean;
  /** A 2FA account: after its release it is free again only in the next TOTP step, so no code is sent twice. */
  totp?: boolean;
  /**
   * The logins with wrong credentials the test sends the account (issue 28): granted only an account that stays
   * within `failedLoginBound` this run (FAILED_LOGINS_PER_ACCOUNT of helpers/spec/logins.ts), the fullest that still has room first (best fit).
   */
  failsLogins?: number;
}

/** The TOTP step (RFC 6238, 30 s). */
export const TOTP_STEP_MS = 30_000;

export type AcquireAnswer = { index: number } | { impossible: string };

interface Pending extends AcquireRequest {
  resolve(answer: AcquireAnswer): void;
  /** When the wait began (Date.now()): `maxWaitMs` bounds it whatever the progress of its kind. */
  since: number;
  timer?: ReturnType<typeof setTimeout>;
  notice?: ReturnType<typeof setTimeout>;
}

/** How long a test waits for a free account before it is skipped with the reason. */
export const LEASE_WAIT_MS = 120_000;

/**
 * However its kind moves, a wait ends (the test skipped with the reason) after this long in all: a file run's test
 * timeout (cli/run.ts) holds two such waits, so a test queued behind many others is not, instead, failed as timed out.
 */
export const LEASE_MAX_WAIT_MS = 300_000;

/** After this long without an account a test's wait is told (the run would otherwise look hung), then at most once a minute per kind. */
export const WAIT_NOTICE_MS = 10_000;
const NOTICE_REPEAT_MS = 60_000;

/** Hears that tests wait for a free account: the kind, how many tests wait for it now, and the bound of each wait. */
export type WaitListener = (notice: { cls: string; waiting: number; waitMs: number }) => void;

/** The line a run prints when tests wait for accounts of a kind. */
export function waitingLine({ cls, waiting, waitMs }: { cls: string; waiting: number; waitMs: number }): string {
  return `  \u2026 ${waiting} test${waiting > 1 ? 's wait' : ' waits'} for a free STATES_FILE account of kind "${cls}" (each waits while accounts of that kind come free, and is skipped after ${Math.round(waitMs / 1000)} s in which none did); more accounts of that kind let them run at once (see \`conformance states template\`)`;
}

/** The lease book: which test holds which account; the waiting queue in arrival order. */
export class LeaseBook {
  private readonly held = new Map<number, string>();
  private readonly classesOf = new Map<string, Set<string>>();
  private readonly waiting: Pending[] = [];
  /** Disposable accounts a test of this run changed: never granted again. */
  private readonly spent = new Set<number>();
  /** Accounts found unusable at a release (their restore failed): never granted again. */
  private readonly retired = new Set<number>();
  /** 2FA accounts leased in this run, and when each is free again after its release (the next TOTP step). */
  private readonly totp = new Set<number>();
  private readonly readyAt = new Map<number, number>();

  /** When each kind's wait was last told. */
  private readonly toldAt = new Map<string, number>();
  /** The failed logins granted on each account in this run (AcquireRequest.failsLogins). */
  private readonly failedLogins = new Map<number, number>();

  constructor(
    private readonly waitMs = LEASE_WAIT_MS,
    private readonly onWaiting?: WaitListener,
    private readonly noticeMs = WAIT_NOTICE_MS,
    private readonly failedLoginBound = FAILED_LOGINS_PER_ACCOUNT,
    private readonly maxWaitMs = LEASE_MAX_WAIT_MS,
  ) {}

  acquire(ask: AcquireRequest): Promise<AcquireAnswer> {
    return new Promise((resolve) => {
      const pending: Pending = { ...ask, resolve, since: Date.now() };
      this.waiting.push(pending);
      this.grant();
      if (this.waiting.includes(pending)) {
        this.arm(pending);
        if (this.onWaiting && this.noticeMs < this.waitMs) {
          pending.notice = setTimeout(() => this.tell(pending.cls), this.noticeMs);
          pending.notice.unref?.();
        }
      }
    });
  }

  /**
   * Starts (again) the bound of a wait. It measures the kind's progress, not the wait: it starts again whenever
   * an account of the kind is granted to another test, so a test queued behind many others (2FA accounts serve
   * one test per TOTP step) waits its turn, and only a kind that stops moving (a test that keeps its accounts,
   * tests waiting on each other across kinds) ends the wait with the reason.
   */
  private arm(pending: Pending): void {
    clearTimeout(pending.timer);
    const left = pending.since + this.maxWaitMs - Date.now();
    const last = left <= this.waitMs;
    pending.timer = setTimeout(
      () => {
        this.drop(pending);
        pending.resolve({
          impossible: last
            ? `no account of kind "${pending.cls}" was granted to this test within ${Math.round(this.maxWaitMs / 1000)} s, other tests holding them in turn; add accounts of that kind`
            : `no account of kind "${pending.cls}" became free within ${Math.round(this.waitMs / 1000)} s; add accounts of that kind, or look for a test that does not give its accounts back`,
        });
      },
      Math.max(0, Math.min(this.waitMs, left)),
    );
    pending.timer.unref?.();
  }

  /** Gives back what a test holds (retiring the accounts in `retire` for the rest of the run) and drops what it still waits for. */
  release(holder: string, retire: number[] = []): void {
    for (const [index, owner] of this.held) {
      if (owner !== holder) continue;
      this.held.delete(index);
      if (retire.includes(index)) this.retired.add(index);
      if (this.totp.has(index)) {
        const ready = (Math.floor(Date.now() / TOTP_STEP_MS) + 1) * TOTP_STEP_MS;
        this.readyAt.set(index, ready);
        setTimeout(() => this.grant(), ready - Date.now() + 5).unref?.();
      }
    }
    this.classesOf.delete(holder);
    for (const pending of this.waiting.filter((p) => p.holder === holder)) {
      this.drop(pending);
      pending.resolve({ impossible: 'the test ended before an account became free' });
    }
    this.grant();
  }

  /** Tells that tests wait for accounts of a kind: once per wait that lasts, at most once a minute per kind. */
  private tell(cls: string): void {
    const waiting = this.waiting.filter((p) => p.cls === cls).length;
    const last = this.toldAt.get(cls);
    if (waiting === 0 || (last !== undefined && Date.now() - last < NOTICE_REPEAT_MS)) return;
    this.toldAt.set(cls, Date.now());
    this.onWaiting?.({ cls, waiting, waitMs: this.waitMs });
  }

  private drop(pending: Pending): void {
    clearTimeout(pending.timer);
    clearTimeout(pending.notice);
    const at = this.waiting.indexOf(pending);
    if (at >= 0) this.waiting.splice(at, 1);
  }

  private grant(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const ask = this.waiting[i]!;
      const answer = this.tryGrant(ask);
      if (answer) {
        clearTimeout(ask.timer);
        clearTimeout(ask.notice);
        this.waiting.splice(i, 1);
        ask.resolve(answer);
        if ('index' in answer) for (const other of this.waiting) if (other.cls === ask.cls && other.timer) this.arm(other);
      } else i++;
    }
  }

  private tryGrant(ask: Pending): AcquireAnswer | undefined {
    let candidates = ask.candidates.filter((index) => !this.spent.has(index) && !this.retired.has(index));
    const fails = ask.failsLogins ?? 0;
    if (fails > 0 && candidates.length > 0) {
      // Issue 28: no account of the file meets more than the bound of failed logins in one run (its failures
      // would build up towards the brute-force restriction of a target that counts them, run after run).
      const withRoom = candidates.filter((index) => (this.failedLogins.get(index) ?? 0) + fails <= this.failedLoginBound);
      if (withRoom.length === 0) {
        return { impossible: `every account of kind "${ask.cls}" already met the ${this.failedLoginBound} failed logins a run sends one account (sections 5.5 and 8 give no brute-force threshold; docs/judging.md, "Failed logins"); add more accounts of that kind, or use a provider-state hook, which gives fresh accounts` };
      }
      // The fullest account that still has room first (best fit): spreading one failure over every account would
      // leave none with room for a test that sends two (the far-expiry JWT test: its unit probe and a refused row).
      candidates = withRoom.sort((a, b) => (this.failedLogins.get(b) ?? 0) - (this.failedLogins.get(a) ?? 0));
    }
    if (candidates.length === 0 && ask.candidates.some((index) => this.retired.has(index))) {
      return { impossible: `every account of kind "${ask.cls}" was retired in this run after a login that should have restored it failed (see the run warnings); add more, or export the file again` };
    }
    if (candidates.length === 0 && ask.candidates.length > 0) {
      return { impossible: `each of the ${ask.candidates.length} disposable account(s) of kind "${ask.cls}" serves once and earlier tests of this run spent them all; add more (a disposable account cannot serve a second run either: export again or add fresh ones)` };
    }
    if (candidates.length > 0 && candidates.every((index) => this.held.get(index) === ask.holder)) {
      return { impossible: `the file has ${candidates.length} account(s) of kind "${ask.cls}" and this test needs one more at once; add another` };
    }
    if (candidates.length === 0) return { impossible: `the file has no account of kind "${ask.cls}"` };
    const now = Date.now();
    const free = candidates.filter((index) => !this.held.has(index) && (this.readyAt.get(index) ?? 0) <= now);
    const classes = this.classesOf.get(ask.holder) ?? new Set<string>();
    const needed = classes.has(ask.cls) ? 1 : Math.min(2, candidates.length);
    if (free.length < needed) return undefined;
    this.held.set(free[0]!, ask.holder);
    if (ask.spends) this.spent.add(free[0]!);
    if (ask.totp) this.totp.add(free[0]!);
    if (fails > 0) this.failedLogins.set(free[0]!, (this.failedLogins.get(free[0]!) ?? 0) + fails);
    classes.add(ask.cls);
    this.classesOf.set(ask.holder, classes);
    return { index: free[0]! };
  }
}

/** A lease request as it comes over the wire, checked: undefined when it is not one. */
export function acquireRequestOf(body: unknown): AcquireRequest | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { holder, cls, candidates, spends, totp, failsLogins } = body as Record<string, unknown>;
  if (typeof holder !== 'string' || holder.length === 0 || typeof cls !== 'string') return undefined;
  if (!Array.isArray(candidates) || !candidates.every((c) => Number.isSafeInteger(c) && (c as number) >= 0)) return undefined;
  if ((spends !== undefined && typeof spends !== 'boolean') || (totp !== undefined && typeof totp !== 'boolean')) return undefined;
  if (failsLogins !== undefined && !(Number.isInteger(failsLogins) && (failsLogins as number) >= 0)) return undefined;
  return { holder, cls, candidates: candidates as number[], ...(spends ? { spends } : {}), ...(totp ? { totp } : {}), ...(failsLogins ? { failsLogins: failsLogins as number } : {}) };
}

const MAX_BODY = 64 * 1024;

/**
 * The runner's lease server on a loopback port: POST <secret>/acquire (answers when granted), POST
 * <secret>/release. The URL carries a random secret of this run, so no other local process or web
 * page can take or free accounts; bodies are checked and bounded.
 */
export async function startLeaseServer(waitMs = LEASE_WAIT_MS, onWaiting?: WaitListener): Promise<{ url: string; close(): Promise<void> }> {
  const book = new LeaseBook(waitMs, onWaiting);
  const secret = randomBytes(24).toString('base64url');
  const server: Server = createServer((req, res) => {
    const refuse = (status: number) => {
      if (!res.headersSent) res.writeHead(status, { connection: 'close' }).end();
    };
    const action = req.method === 'POST' && req.url?.startsWith(`/${secret}/`) ? req.url.slice(secret.length + 2) : undefined;
    if (action !== 'acquire' && action !== 'release') {
      req.resume();
      return refuse(404);
    }
    let text = '';
    let size = 0;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        refuse(413);
        req.destroy();
      } else text += chunk;
    });
    req.on('error', () => refuse(400));
    req.on('end', () => {
      try {
        const answer = (json: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return refuse(400);
        }
        if (action === 'acquire') {
          const ask = acquireRequestOf(body);
          if (!ask) return refuse(400);
          void book.acquire(ask).then(answer, () => refuse(500));
        } else {
          const { holder, retire = [] } = (body ?? {}) as { holder?: unknown; retire?: unknown };
          if (typeof holder !== 'string' || !Array.isArray(retire) || !retire.every((i) => Number.isSafeInteger(i))) return refuse(400);
          book.release(holder, retire as number[]);
          answer({});
        }
      } catch {
        refuse(500);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/${secret}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A worker's side: asks the runner's lease server. The server bounds the wait (LEASE_WAIT_MS). */
export class LeaseClient {
  private readonly agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 64 });
  constructor(private readonly url: string) {}

  async acquire(ask: AcquireRequest): Promise<AcquireAnswer> {
    const response = await request(`${this.url}/acquire`, { method: 'POST', body: JSON.stringify(ask), dispatcher: this.agent });
    if (response.statusCode !== 200) {
      await response.body.dump();
      return { impossible: `the run's lease server answered ${response.statusCode}` };
    }
    return (await response.body.json()) as AcquireAnswer;
  }

  async release(holder: string, retire: number[] = []): Promise<void> {
    const response = await request(`${this.url}/release`, { method: 'POST', body: JSON.stringify({ holder, retire }), dispatcher: this.agent });
    await response.body.dump();
  }
}

/** In one process (tests of the suite itself, or a run without workers): the same book, no HTTP. */
export class LocalLeases {
  private readonly book: LeaseBook;
  constructor(waitMs = LEASE_WAIT_MS) {
    this.book = new LeaseBook(waitMs);
  }
  acquire(ask: AcquireRequest): Promise<AcquireAnswer> {
    return this.book.acquire(ask);
  }
  async release(holder: string, retire: number[] = []): Promise<void> {
    this.book.release(holder, retire);
  }
}
