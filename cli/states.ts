import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { Agent, request } from 'undici';
import { ConfigError } from '../helpers/net/config.js';
import { describeTransportFailure } from '../helpers/net/http.js';
import { withoutCredentials } from '../helpers/net/redact.js';
import { ACCOUNT_KINDS, isOfKind, loadStatesFile, spentListPath, type FileAccount, type StatesFileV1, type UserRole } from '../helpers/states/file.js';
import { HookStates, StateError, StatesAuthError, type StateName } from '../helpers/states/transport.js';
import { SCHEMA_DIR } from '../helpers/spec/schemas.js';

/**
 * `conformance states template` and `conformance states export`: a static provider-states file
 * (schemas/states-file.json) for a run without a hook, as a skeleton or filled from a hook.
 */

const USAGE = `usage: conformance states template [--minimum]
       conformance states export --target URL --states HOOK [--states-token T] --out FILE [--minimum]`;

type Kind = (typeof ACCOUNT_KINDS)[number];

/** The fields an account of that kind carries, with placeholder values. */
function skeletonAccount(kind: Kind, n: number): FileAccount {
  const email = kind.emailLength ? `<e-mail address of exactly ${kind.emailLength} characters, of ${kind.kind} ${n}>` : `<e-mail of ${kind.kind} ${n}>`;
  const account: FileAccount = { state: kind.state, id: `<user id (UUID) of ${kind.kind} ${n}>`, email, password: '<its password>', ...(kind.disposable ? { disposable: true } : {}) };
  const extras: Partial<Record<UserRole | 'inactive', Partial<FileAccount>>> = {
    balances: {
      balances: {
        coins: ['<coin symbol it holds>'],
        nfts: ['<NFT symbol it holds>'],
        native: ['<optional: held coin native to its chain (chain name and symbol null)>'],
        genesisDate: ['<optional: held coin whose meta carries genesis_date>'],
        // The optional `amount` ({ symbol, precision, available }) has no placeholder the schema accepts: docs/provider-states.md.
      },
    },
    bonuses: { bonuses: { ids: ['<bonus id: at least one distributed, one pending, one canceled>'], assets: ['<asset symbol of its bonuses>'], antiPhishing: '<optional: its anti-phishing code in clear>' } },
    'bank.used': { bankUsed: { id: '<id of its bank used in earlier actions>' } },
    'password-reset.token': { resetToken: '<token of the latest forgot-password e-mail sent to it>' },
    '2fa': { totpSecret: '<its base32 TOTP secret>' },
    inactive: {
      token: '<access token issued before it became inactive, unexpired>',
      bonuses: { ids: ['<bonus id of this account>'], assets: ['<asset symbol>'] },
      bankUsed: { id: '<id of a bank of this account>' },
    },
  };
  if (kind.state === 'user.expired-token') return { ...account, token: '<access token issued to it whose lifetime is over>' };
  return { ...account, ...(kind.role ? extras[kind.role] : kind.state === 'user.inactive' ? extras.inactive : {}) };
}

function countsLine(minimum: boolean): string {
  return ACCOUNT_KINDS.map((k) => `${minimum ? k.minimum : k.fullSpeed} ${k.kind}`).join(', ');
}

/** The package's own schemas/states-file.json. */
const STATES_SCHEMA = resolve(SCHEMA_DIR, 'states-file.json');

/**
 * A `$schema` an editor resolves: the installed package's schema, relative to the folder the file is
 * saved in (`./node_modules/account-api-conformance/schemas/states-file.json` in a project), or its
 * file URL when no relative path leads there.
 */
export function schemaReference(fromDir = process.cwd()): string {
  const path = relative(fromDir, STATES_SCHEMA);
  if (path === '' || isAbsolute(path)) return pathToFileURL(STATES_SCHEMA).href;
  const posix = path.split(/[\\/]/).join('/');
  return posix.startsWith('.') ? posix : `./${posix}`;
}

export function template(minimum = false, fromDir?: string): StatesFileV1 & { $schema: string } {
  const accounts: FileAccount[] = [];
  for (const kind of ACCOUNT_KINDS) for (let n = 1; n <= (minimum ? kind.minimum : kind.fullSpeed); n++) accounts.push(skeletonAccount(kind, n));
  return {
    $schema: schemaReference(fromDir),
    version: 1,
    comment: `${minimum ? 'The fewest accounts that run every test a file can give (tests wait for free accounts)' : 'Accounts for a full run at full speed (no test waits for an account)'}: ${countsLine(minimum)}. ${minimum ? `At full speed: ${countsLine(false)}.` : `At least: ${countsLine(true)}.`} Each account is leased to one test at a time; the suite never changes one unless it is "disposable": true, and each disposable account serves once (one test of one run: add fresh ones for the next run). See docs/provider-states.md.`,
    platform: { id: '<platform id: the {platform} path segment>', privateKeyFile: 'platform-key.pem' },
    accounts,
  };
}

/** Asks the hook for a state; a state it does not provide answers undefined. */
async function ask<N extends StateName>(hook: HookStates, name: N, params: Record<string, unknown> = {}) {
  const outcome = await hook.get(name, params);
  return outcome.provided ? outcome.data : undefined;
}

async function exportAccount(hook: HookStates, kind: Kind, target: { url: string; agent: Agent; timeoutMs: number }): Promise<FileAccount | undefined> {
  if (kind.state !== 'user') {
    const data = await ask(hook, kind.state);
    if (!data) return undefined;
    const account: FileAccount = { state: kind.state, id: data.id, email: data.email, password: data.password, ...('token' in data && data.token ? { token: data.token } : {}) };
    if (kind.state === 'user.inactive') {
      const bonuses = await ask(hook, 'bonuses', { userId: data.id });
      const bank = await ask(hook, 'bank.used', { userId: data.id });
      if (bonuses) account.bonuses = bonuses;
      if (bank) account.bankUsed = { id: bank.id };
    }
    return account;
  }
  const user = await ask(hook, 'user', { ...(kind.role === '2fa' ? { twoFactor: true } : {}), ...(kind.emailLength ? { emailLength: kind.emailLength } : {}) });
  if (!user) return undefined;
  if (kind.emailLength && user.email.length !== kind.emailLength) return undefined;
  const account: FileAccount = { state: 'user', id: user.id, email: user.email, password: user.password, ...(kind.disposable ? { disposable: true } : {}) };
  switch (kind.role) {
    case '2fa':
      if (!user.totpSecret) return undefined;
      account.totpSecret = user.totpSecret;
      break;
    case 'balances': {
      const balances = await ask(hook, 'balances', { userId: user.id });
      if (!balances) return undefined;
      // The optional fields a hook may add (docs/provider-states.md), carried over when it gives them.
      account.balances = { coins: balances.coins, nfts: balances.nfts, ...(balances.native ? { native: balances.native } : {}), ...(balances.genesisDate ? { genesisDate: balances.genesisDate } : {}), ...(balances.amount ? { amount: balances.amount } : {}) };
      break;
    }
    case 'bonuses': {
      const bonuses = await ask(hook, 'bonuses', { userId: user.id });
      if (!bonuses) return undefined;
      account.bonuses = bonuses;
      break;
    }
    case 'bank.used': {
      const bank = await ask(hook, 'bank.used', { userId: user.id });
      if (!bank) return undefined;
      account.bankUsed = { id: bank.id };
      break;
    }
    case 'password-reset.token': {
      const url = `${target.url}/api/v1/user/forgot-password`;
      let status: number;
      try {
        const response = await request(url, { method: 'POST', dispatcher: target.agent, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ email: user.email }), signal: AbortSignal.timeout(target.timeoutMs) });
        await response.body.dump();
        status = response.statusCode;
      } catch (error) {
        throw new ConfigError(`target unreachable: ${describeTransportFailure(error, 'POST', url, target.timeoutMs)}`);
      }
      if (status !== 200) throw new ConfigError(`the target answered forgot-password for a fresh provider-state user with ${status}, not 200: cannot export reset tokens (check --target)`);
      const reset = await ask(hook, 'password-reset.token', { email: user.email });
      if (!reset) return undefined;
      account.resetToken = reset.token;
      break;
    }
  }
  return account;
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

export async function exportStates(options: { target: string; states: string; token?: string; out: string; minimum?: boolean; timeoutMs?: number }, write: (line: string) => void): Promise<number> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const target = options.target.replace(/\/+$/, '');
  for (const [flag, value] of [['--target', target], ['--states', options.states]] as const) {
    if (!/^https?:\/\/[^/]/i.test(value)) throw new ConfigError(`configuration error: ${flag} must be an http(s) URL, for example http://127.0.0.1:8080 (got "${withoutCredentials(value)}")`);
  }
  const out = resolve(options.out);
  const hook = new HookStates(options.states, options.token, timeoutMs);
  const agent = new Agent({ connections: 8 });
  try {
    const preflight = await hook.call('conformance.preflight', {});
    if (preflight.status === 401 || preflight.status === 403) {
      throw new ConfigError(`configuration error: the provider-state hook ${withoutCredentials(options.states)} answered ${preflight.status}: STATES_TOKEN is ${options.token ? 'wrong' : 'missing'}; pass --states-token`);
    }
    // The same $schema as the template's, relative to the folder the file is written to.
    const file: StatesFileV1 & { $schema: string } = { $schema: schemaReference(dirname(out)), version: 1, comment: `Exported from ${withoutCredentials(options.states)} for ${withoutCredentials(target)} on ${new Date().toISOString()}. Inactive tokens, reset tokens and throttled accounts expire on the target: export again when a run reports them.`, accounts: [] };
    const missing: string[] = [];
    for (const kind of ACCOUNT_KINDS) {
      const count = options.minimum ? kind.minimum : kind.fullSpeed;
      const accounts = await inParallel(Array.from({ length: count }, (_, i) => i), 8, () => exportAccount(hook, kind, { url: target, agent, timeoutMs }));
      const got = accounts.filter((a): a is FileAccount => a !== undefined);
      if (got.length < count) missing.push(kind.kind);
      file.accounts.push(...got);
    }
    // The platform: a key pair made here; the hook registers its public key, the private key goes next to the file.
    const keyPath = join(dirname(out), `${basename(out).replace(/\.json$/i, '')}.platform-key.pem`);
    const { privateKey, publicKey } = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
    const platform = await ask(hook, 'platform', { publicKey: await exportSPKI(publicKey) });
    if (platform) {
      writeOwnerOnly(keyPath, await exportPKCS8(privateKey));
      file.platform = { id: platform.id, privateKeyFile: basename(keyPath) };
    } else missing.push('platform');
    if (file.accounts.length === 0) throw new ConfigError(`configuration error: the provider-state hook ${withoutCredentials(options.states)} provides none of the account states; nothing to export`);
    writeOwnerOnly(out, `${JSON.stringify(file, null, 2)}\n`);
    rmSync(spentListPath(out), { force: true }); // fresh disposable accounts: the list of spent ones starts again
    loadStatesFile(out); // what was written is a file the suite accepts
    const counts = ACCOUNT_KINDS.map((kind) => `${file.accounts.filter((a) => isOfKind(a, kind)).length} ${kind.kind}`).join(', ');
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

/** `conformance states <template|export> ...` */
export async function statesCommand(argv: string[], write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'template') {
    const { values } = parseArgs({ args: rest, options: { minimum: { type: 'boolean' } } });
    write(JSON.stringify(template(values.minimum === true), null, 2));
    return 0;
  }
  if (sub === 'export') {
    const { values } = parseArgs({ args: rest, options: { target: { type: 'string' }, states: { type: 'string' }, 'states-token': { type: 'string' }, out: { type: 'string' }, minimum: { type: 'boolean' } } });
    const missing = ['target', 'states', 'out'].filter((name) => !values[name as 'target']);
    if (missing.length > 0) throw new ConfigError(`states export: missing ${missing.map((m) => `--${m}`).join(', ')}; see \`conformance help\``);
    const token = values['states-token'] ?? process.env.STATES_TOKEN;
    return exportStates({ target: values.target!, states: values.states!, ...(token ? { token } : {}), out: values.out!, minimum: values.minimum === true }, write);
  }
  throw new ConfigError(`states: give template or export; see \`conformance help\``);
}
