import { request, type Dispatcher } from 'undici';
import { BudgetWaitTimeout, decoded, SuiteLimitError, describeTransportFailure, excerpt, readWithin } from '../net/http.js';
import { redactJson, redactText, withoutCredentials } from '../net/redact.js';
import { learnAccountPassword, learnSecret } from '../net/secrets.js';
import { type RateLimiter, retryDelayMs, RETRY_ATTEMPTS, withRetries } from '../net/rate.js';
import { dispatcherFor } from '../net/transport.js';
import { withUserAgent } from '../net/user-agent.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../net/config-basics.js';
import { escapeControls, quote, tooDeep } from '../spec/quote.js';
import { isCredentialHeaderName } from '../spec/credential-names.js';

/**
 * Provider states: how the suite asks a target for the state a test needs. Two transports, as the
 * contract in docs/provider-states.md defines: an HTTP hook (STATES_URL) or a static file (STATES_FILE).
 */

export type StateName = 'user' | 'user.inactive' | 'user.expired-token' | 'user.short-session' | 'user.brute-force' | 'user.locked' | 'user.throttled' | 'user.forbidden' | 'platform' | 'balances' | 'bonuses' | 'bank.used' | 'bank' | 'card' | 'password-reset.token' | TwoPlatformsState;

/** The states that give one user records of one kind on two platforms (added for issue 19: the company and platform filters). */
export type TwoPlatformsState = 'bank.two-platforms' | 'card.two-platforms' | 'bonuses.two-platforms';

/**
 * A platform of a `*.two-platforms` state: its ID (the `{platform}` of section 4.1), the code its records show
 * (`externalPlatform.code`; a bonus's order's), and the ids of the records the call made on it.
 */
export interface PlatformRecords {
  id: string;
  code: string;
  ids: string[];
}

/**
 * The optional `company` of `bank.two-platforms` and `card.two-platforms` (added later, issues 27 and 28): a value of the
 * `company` filter in the target's own meaning (4.10 and 4.6a only name the filter) and the ids of the user's records it
 * selects, best some but not all of them.
 */
export interface CompanyRecords {
  value: string;
  ids: string[];
  /**
   * `none` (optional, added later: round wb23): another value of the `company` filter in the target's own meaning, one
   * that selects NONE of the user's records (a company the target knows that holds none of them); the list under it must
   * be answered 200 with none of them.
   */
  none?: string;
}

/** A held coin, its precision (decimal places) and its crypto `available` amount with exactly that many fractional digits. */
export interface BalanceAmount {
  symbol: string;
  precision: number;
  available: string;
}

/**
 * What the target's own records hold for one held coin or NFT (state balances' optional `assets`, round wb23): its
 * `chain` (name and symbol, each a string or null), its `meta.links` members (a coin's website, github, facebook,
 * twitter: any of them) and its `description` (language code to text), each optional; a member not given is not judged.
 */
export interface BalanceAsset {
  symbol: string;
  chain?: { name: string | null; symbol: string | null };
  links?: Partial<Record<'website' | 'github' | 'facebook' | 'twitter', string>>;
  description?: Record<string, string>;
}

/** A held coin's genesis date (state balances' optional `genesisDates`, round wb22): the calendar day, `YYYY-MM-DD`. */
export interface GenesisDate {
  symbol: string;
  date: string;
}

/**
 * `platformId` (added later): with the param `platformId`, the platform the account belongs to, as the hook (or file)
 * made it; a hook that does not offer the param answers none.
 */
export interface StateData {
  /** With params.emailTag (added later), `email`'s local part carries a + tag (name+tag@domain); a hook that does not offer the param answers one without. */
  user: { id: string; email: string; password: string; totpSecret?: string; platformId?: string };
  /** `totpSecret`: given with params.twoFactor (added later), a 2FA account. */
  'user.inactive': { id: string; email: string; password: string; token: string; totpSecret?: string; platformId?: string };
  /** `token`: an access token issued to this active account that has expired (its ttl is over). */
  'user.expired-token': { id: string; email: string; password: string; token: string };
  /** An active account whose logins issue sessions of a few seconds (2 to 5), so a test can outwait one (added for issue 19); `totpSecret`: given with params.twoFactor (added later, round wb22), a 2FA account. */
  'user.short-session': { id: string; email: string; password: string; totpSecret?: string; platformId?: string };
  /** A fresh active account and `attempts`, the failed logins after which its login is restricted (425; added for issue 19); `totpSecret`: given with params.twoFactor (added later), a 2FA account. */
  'user.brute-force': { id: string; email: string; password: string; attempts: number; totpSecret?: string };
  /** `totpSecret`: given with params.twoFactor (added later), a 2FA account. */
  'user.locked': { id: string; email: string; password: string; totpSecret?: string; platformId?: string };
  'user.throttled': { id: string; email: string; password: string; platformId?: string };
  /** An active account the platform forbids the one action named by params.action (`bank.create`), every other allowed (added for issue 19). */
  'user.forbidden': { id: string; email: string; password: string };
  /**
   * `privateKeyFile` (a STATES_FILE's second platform only): the platform's own key, which the suite signs with instead of the key it sent.
   * `code`, `name`, `url` (a hook's, added later, optional): what records on that platform show as externalPlatform (2.4, 2.5).
   */
  platform: { id: string; privateKeyFile?: string; code?: string; name?: string; url?: string };
  /**
   * `native` (optional): the held coins that are the native coin of their chain (section 2.2: chain name and symbol both null).
   * `genesisDate` (optional): held coins whose record's meta carries genesis_date (section 2.2, a date string).
   * `genesisDates` (optional, added for round wb22): held coins whose meta carries genesis_date, each with that date (`YYYY-MM-DD`, the calendar day).
   * `amount` (optional): one held coin's crypto available amount, written with exactly `precision` fractional digits (section 2.2: precision, decimal places).
   * `amounts` (optional, added for round wb14): held coins (best every one), each with its precision and its crypto available
   * amount (at most `precision` fractional digits, or the bare 0); an entry whose amount is 0 names a held coin with nothing available.
   * `assets` (optional, added for round wb23): held coins and NFTs (best every one), each with what its records hold: its
   * chain, its meta.links members and its description (BalanceAsset).
   */
  balances: { coins: string[]; nfts: string[]; native?: string[]; genesisDate?: string[]; genesisDates?: GenesisDate[]; amount?: BalanceAmount; amounts?: BalanceAmount[]; assets?: BalanceAsset[] };
  /**
   * `antiPhishing` (optional): the user's anti-phishing code in clear, so the suite can check it is never returned unmasked.
   * `sharedOrder` (optional, added later): with params.sharedOrder, the ids of two of the bonuses, in one status, that one
   * order earned; a hook that does not offer the param answers none.
   */
  bonuses: { ids: string[]; assets: string[]; antiPhishing?: string; sharedOrder?: string[] };
  'bank.used': { id: string };
  /** A fresh bank of that user, never used, so nothing but the account's state stands in the way of deleting it (added for issue 19). */
  bank: { id: string };
  /** A card of that user (added for issue 19): the only way an inactive account has one. */
  card: { id: string };
  'password-reset.token': { token: string };
  /** `company` (optional, added later): a value of the company filter in the target's own meaning and the records it selects. */
  'bank.two-platforms': { platforms: PlatformRecords[]; company?: CompanyRecords };
  'card.two-platforms': { platforms: PlatformRecords[]; company?: CompanyRecords };
  'bonuses.two-platforms': { platforms: PlatformRecords[] };
}

export type StateOutcome<N extends StateName> = { provided: true; data: StateData[N] } | { provided: false; reason: string };

/** The hook refused the suite's credentials: the whole run stops as a configuration error. */
export class StatesAuthError extends Error {
  override name = 'StatesAuthError';
}

/** The hook answered something the contract does not allow: the tests that need the state fail. */
export class StateError extends Error {
  override name = 'StateError';
}

/**
 * The secrets a state answers, learnt with what they are: a password, a TOTP secret, and a `token`
 * that is the reset token for `password-reset.token` and else an access token of the state's user.
 */
function learnSecretsOf(state: StateName, data: unknown): void {
  if (!data || typeof data !== 'object') return;
  const record = data as Record<string, unknown>;
  learnAccountPassword(record);
  learnSecret(record.totpSecret, 'never-travels');
  if (state === 'password-reset.token') learnSecret(record.token, 'reset-token');
  else learnSecret(record.token, 'token', typeof record.id === 'string' ? { owner: record.id } : {});
}

/**
 * `mutates`: the test changes the state's records (resets a password, locks an account).
 * `needs`: states the test will ask next for the same user (a static file leases an account that has them).
 * `holder`: the test asking (a static file leases its accounts to it until its clean-up ran).
 */
export interface StateRequestOptions {
  mutates?: boolean;
  /**
   * The logins with wrong credentials the test will send the account (issue 28). A hook's accounts are fresh; a
   * STATES_FILE's are leased only while they stay within FAILED_LOGINS_PER_ACCOUNT this run.
   */
  failsLogins?: number;
  needs?: StateName[];
  /**
   * With `needs` password-reset.token: the type of the forgot-password (section 4.3, text or link) whose token the test
   * asks for (state password-reset.token with `type`): a STATES_FILE leases an account of that resetTokenType.
   */
  resetType?: 'text' | 'link';
  /**
   * With `needs` password-reset.token (added later, round wb14): the test resets the address a second time, with the token
   * of a forgot-password sent after a first reset: a STATES_FILE leases an account so prepared (`resetBefore`); a hook's
   * fresh account is reset by the test itself first.
   */
  resetBefore?: true;
  holder?: { id: string };
  /** Hears of each rate limiter's answer (429, or 503 with Retry-After) the hook gave, retried or not. */
  onRateLimited?: () => void;
}

export interface StatesTransport {
  get<N extends StateName>(name: N, params: Record<string, unknown>, options?: StateRequestOptions): Promise<StateOutcome<N>>;
  describe(): string;
}

export class NoStates implements StatesTransport {
  async get<N extends StateName>(name: N): Promise<StateOutcome<N>> {
    return { provided: false, reason: `target does not provide state ${name} (no STATES_URL or STATES_FILE configured)` };
  }
  describe(): string {
    return 'none';
  }
}

/** The road to the hook: the same CA and extra headers as the target's. */
export interface HookRoad {
  caFile?: string;
  headers?: Record<string, string>;
  /** The run's requests-per-second cap, shared with the target's client: --rate caps the hook's calls too. */
  limiter?: RateLimiter;
  /** The hook's answers stop here, as the target's do (MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

/** MAX_RESPONSE_BYTES's default: what a hook's answer may weigh when the road names no limit. */
const DEFAULT_HOOK_BYTES = DEFAULT_MAX_RESPONSE_BYTES;

/**
 * A hook's answer read up to `limit` bytes (a hook streaming without end is stopped there, its connection dropped) and
 * parsed, within the worker's budget for large answers (issue 29): a large answer keeps its first characters as `text`.
 */
async function readLimited(response: Dispatcher.ResponseData, limit: number, url: string, what: string, signal?: AbortSignal): Promise<{ text: string; body: unknown }> {
  const declared = Number(response.headers['content-length']);
  const tooLarge = () => new StateError(`the provider-state hook ${withoutCredentials(url)} answered with a body larger than ${limit} bytes (MAX_RESPONSE_BYTES); the suite stopped reading it`);
  if (Number.isFinite(declared) && declared > limit) {
    response.body.destroy();
    throw tooLarge();
  }
  let body: Dispatcher.ResponseData<unknown>;
  try {
    body = decoded(response, `the provider-state hook ${withoutCredentials(url)}`);
  } catch (error) {
    if (error instanceof SuiteLimitError) throw new StateError(`${error.message}; ${error.fix.replace(/ to judge it$/, '')}`);
    throw error;
  }
  return readWithin(body, limit, tooLarge, ({ text, sha256 }) => {
    const deep = tooDeep(text, what);
    if (deep) throw new StateError(deep);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { text: sha256 === undefined ? text : excerpt(text, 8192), body };
  }, signal);
}

/**
 * The params of docs/provider-states.md added after a state was first specified ("added later"): a hook written
 * before may refuse them with 422, and is then asked again without them (HookStates.get).
 */
export const LATER_PARAMS: Partial<Record<string, readonly string[]>> = {
  user: ['platformId', 'emailTag'],
  'user.inactive': ['platformId', 'twoFactor'],
  'user.locked': ['platformId', 'twoFactor'],
  'user.brute-force': ['twoFactor'],
  'user.throttled': ['platformId'],
  'user.short-session': ['platformId', 'twoFactor'],
  'password-reset.token': ['type'],
  bonuses: ['sharedOrder'],
};

/** A 401/403 the hook itself gave is JSON; anything else came from a gateway or proxy in front of it. */
export function hookRefusal(url: string, token: string | undefined, answer: { status: number; body: unknown; contentType?: string }): string {
  const where = `the provider-state hook ${withoutCredentials(url)}`;
  if (answer.body === undefined || typeof answer.body !== 'object' || answer.body === null) {
    return `configuration error: ${where} answered ${answer.status} (${answer.contentType ?? 'no content type'}) from something in front of the hook (a gateway or proxy), not from the hook: add the header it wants with --header 'Name: value' (EXTRA_HEADERS)`;
  }
  // A JSON refusal may be the hook's or a gateway's ({"message":"Invalid API key"}): the contract does not say whose shape it is.
  return `configuration error: ${where} answered ${answer.status}: STATES_TOKEN is ${token ? 'wrong' : 'missing'}; set STATES_TOKEN to the hook's token (or, if a gateway in front of the hook refused, add the header it wants with --header 'Name: value')`;
}

export class HookStates implements StatesTransport {
  private readonly agent: Dispatcher;
  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    private readonly timeoutMs: number,
    private readonly road: HookRoad = {},
  ) {
    this.agent = dispatcherFor(url, { connections: 4, timeoutMs, ...(road.caFile ? { caFile: road.caFile } : {}) });
    learnSecret(token, 'configured');
    // A gateway's header values are secrets on the hook's road too (a command may reach the hook without the target's client).
    for (const [name, value] of Object.entries(road.headers ?? {})) learnSecret(value, isCredentialHeaderName(name) ? 'configured' : 'header-value');
  }

  describe(): string {
    return `hook ${withoutCredentials(this.url)}`;
  }

  async get<N extends StateName>(name: N, params: Record<string, unknown>, options: StateRequestOptions = {}): Promise<StateOutcome<N>> {
    let answer = await this.call(name, params, options.onRateLimited);
    // A hook written before a param was added may refuse the params it does not know (422): asked again without
    // them, it serves the state as it did then, and the tests that needed the param see it not honoured (additive).
    const later = Object.keys(params).filter((param) => LATER_PARAMS[name]?.includes(param));
    if (answer.status === 422 && later.length > 0) {
      learnSecretsOf(name, answer.body);
      answer = await this.call(name, Object.fromEntries(Object.entries(params).filter(([param]) => !later.includes(param))), options.onRateLimited);
    }
    // Whatever the answer, the credentials in it are secrets: a hook answering 201, or 200 without
    // `data`, still carries them, and its body is quoted in the failure below.
    learnSecretsOf(name, answer.body);
    learnSecretsOf(name, (answer.body as { data?: unknown } | undefined)?.data);
    // Quoted: a hook's answer is data in the line that cites it, never control (issue 29).
    const shown = answer.body === undefined ? quote(redactText(answer.text).slice(0, 2000), 300) : escapeControls(JSON.stringify(redactJson(answer.body)).slice(0, 300));
    if (answer.status === 200) {
      const data = (answer.body as { data?: unknown } | undefined)?.data;
      if (!data || typeof data !== 'object') throw new StateError(`provider state ${name}: the hook answered 200 without a data object: ${shown}`);
      return { provided: true, data: data as StateData[N] };
    }
    if (answer.status === 404 || answer.status === 501) return { provided: false, reason: `target does not provide state ${name}` };
    if (retryDelayMs(answer.status, answer.retryAfter, this.timeoutMs) !== undefined) {
      return { provided: false, reason: `not verified: rate limited, the provider-state hook still answered ${answer.status} with Retry-After after ${RETRY_ATTEMPTS} retries; lower --rate or raise the hook's limit` };
    }
    if (answer.status === 401 || answer.status === 403) throw new StatesAuthError(hookRefusal(this.url, this.token, answer));
    throw new StateError(`provider state ${name}: the hook answered ${answer.status} (the contract allows 200, 404, 501, 401, 403): ${shown}`);
  }

  /** Sends one hook request. Exposed for the preflight, which asks for a state that cannot exist. */
  async call(name: string, params: Record<string, unknown>, onRateLimited?: () => void): Promise<{ status: number; text: string; body: unknown; contentType?: string; location?: string; retryAfter?: string }> {
    const headers: Record<string, string> = withUserAgent({ ...this.road.headers, 'content-type': 'application/json', accept: 'application/json' });
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    return withRetries(() => this.callOnce(headers, name, params), (answer) => answer, this.timeoutMs, onRateLimited);
  }

  private async callOnce(headers: Record<string, string>, name: string, params: Record<string, unknown>): Promise<{ status: number; text: string; body: unknown; contentType?: string; location?: string; retryAfter?: string }> {
    await this.road.limiter?.take();
    // Also bounds the wait for the budget of large answers (issue 29): never past the hook's timeout.
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await request(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ state: name, params }),
        dispatcher: this.agent,
        signal: deadline,
      });
      const { text, body } = await readLimited(response, this.road.maxResponseBytes ?? DEFAULT_HOOK_BYTES, this.url, `the provider-state hook ${withoutCredentials(this.url)} answered ${response.statusCode} to state ${name}, but the answer`, deadline);
      const header = (name: string) => {
        const value = response.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      };
      const contentType = header('content-type');
      const location = header('location');
      const retryAfter = header('retry-after');
      return { status: response.statusCode, text, body, ...(contentType ? { contentType } : {}), ...(location ? { location } : {}), ...(retryAfter ? { retryAfter } : {}) };
    } catch (error) {
      if (error instanceof StateError) throw error;
      if (error instanceof BudgetWaitTimeout) throw new StateError(`the provider-state hook ${withoutCredentials(this.url)} answered state ${name} with a large body that waited for this worker's budget for large answers (held by other large answers of the run) until its timeout (${this.timeoutMs} ms) ran out; the suite did not read it`);
      throw new StateError(`provider-state hook unreachable: ${describeTransportFailure(error, 'POST', this.url, this.timeoutMs)} (check STATES_URL)`);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
