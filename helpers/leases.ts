import { createServer, type Server } from 'node:http';
import { Agent, request } from 'undici';

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
 */

export interface AcquireRequest {
  /** The test holding the lease. */
  holder: string;
  /** The kind of account asked for (state plus what the account must carry). */
  cls: string;
  /** The accounts (indices in the file) of that class, in order of preference. */
  candidates: number[];
}

export type AcquireAnswer = { index: number } | { impossible: string };

interface Pending extends AcquireRequest {
  resolve(answer: AcquireAnswer): void;
}

/** The lease book: which test holds which account; the waiting queue in arrival order. */
export class LeaseBook {
  private readonly held = new Map<number, string>();
  private readonly classesOf = new Map<string, Set<string>>();
  private readonly waiting: Pending[] = [];

  acquire(ask: AcquireRequest): Promise<AcquireAnswer> {
    return new Promise((resolve) => {
      this.waiting.push({ ...ask, resolve });
      this.grant();
    });
  }

  release(holder: string): void {
    for (const [index, owner] of this.held) if (owner === holder) this.held.delete(index);
    this.classesOf.delete(holder);
    this.grant();
  }

  /** Accounts leased right now (for tests of the book). */
  heldCount(): number {
    return this.held.size;
  }

  private grant(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const ask = this.waiting[i]!;
      const answer = this.tryGrant(ask);
      if (answer) {
        this.waiting.splice(i, 1);
        ask.resolve(answer);
      } else i++;
    }
  }

  private tryGrant(ask: Pending): AcquireAnswer | undefined {
    if (ask.candidates.length > 0 && ask.candidates.every((index) => this.held.get(index) === ask.holder)) {
      return { impossible: `the file has ${ask.candidates.length} account(s) of kind ${ask.cls} and this test needs one more at once; add another` };
    }
    if (ask.candidates.length === 0) return { impossible: `the file has no account of kind ${ask.cls}` };
    const free = ask.candidates.filter((index) => !this.held.has(index));
    const classes = this.classesOf.get(ask.holder) ?? new Set<string>();
    const needed = classes.has(ask.cls) ? 1 : Math.min(2, ask.candidates.length);
    if (free.length < needed) return undefined;
    this.held.set(free[0]!, ask.holder);
    classes.add(ask.cls);
    this.classesOf.set(ask.holder, classes);
    return { index: free[0]! };
  }
}

/** The runner's lease server on a loopback port: POST /acquire (answers when granted), POST /release. */
export async function startLeaseServer(): Promise<{ url: string; close(): Promise<void> }> {
  const book = new LeaseBook();
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const answer = (json: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        return res.writeHead(400).end();
      }
      if (req.url === '/acquire') void book.acquire(body as AcquireRequest).then(answer);
      else if (req.url === '/release') {
        book.release(String(body.holder));
        answer({});
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A worker's side: asks the runner's lease server. Waiting for a free account has no time limit of its own. */
export class LeaseClient {
  private readonly agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 64 });
  constructor(private readonly url: string) {}

  async acquire(ask: AcquireRequest): Promise<AcquireAnswer> {
    const response = await request(`${this.url}/acquire`, { method: 'POST', body: JSON.stringify(ask), dispatcher: this.agent });
    return (await response.body.json()) as AcquireAnswer;
  }

  async release(holder: string): Promise<void> {
    const response = await request(`${this.url}/release`, { method: 'POST', body: JSON.stringify({ holder }), dispatcher: this.agent });
    await response.body.dump();
  }
}

/** In one process (tests of the suite itself, or a run without workers): the same book, no HTTP. */
export class LocalLeases {
  private readonly book = new LeaseBook();
  acquire(ask: AcquireRequest): Promise<AcquireAnswer> {
    return this.book.acquire(ask);
  }
  async release(holder: string): Promise<void> {
    this.book.release(holder);
  }
}
