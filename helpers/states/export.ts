import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { request, type Dispatcher } from 'undici';
import { ConfigError } from '../net/config-basics.js';
import { describeTransportFailure } from '../net/http.js';
import { dispatcherFor } from '../net/transport.js';
import { withoutCredentials } from '../net/redact.js';
import { learnSecret } from '../net/secrets.js';
import { freshTotpCode } from './totp.js';
import { withUserAgent } from '../net/user-agent.js';
import { ACCOUNT_KINDS, countOf, hasEmailTag, isOfKind, loadStatesFile, spentListPath, type FileAccount, type StatesFileV1 } from './file.js';
import { schemaReference, type Kind } from './template.js';
import { HookStates, hookRefusal, StateError, StatesAuthError, type HookRoad, type StateName } from './transport.js';

/**
 * `conformance states export`: a static provider-states file (schemas/states-file.json) filled from a
 * provider-state hook, for later runs without the hook.
 */

/** Asks the hook for a state; a state it does not provide answers undefined. */
async function ask<N extends StateName>(hook: HookStates, name: N, params: Record<string, unknown> = {}) {
  const outcome = await hook.get(name, params);
  return outcome.provided ? outcome.data : undefined;
}

/** The balances of an account as the file holds them: the optional fields a hook may add (docs/provider-states.md), carried over when it gives them. */
function balancesOf(balances: NonNullable<FileAccount['balances']>): NonNullable<FileAccount['balances']> {
  return { coins: balances.coins, nfts: balances.nfts, ...(balances.native ? { native: balances.native } : {}), ...(balances.genesisDate ? { genesisDate: balances.genesisDate } : {}), ...(balances.genesisDates ? { genesisDates: balances.genesisDates } : {}), ...(balances.amount ? { amount: balances.amount } : {}), ...(balances.amounts ? { amounts: balances.amounts } : {}), ...(balances.assets ? { assets: balances.assets } : {}) };
}

/**
 * The bonuses of an account as the file holds them: the optional fields a hook may add, carried over when it gives them;
 * `sharedOrder` (added later) only as two different ids of `ids`, which is what the file's load check accepts, so a hook's
 * malformed pair costs that one test (not verified), never the whole export.
 */
function bonusesOf(bonuses: NonNullable<FileAccount['bonuses']>): NonNullable<FileAccount['bonuses']> {
  const shared = bonuses.sharedOrder;
  const pair = Array.isArray(shared) && shared.length === 2 && shared[0] !== shared[1] && shared.every((id) => typeof id === 'string' && bonuses.ids.includes(id));
  return { ids: bonuses.ids, assets: bonuses.assets, ...(typeof bonuses.antiPhishing === 'string' ? { antiPhishing: bonuses.antiPhishing } : {}), ...(pair ? { sharedOrder: shared } : {}) };
}

/** The account states a JWT names, which take `platformId` (docs/provider-states.md): a file's accounts are users of its platform entry. */
const ON_PLATFORM = new Set<string>(['user', 'user.inactive', 'user.locked', 'user.throttled', 'user.short-session']);

async function exportAccount(hook: HookStates, kind: Kind, target: { url: string; agent: Dispatcher; timeoutMs: number; headers: Record<string, string> }, platformId?: string): Promise<FileAccount | undefined> {
  const onPlatform = platformId !== undefined && ON_PLATFORM.has(kind.state) ? { platformId } : {};
  if (kind.state !== 'user') {
    const data = await ask(hook, kind.state, kind.state === 'user.forbidden' ? { action: 'bank.create' } : { ...onPlatform, ...(kind.twoFactor ? { twoFactor: true } : {}) });
    if (!data) return undefined;
    // user.inactive and user.locked with 2FA (added later): a hook that gives no totpSecret does not provide them.
    const totpSecret = 'totpSecret' in data ? data.totpSecret : undefined;
    if (kind.twoFactor && !totpSecret) return undefined;
    const account: FileAccount = { state: kind.state, id: data.id, email: data.email, password: data.password, ...('token' in data && data.token ? { token: data.token } : {}), ...('attempts' in data ? { attempts: digitsCount(data.attempts) } : {}), ...(kind.twoFactor ? { totpSecret } : {}) };
    if (kind.state === 'user.inactive' && !kind.twoFactor) {
      const bonuses = await ask(hook, 'bonuses', { userId: data.id });
      const bank = await ask(hook, 'bank.used', { userId: data.id });
      const fresh = await ask(hook, 'bank', { userId: data.id });
      const card = await ask(hook, 'card', { userId: data.id });
      if (bonuses) account.bonuses = bonusesOf(bonuses);
      if (bank) account.bankUsed = { id: bank.id };
      if (fresh) account.bank = { id: fresh.id };
      if (card) account.card = { id: card.id };
    }
    return account;
  }
  const twoFactor = kind.role === '2fa' || kind.role === '2fa-records' || kind.twoFactor === true;
  const user = await ask(hook, 'user', { ...onPlatform, ...(twoFactor ? { twoFactor: true } : {}), ...(kind.emailLength ? { emailLength: kind.emailLength } : {}), ...(kind.emailTag ? { emailTag: true } : {}) });
  if (!user) return undefined;
  if (kind.emailLength && user.email.length !== kind.emailLength) return undefined;
  // emailTag (added later): a hook that does not honour it answers an address without a + tag, which is not of the kind.
  if (kind.emailTag && !hasEmailTag(user.email)) return undefined;
  const account: FileAccount = { state: 'user', id: user.id, email: user.email, password: user.password, ...(kind.disposable ? { disposable: true } : {}) };
  // A 2FA account with a reset token (added later): its TOTP secret beside the token.
  if (kind.twoFactor) {
    if (!user.totpSecret) return undefined;
    account.totpSecret = user.totpSecret;
  }
  switch (kind.role) {
    case '2fa':
      if (!user.totpSecret) return undefined;
      account.totpSecret = user.totpSecret;
      break;
    case '2fa-records': {
      // A 2FA account with bonuses and balances: the states bonuses and balances of the 2FA user.
      if (!user.totpSecret) return undefined;
      const bonuses = await ask(hook, 'bonuses', { userId: user.id });
      const balances = await ask(hook, 'balances', { userId: user.id });
      if (!bonuses || !balances) return undefined;
      account.totpSecret = user.totpSecret;
      account.bonuses = bonusesOf(bonuses);
      account.balances = balancesOf(balances);
      // And a used bank where the hook gives one (round wb12: the used bank's delete with a 2FA login); optional.
      const used = await ask(hook, 'bank.used', { userId: user.id });
      if (used) account.bankUsed = { id: used.id };
      break;
    }
    case 'balances': {
      const balances = await ask(hook, 'balances', { userId: user.id });
      if (!balances) return undefined;
      account.balances = balancesOf(balances);
      break;
    }
    case 'bonuses': {
      // sharedOrder (added later): two of its bonuses earned by one order, which a hook that does not offer it leaves out.
      const bonuses = await ask(hook, 'bonuses', { userId: user.id, sharedOrder: true });
      if (!bonuses) return undefined;
      account.bonuses = bonusesOf(bonuses);
      break;
    }
    case 'two-platforms': {
      const bank = await ask(hook, 'bank.two-platforms', { userId: user.id });
      const card = await ask(hook, 'card.two-platforms', { userId: user.id });
      const bonuses = await ask(hook, 'bonuses.two-platforms', { userId: user.id });
      if (!bank && !card && !bonuses) return undefined;
      // The optional company of bank and card (added later), as the hook gives it.
      const company = { ...(bank?.company ? { bank: bank.company } : {}), ...(card?.company ? { card: card.company } : {}) };
      account.twoPlatforms = { ...(bank ? { bank: bank.platforms } : {}), ...(card ? { card: card.platforms } : {}), ...(bonuses ? { bonuses: bonuses.platforms } : {}), ...(Object.keys(company).length > 0 ? { company } : {}) };
      break;
    }
    case 'bank.used': {
      const bank = await ask(hook, 'bank.used', { userId: user.id });
      if (!bank) return undefined;
      account.bankUsed = { id: bank.id };
      break;
    }
    case 'password-reset.token': {
      // Sent with the account's own bearer, as the suite's tests send them (section 4: "forgot-password and reset-password
      // requests are also sent with a bearer header in the reference calls"; a target may require one:
      // allowed-password-bearer-required, review-an F8). Without a login (an address login does not take) none is sent.
      let bearer = await bearerFor(target, hook, user);
      const forgot = () => post(target, '/api/v1/user/forgot-password', { email: user.email, ...(kind.resetType ? { type: kind.resetType } : {}) }, bearer);
      let status = await forgot();
      if (status === 401 || status === 403) throw new ConfigError(`the target answered forgot-password for a fresh provider-state user with ${status}, not 200 (section 4.3 asks no credentials): something in front of the target (a gateway) refused; add the header it wants with --header 'Name: value' (EXTRA_HEADERS), or check --target`);
      if (status !== 200) throw new ConfigError(`the target answered forgot-password for a fresh provider-state user with ${status}, not 200: cannot export reset tokens (check --target)`);
      // A kind of a typed forgot-password (section 4.3) keeps the token as the e-mail of that type shows it.
      let reset = await ask(hook, 'password-reset.token', { email: user.email, ...(kind.resetType ? { type: kind.resetType } : {}) });
      if (!reset) return undefined;
      if (kind.resetBefore) {
        // The second reset of one address (added later, round wb14): the address is reset once here, to a new password the
        // file keeps, then sent forgot-password again; the file holds that second e-mail's token. A target that refuses
        // the first reset or the second e-mail (a throttle) gives no account of the kind.
        const password = `Rp1-${randomBytes(12).toString('hex')}`;
        if ((await post(target, '/api/v1/user/reset-password', { email: user.email, token: reset.token, password }, bearer)) !== 200) return undefined;
        account.password = password;
        // A reset may end the account's sessions: the second e-mail goes with a bearer of the new password.
        bearer = await bearerFor(target, hook, { ...user, password });
        status = await forgot();
        if (status !== 200) return undefined;
        reset = await ask(hook, 'password-reset.token', { email: user.email });
        if (!reset) return undefined;
        account.resetBefore = true;
      }
      account.resetToken = reset.token;
      if (kind.resetType) account.resetTokenType = kind.resetType;
      break;
    }
  }
  return account;
}

/** The last access token an export logged in for: the bearer of an address login does not take (the suite's bearerOf alike). */
let spareBearer: string | undefined;

/**
 * The bearer forgot- and reset-password go with for `user`: its own password login's access token (section 4.2, with a
 * fresh TOTP code for a 2FA account, so that no login fails), or, for an address longer than login takes (191
 * characters, section 8), another account's: the last one logged in, else a fresh `user` of the hook's. Undefined when
 * the target answers no login 200 with `data.id`: then none is sent.
 */
async function bearerFor(target: TargetRoad, hook: HookStates, user: { email: string; password: string; totpSecret?: string }): Promise<string | undefined> {
  if (user.email.length > 191) {
    if (spareBearer !== undefined) return spareBearer;
    const fresh = await ask(hook, 'user', {});
    return fresh && fresh.email.length <= 191 ? bearerFor(target, hook, fresh) : undefined;
  }
  const url = `${target.url}/api/v1/authenticate`;
  const json = { email: user.email, password: user.password, ...(user.totpSecret ? { '2fa': await freshTotpCode(user.totpSecret) } : {}) };
  try {
    const response = await request(url, { method: 'POST', dispatcher: target.agent, headers: withUserAgent({ ...target.headers, 'content-type': 'application/json', accept: 'application/json' }), body: JSON.stringify(json), signal: AbortSignal.timeout(target.timeoutMs) });
    if (response.statusCode !== 200) {
      await response.body.dump();
      return undefined;
    }
    const token = ((await response.body.json()) as { data?: { id?: unknown } } | null)?.data?.id;
    if (typeof token !== 'string' || token === '') return undefined;
    learnSecret(token, 'token');
    spareBearer = token;
    return token;
  } catch {
    return undefined;
  }
}

/** The target as an export reaches it: its base URL, dispatcher, time limit and the road's headers. */
type TargetRoad = { url: string; agent: Dispatcher; timeoutMs: number; headers: Record<string, string> };

/** POSTs `json` to the target's `path` as the interface takes it, with `bearer` when one is given, and answers its status. */
async function post(target: { url: string; agent: Dispatcher; timeoutMs: number; headers: Record<string, string> }, path: string, json: Record<string, unknown>, bearer?: string): Promise<number> {
  const url = `${target.url}${path}`;
  try {
    const response = await request(url, { method: 'POST', dispatcher: target.agent, headers: withUserAgent({ ...target.headers, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), 'content-type': 'application/json', accept: 'application/json' }), body: JSON.stringify(json), signal: AbortSignal.timeout(target.timeoutMs) });
    await response.body.dump();
    return response.statusCode;
  } catch (error) {
    throw new ConfigError(`target unreachable: ${describeTransportFailure(error, 'POST', url, target.timeoutMs)}`);
  }
}

/** Runs `work` over `items` with at most `limit` at once, keeping the order of the answers. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

/** Writes a new owner-only file next to `path` and renames it over `path`: the secrets are never readable by others, not even for a moment. */
function writeOwnerOnly(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Asks the hook for every account kind of the file and writes it, owner-only, with the platform key beside it. `road`:
 * the CA file and a gateway's headers (--ca, --header) of every request to hook and target, as a run's; the proxy
 * variables apply through the dispatchers.
 */
/** A count a hook wrote as a string of digits (a PHP hook's PDO answers "5": reading round r30) is that count. */
function digitsCount(value: unknown): number {
  return typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : (value as number);
}

export async function exportStates(options: { target: string; states: string; token?: string; out: string; minimum?: boolean; runs?: number; timeoutMs?: number; road?: Pick<HookRoad, 'caFile' | 'headers'> }, write: (line: string) => void): Promise<number> {
  const runs = options.runs ?? 1;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const target = options.target.replace(/\/+$/, '');
  for (const [flag, value] of [['--target', target], ['--states', options.states]] as const) {
    if (!/^https?:\/\/[^/]/i.test(value)) throw new ConfigError(`configuration error: ${flag} must be an http(s) URL, for example http://127.0.0.1:8080 (got "${withoutCredentials(value)}")`);
  }
  const out = resolve(options.out);
  const road = options.road ?? {};
  const hook = new HookStates(options.states, options.token, timeoutMs, road);
  // The run's own road to the target: its proxy unless loopback or NO_PROXY, the CA file, interim 1xx answers read through (RFC 9110 15.2).
  const agent = dispatcherFor(target, { connections: 8, timeoutMs, ...(road.caFile ? { caFile: road.caFile } : {}) });
  try {
    const preflight = await hook.call('conformance.preflight', {});
    if (preflight.status === 401 || preflight.status === 403) {
      // Not JSON: a gateway or proxy in front of the hook refused, not the hook (the same line as a run's).
      if (preflight.body === null || typeof preflight.body !== 'object') throw new ConfigError(hookRefusal(options.states, options.token, preflight));
      throw new ConfigError(`configuration error: the provider-state hook ${withoutCredentials(options.states)} answered ${preflight.status}: STATES_TOKEN is ${options.token ? 'wrong' : 'missing'}; pass --states-token (or, if a gateway in front of the hook refused, add the header it wants with --header 'Name: value')`);
    }
    // The same $schema as the template's, relative to the folder the file is written to.
    const file: StatesFileV1 & { $schema: string } = { $schema: schemaReference(dirname(out)), version: 2, comment: `Exported from ${withoutCredentials(options.states)} for ${withoutCredentials(target)} on ${new Date().toISOString()}, with the accounts that serve once for ${runs} run(s). Inactive tokens, reset tokens and throttled accounts expire on the target: export again when a run reports them.`, accounts: [] };
    const missing: string[] = [];
    // The platform first: a key pair made here; the hook registers its public key, the private key goes next to the file.
    // The accounts are then asked as users of that platform (platformId), as a multi-tenant target keeps them.
    const keyPath = join(dirname(out), `${basename(out).replace(/\.json$/i, '')}.platform-key.pem`);
    const { privateKey, publicKey } = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
    const platform = await ask(hook, 'platform', { publicKey: await exportSPKI(publicKey) });
    if (platform) {
      writeOwnerOnly(keyPath, await exportPKCS8(privateKey));
      file.platform = { id: platform.id, privateKeyFile: basename(keyPath) };
    } else missing.push('platform');
    for (const kind of ACCOUNT_KINDS) {
      const count = countOf(kind, options.minimum === true, runs);
      const accounts = await inParallel(Array.from({ length: count }, (_, i) => i), 8, () => exportAccount(hook, kind, { url: target, agent, timeoutMs, headers: road.headers ?? {} }, platform?.id));
      const got = accounts.filter((a): a is FileAccount => a !== undefined);
      if (got.length < count) missing.push(kind.kind);
      file.accounts.push(...got);
    }
    // A second platform with a key of its own (version 2): the tests of one platform's JWT against another's key.
    const secondKeyPath = join(dirname(out), `${basename(out).replace(/\.json$/i, '')}.second-platform-key.pem`);
    const second = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
    const secondPlatform = platform ? await ask(hook, 'platform', { publicKey: await exportSPKI(second.publicKey) }) : undefined;
    if (secondPlatform) {
      writeOwnerOnly(secondKeyPath, await exportPKCS8(second.privateKey));
      file.secondPlatform = { id: secondPlatform.id, privateKeyFile: basename(secondKeyPath) };
    } else if (platform) missing.push('a second platform');
    if (file.accounts.length === 0) throw new ConfigError(`configuration error: the provider-state hook ${withoutCredentials(options.states)} provides none of the account states; nothing to export`);
    writeOwnerOnly(out, `${JSON.stringify(file, null, 2)}\n`);
    rmSync(spentListPath(out), { force: true }); // fresh disposable accounts: the list of spent ones starts again
    loadStatesFile(out); // what was written is a file the suite accepts
    const counts = ACCOUNT_KINDS.map((kind) => `${file.accounts.filter((a) => isOfKind(a, kind)).length} ${kind.kind}`).join(', ');
    if (file.secondPlatform) write(`wrote ${secondKeyPath} (owner-only): the private key of the second platform ${file.secondPlatform.id}`);
    write(`wrote ${out} (owner-only): ${file.accounts.length} accounts: ${counts}`);
    if (file.platform) write(`wrote ${keyPath} (owner-only): the private key of platform ${file.platform.id}, which the file names`);
    if (missing.length > 0) write(`the hook did not provide: ${missing.join(', ')}; tests that need them will be skipped with the reason`);
    write(`run with: conformance run --target ${withoutCredentials(target)} --states-file ${out}`);
    return 0;
  } catch (error) {
    if (error instanceof StatesAuthError || error instanceof StateError) throw new ConfigError(error.message);
    throw error;
  } finally {
    await hook.close();
    await agent.close();
  }
}
