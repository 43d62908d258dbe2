import { createPrivateKey } from 'node:crypto';
import { MAX_CONFIG_FILE_BYTES, parseBoundedJson, readBounded, TooLargeError } from '../spec/bounded.js';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { LeaseClient, LocalLeases, type AcquireAnswer, type AcquireRequest } from './leases.js';
import { learnAccountPassword, learnSecret } from '../net/secrets.js';
import { schemaProblems } from '../spec/schemas.js';
import { sameId } from '../spec/normalisation.js';
import { StateError, type BalanceAmount, type BalanceAsset, type CompanyRecords, type GenesisDate, type PlatformRecords, type StateName, type StateOutcome, type StateRequestOptions, type StatesTransport } from './transport.js';

/**
 * Transport 2 of docs/provider-states.md: a static file of test accounts (version 1, described by
 * schemas/states-file.json). Accounts are a pool: a test leases the accounts it uses exclusively until
 * its clean-up ran, so one file serves every test and every run. What a file cannot give (a fresh
 * reset e-mail, an account kind the file lacks) is skipped with the reason, and only that.
 */

export const ACCOUNT_STATES = ['user', 'user.inactive', 'user.locked', 'user.throttled', 'user.expired-token', 'user.forbidden', 'user.short-session', 'user.brute-force'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

export interface FileAccount {
  state: AccountState;
  id: string;
  email: string;
  password: string;
  token?: string;
  totpSecret?: string;
  disposable?: boolean;
  balances?: { coins: string[]; nfts: string[]; native?: string[]; genesisDate?: string[]; genesisDates?: GenesisDate[]; amount?: BalanceAmount; amounts?: BalanceAmount[]; assets?: BalanceAsset[] };
  bonuses?: { ids: string[]; assets: string[]; antiPhishing?: string; sharedOrder?: string[] };
  bankUsed?: { id: string };
  resetToken?: string;
  /**
   * Version 2 (added later), with resetToken: the type of the forgot-password whose e-mail carried it (section 4.3), the
   * token written as that e-mail shows it (state password-reset.token with `type`).
   */
  resetTokenType?: ResetType;
  /**
   * Version 2 (added later, round wb14), with resetToken: the account's address was reset once (forgot-password, then
   * reset-password with that e-mail's token) before the forgot-password whose e-mail carried resetToken: the second
   * reset of one address.
   */
  resetBefore?: true;
  /** Version 2, user.inactive: a bank of it never used (state bank) and a card of it (state card). */
  bank?: { id: string };
  card?: { id: string };
  /** Version 2, user.brute-force: the failed logins after which its login is restricted. */
  attempts?: number;
  /** Version 2, user: its records on two platforms (states bank.two-platforms, card.two-platforms, bonuses.two-platforms). */
  /** `company` (optional, added later): for bank and card, a value of the company filter in the target's own meaning and the records it selects. */
  twoPlatforms?: { bank?: PlatformRecords[]; card?: PlatformRecords[]; bonuses?: PlatformRecords[]; company?: { bank?: CompanyRecords; card?: CompanyRecords } };
}

/** A states file of version 1 or 2 (2 adds states and fields; a file of version 1 reads as it always did). */
export interface StatesFileV1 {
  version: 1 | 2;
  comment?: string;
  platform?: { id: string; privateKeyFile: string };
  /** Version 2: a second platform the target trusts, with its own key (state platform). */
  secondPlatform?: { id: string; privateKeyFile: string };
  accounts: FileAccount[];
}

/** Section 4.3: how a forgot-password e-mail shows its token (`type`). */
export type ResetType = 'text' | 'link';

/** What an account of state `user` is for: the one extra it carries decides (plain: none). */
export type UserRole = 'plain' | 'balances' | 'bonuses' | 'bank.used' | 'password-reset.token' | '2fa' | '2fa-records' | 'two-platforms';

/** The e-mail length the suite asks for to check the 255-character limit of forgot/reset (state `user`, param `emailLength`). */
export const LONG_EMAIL = 230;
/** The longest e-mail forgot-password takes (section 8: max 255): the suite asks for an account with one to check that it is accepted. */
export const LONGEST_EMAIL = 255;

/**
 * The kinds of account a full run uses, how many it needs at least and how many keep every test from
 * waiting. `perRun`: each account serves one test of one run (disposable, or left restricted), so
 * `states export --runs N` and `states template --runs N` give N times as many. `state` names the
 * provider states of docs/provider-states.md the kind stands for (test/states-file.test.ts holds every
 * state of the contract to a place in the file).
 */
/**
 * An address whose local part carries a `+` tag (RFC 5233 subaddress, `name+tag@example.com`): state `user` with
 * `emailTag: true` (added later) gives one; a STATES_FILE's account serves those tests when its address is so written.
 */
export function hasEmailTag(email: string): boolean {
  return /^[^@]*[^@+]\+[^@]*@[^@]+$/.test(email);
}

export const ACCOUNT_KINDS: { kind: string; state: AccountState; role?: UserRole; twoFactor?: true; disposable?: true; emailLength?: number; emailTag?: true; resetType?: ResetType; resetBefore?: true; minimum: number; fullSpeed: number; perRun?: true; why: string }[] = [
  { kind: 'user', state: 'user', role: 'plain', minimum: 22, fullSpeed: 26, why: 'most tests; tests of another user\u2019s records hold two at once; 40 logins with wrong credentials a run (round wb24 added 4: JWTs naming the user inside an array or an object), at most 2 on one account (FAILED_LOGINS_PER_ACCOUNT): 20 accounts, and two more, as tests run side by side and a test that fails one login takes a fresh account while the half-used ones are held' },
  { kind: 'user with balances', state: 'user', role: 'balances', minimum: 2, fullSpeed: 8, why: 'balance tests (coins and NFTs it holds); the access table of a balance {asset} route holds two at once (an owner and the other user of its another-user rows)' },
  { kind: 'user with bonuses', state: 'user', role: 'bonuses', minimum: 2, fullSpeed: 8, why: 'bonus tests; one test compares two users\u2019 bonuses' },
  { kind: 'user with a used bank', state: 'user', role: 'bank.used', minimum: 1, fullSpeed: 1, why: 'the bank delete 403 test' },
  { kind: 'user with a reset token', state: 'user', role: 'password-reset.token', minimum: 2, fullSpeed: 8, why: 'reset-password tests that do not spend the token; one uses two addresses' },
  { kind: 'user with 2FA', state: 'user', role: '2fa', minimum: 9, fullSpeed: 13, why: 'login tests with a TOTP code, and the valid-token rows of a 2FA login on the 10 protected routes that need no bonuses or balances (an account serves one test a TOTP step); 12 logins refused for a wrong, missing, malformed, stale or another account\u2019s code or password a run (the password in another letter case with a valid code among them; round wb21 added 4: a missing and a wrong code right after the account\u2019s own 2FA login, another account\u2019s current code, the account\u2019s code of 10 minutes ago; round wb24 added 2: the current code inside an array and an object), at most 2 on one account (FAILED_LOGINS_PER_ACCOUNT): 7 accounts, and two more, as tests run side by side' },
  { kind: 'user with 2FA, bonuses and balances', state: 'user', role: '2fa-records', minimum: 2, fullSpeed: 5, why: 'the valid-token rows of a 2FA login on the bonus routes and the balance {asset} routes (5 tests), which need its bonuses and balances (not a login test: it fails no login)' },
  { kind: 'user.inactive (with bonuses and a used bank)', state: 'user.inactive', minimum: 1, fullSpeed: 8, why: 'inactive-account tests of every group, and one forgot-password a run for its address (a second one within a minute may be refused: allowed-r5-forgot-throttled)' },
  { kind: 'user.inactive with 2FA', state: 'user.inactive', twoFactor: true, minimum: 1, fullSpeed: 1, why: 'the login 401 test of an inactive account with 2FA, with its password and a valid code (an account serves one test a TOTP step)' },
  { kind: 'user.locked', state: 'user.locked', minimum: 1, fullSpeed: 2, why: 'login 423 tests, and one forgot-password a run for its address (a second one within a minute may be refused: allowed-r5-forgot-throttled)' },
  { kind: 'user.locked with 2FA', state: 'user.locked', twoFactor: true, minimum: 1, fullSpeed: 1, why: 'the login 423 test of a locked account with 2FA, with its password and a valid code (an account serves one test a TOTP step)' },
  { kind: 'user.throttled', state: 'user.throttled', minimum: 1, fullSpeed: 2, why: 'login 425 tests' },
  { kind: 'user.expired-token', state: 'user.expired-token', minimum: 1, fullSpeed: 1, why: 'the 401 test of an expired token' },
  { kind: 'user with an e-mail with a + tag', state: 'user', role: 'plain', emailTag: true, minimum: 1, fullSpeed: 3, why: 'login (with its password, and by a JWT naming it by email) and forgot-password (without type, with type text and with type link) with an address whose local part carries a + tag (name+tag@example.com, a valid address; added later, state user with emailTag); a target may refuse a second forgot-password to one address within a minute (an allowed reading), so one account serves them a minute apart (helpers/arrange/password.ts sendForgot), three at once' },
  { kind: `user with an e-mail of ${LONG_EMAIL} characters`, state: 'user', role: 'plain', emailLength: LONG_EMAIL, minimum: 1, fullSpeed: 1, why: 'forgot-password for an address longer than 191 characters' },
  { kind: `user with an e-mail of ${LONGEST_EMAIL} characters`, state: 'user', role: 'plain', emailLength: LONGEST_EMAIL, minimum: 1, fullSpeed: 3, why: 'forgot-password for an address of 255 characters, the limit, without type, with type text and with type link; a target may refuse a second forgot-password to one address within a minute (an allowed reading), so one account serves them a minute apart (helpers/arrange/password.ts sendForgot), three at once' },
  { kind: 'user with records on two platforms', state: 'user', role: 'two-platforms', minimum: 1, fullSpeed: 3, why: 'the company and platform filters of banks, cards and bonuses (version 2)' },
  { kind: 'user.forbidden', state: 'user.forbidden', minimum: 1, fullSpeed: 1, why: 'a bank create the platform forbids the account (version 2)' },
  { kind: 'user.short-session', state: 'user.short-session', minimum: 1, fullSpeed: 2, why: 'tokens watched until they expire, of a password login and of a JWT login side by side (version 2)' },
  { kind: 'user.short-session with 2FA', state: 'user.short-session', twoFactor: true, minimum: 1, fullSpeed: 1, why: 'the token of a login with a 2FA code watched until it expires (added later, round wb22; an account serves one test a TOTP step)' },
  { kind: 'disposable user with a reset token', state: 'user', role: 'password-reset.token', disposable: true, minimum: 17, fullSpeed: 17, perRun: true, why: 'reset-password tests that succeed (the retry after a reset refused for its password, the reset sent with another account\u2019s bearer, the reset carrying another account\u2019s ids (round wb25), the reset of the account a forgot-password for another address named by body ids (round wb27), the new password with markup and quoting characters and the new passwords with outer spaces (of two lengths) and with an accent (decomposed, precomposed) among them, and the 72-byte password prefix note, which sets an 80-character password through a reset); each spends its account, which serves once' },
  { kind: 'disposable user with 2FA and a reset token', state: 'user', role: 'password-reset.token', twoFactor: true, disposable: true, minimum: 1, fullSpeed: 1, perRun: true, why: 'the reset of a 2FA account (added later): the new password logs in with a TOTP code and the old one is refused; its logins fall in two TOTP steps; serves once' },
  { kind: `disposable user with a reset token and an e-mail of ${LONG_EMAIL} characters`, state: 'user', role: 'password-reset.token', disposable: true, emailLength: LONG_EMAIL, minimum: 1, fullSpeed: 1, perRun: true, why: 'reset-password for an address longer than 191 characters; serves once' },
  { kind: `disposable user with a reset token and an e-mail of ${LONGEST_EMAIL} characters`, state: 'user', role: 'password-reset.token', disposable: true, emailLength: LONGEST_EMAIL, minimum: 1, fullSpeed: 1, perRun: true, why: 'reset-password for an address of 255 characters, the limit; serves once' },
  { kind: 'disposable user with a reset token and an e-mail with a + tag', state: 'user', role: 'password-reset.token', disposable: true, emailTag: true, minimum: 1, fullSpeed: 1, perRun: true, why: 'reset-password for an address whose local part carries a + tag (name+tag@example.com; added later, round wb15), after which the new password logs in; serves once' },
  { kind: 'disposable user with a reset token of type text', state: 'user', role: 'password-reset.token', disposable: true, resetType: 'text', minimum: 1, fullSpeed: 1, perRun: true, why: 'the reset with the token of a forgot-password of type text (section 4.3), as its e-mail shows it; serves once' },
  { kind: 'disposable user with a reset token of type link', state: 'user', role: 'password-reset.token', disposable: true, resetType: 'link', minimum: 1, fullSpeed: 1, perRun: true, why: 'the reset with the token of a forgot-password of type link (section 4.3), as its e-mail shows it; serves once' },
  { kind: 'disposable user with a reset token after a first reset', state: 'user', role: 'password-reset.token', disposable: true, resetBefore: true, minimum: 1, fullSpeed: 1, perRun: true, why: 'the second reset of one address (added later, round wb14): its address was reset once before the forgot-password whose e-mail carried its resetToken, and that reset must succeed too; serves once' },
  { kind: 'disposable user', state: 'user', role: 'plain', disposable: true, minimum: 1, fullSpeed: 1, perRun: true, why: 'the empty card list: a user no test gave a card (cards cannot be deleted); serves once (version 2)' },
  { kind: 'disposable user with records on two platforms', state: 'user', role: 'two-platforms', disposable: true, minimum: 1, fullSpeed: 1, perRun: true, why: 'the bank delete on either of two platforms: deletes a bank of it on each platform; serves once (version 2)' },
  { kind: 'user.brute-force', state: 'user.brute-force', minimum: 1, fullSpeed: 1, perRun: true, why: 'failed logins up to the threshold: the account stays restricted, so it serves once (version 2)' },
  { kind: 'user.brute-force with 2FA', state: 'user.brute-force', twoFactor: true, minimum: 1, fullSpeed: 1, perRun: true, why: 'failed logins up to the threshold of an account whose login needs a 2FA code (added later): the account stays restricted, so it serves once' },
];

/** How many accounts of a kind a file for `runs` runs holds. */
export function countOf(kind: (typeof ACCOUNT_KINDS)[number], minimum: boolean, runs = 1): number {
  return (minimum ? kind.minimum : kind.fullSpeed) * (kind.perRun ? runs : 1);
}

/**
 * Where each provider state of the contract (docs/provider-states.md, "The states") has its place in a
 * states file of version 2: an account's `state`, a field of an account, or an entry of the file. A
 * Record over every StateName, so a state added to the catalogue without its place does not compile,
 * and test/states-file.test.ts holds the documented states and the schema to these places.
 */
export const FILE_PLACES: Record<StateName, string> = {
  user: 'accounts[].state=user',
  'user.inactive': 'accounts[].state=user.inactive',
  'user.expired-token': 'accounts[].state=user.expired-token',
  'user.short-session': 'accounts[].state=user.short-session',
  'user.brute-force': 'accounts[].state=user.brute-force',
  'user.locked': 'accounts[].state=user.locked',
  'user.throttled': 'accounts[].state=user.throttled',
  'user.forbidden': 'accounts[].state=user.forbidden',
  platform: 'secondPlatform',
  balances: 'accounts[].balances',
  bonuses: 'accounts[].bonuses',
  'bank.used': 'accounts[].bankUsed',
  bank: 'accounts[].bank',
  card: 'accounts[].card',
  'password-reset.token': 'accounts[].resetToken',
  'bank.two-platforms': 'accounts[].twoPlatforms.bank',
  'card.two-platforms': 'accounts[].twoPlatforms.card',
  'bonuses.two-platforms': 'accounts[].twoPlatforms.bonuses',
};

/** How the template and every skip name what an account of state `user` carries besides its credentials. */
const ROLE_WORDS: Record<UserRole, string> = {
  plain: '',
  balances: 'balances',
  bonuses: 'bonuses',
  'bank.used': 'a used bank',
  'password-reset.token': 'a reset token',
  '2fa': '2FA',
  '2fa-records': '2FA, bonuses and balances',
  'two-platforms': 'records on two platforms',
};

/**
 * The kind of account a test asked for, in the words of `conformance states template` ("user with
 * 2FA", "disposable user with a reset token", "user.locked"): what a skip says is missing and what
 * a test waits for, so that the fix is to add an account of exactly that kind.
 */
export function kindName(state: AccountState, role: UserRole | AccountState, options: { disposable?: boolean; emailLength?: number; emailTag?: boolean; twoFactor?: boolean; resetType?: ResetType; resetBefore?: boolean } = {}): string {
  const email = options.emailLength !== undefined ? `an e-mail of ${options.emailLength} characters` : options.emailTag ? 'an e-mail with a + tag' : '';
  if (state !== 'user') return [state, options.twoFactor ? '2FA' : '', email].filter(Boolean).join(' with ');
  // A 2FA account with a reset token (added later): "user with 2FA and a reset token".
  const twoFactor = options.twoFactor && role === 'password-reset.token' ? '2FA and ' : '';
  const carries = `${twoFactor}${ROLE_WORDS[role as UserRole] ?? ''}${role === 'password-reset.token' && options.resetType ? ` of type ${options.resetType}` : ''}${role === 'password-reset.token' && options.resetBefore ? ' after a first reset' : ''}`;
  const extras = [carries, email].filter(Boolean);
  return `${options.disposable ? 'disposable ' : ''}user${extras.length > 0 ? ` with ${extras.join(' and ')}` : ''}`;
}

/** Does an account of the file count as one of that kind? */
export function isOfKind(account: FileAccount, kind: (typeof ACCOUNT_KINDS)[number]): boolean {
  return account.state === kind.state && (kind.role === undefined || roleOf(account) === kind.role) && ((kind.state === 'user' && kind.role !== 'password-reset.token') || (account.totpSecret !== undefined) === (kind.twoFactor === true)) && (kind.emailTag === undefined || hasEmailTag(account.email)) && (account.disposable === true) === (kind.disposable === true) && account.resetTokenType === kind.resetType && (account.resetBefore === true) === (kind.resetBefore === true) && (kind.emailLength === undefined ? account.email.length <= 191 : account.email.length === kind.emailLength);
}

/**
 * Why a file's account cannot log in, by the status of its refused login (section 4.2, 5.5, 8): the file
 * was made for the target as it was, and a target that was reset or an account that changed makes it stale.
 */
export function refusedLoginCause(status: number): string {
  switch (status) {
    case 403:
      return 'the password is not the account\u2019s (or no such account): the file is stale, for example the target was reset since it was written; export it again (`conformance states export`) or correct the entry';
    case 401:
      return 'the account is inactive; give the file an active account for state user';
    case 423:
      return 'the account is locked; unlock it, or give the file another account';
    case 425:
      return 'login is restricted after failed logins of the account (brute-force protection); wait until the restriction lifts, or export the file again';
    case 429:
      return 'a rate limiter in front of the interface refused the login, which says nothing of the account or the target; wait, lower --rate, or allow the suite\u2019s address';
    default:
      return 'the interface answers a working login 200; check the entry\u2019s e-mail and password';
  }
}

/** The end of every skip reason for what only a hook can give (hookWouldAdd names the state): the report counts these. */
export const HOOK_WOULD_ADD = 'would add this test';

/** "a provider-state hook giving state user (twoFactor: true) would add this test": the state the file could not give, with what the test asked of it. */
export function hookWouldAdd(state: string, params: Record<string, unknown> = {}): string {
  // A long value (state platform's publicKey, a PEM of hundreds of characters) is named, not quoted, in a one-line reason.
  const shown = (value: unknown) => {
    const text = JSON.stringify(value);
    return text.length <= 40 ? text : `(${typeof value === 'string' ? value.length : text.length} characters)`;
  };
  const asked = Object.entries(params).filter(([key, value]) => key !== 'userId' && key !== 'email' && value !== undefined).map(([key, value]) => `${key}: ${shown(value)}`);
  return `a provider-state hook giving state ${state}${asked.length > 0 ? ` (${asked.join(', ')})` : ''} ${HOOK_WOULD_ADD}`;
}

const ROLE_FIELDS: [keyof FileAccount, UserRole][] = [
  ['twoPlatforms', 'two-platforms'],
  ['resetToken', 'password-reset.token'],
  ['totpSecret', '2fa'],
  ['bankUsed', 'bank.used'],
  ['bonuses', 'bonuses'],
  ['balances', 'balances'],
];

export function roleOf(account: FileAccount): UserRole | AccountState {
  if (account.state !== 'user') return account.state;
  // A 2FA account with bonuses and balances (the valid-token rows of a 2FA login on the routes of those records).
  if (account.totpSecret !== undefined && account.bonuses !== undefined && account.balances !== undefined && account.resetToken === undefined && account.twoPlatforms === undefined) return '2fa-records';
  return ROLE_FIELDS.find(([field]) => account[field] !== undefined)?.[1] ?? 'plain';
}

/** The fields an account of each state may carry besides its credentials. */
const ALLOWED: Record<AccountState, (keyof FileAccount)[]> = {
  user: ['totpSecret', 'disposable', 'balances', 'bonuses', 'bankUsed', 'resetToken', 'resetTokenType', 'resetBefore', 'twoPlatforms'],
  'user.inactive': ['token', 'totpSecret', 'bonuses', 'bankUsed', 'bank', 'card'],
  'user.locked': ['totpSecret'],
  'user.throttled': [],
  'user.expired-token': ['token'],
  'user.forbidden': [],
  'user.short-session': ['totpSecret'],
  'user.brute-force': ['attempts', 'totpSecret'],
};
const CREDENTIALS: (keyof FileAccount)[] = ['state', 'id', 'email', 'password'];

function fail(path: string, message: string): never {
  throw new StateError(`configuration error: STATES_FILE ${path}: ${message}`);
}

/** How the entries of a file of the first format are named in error lines (they have no accounts[i]). */
const legacyNames = new WeakMap<object, string[]>();

/** A file of the first, unversioned format (an object keyed by state name): read as version 1. */
function fromLegacy(path: string, legacy: Record<string, unknown>): StatesFileV1 {
  const known = new Set<string>([...ACCOUNT_STATES, 'platform', 'balances', 'bonuses', 'bank.used', 'password-reset.token']);
  for (const name of Object.keys(legacy)) if (!known.has(name)) fail(path, `unknown state name "${name}"; use one of ${[...known].join(', ')} (or the version 1 format of \`conformance states template\`)`);
  const accounts: FileAccount[] = [];
  const names: string[] = [];
  for (const state of ACCOUNT_STATES) {
    const value = legacy[state];
    if (value === undefined) continue;
    const entries = Array.isArray(value) ? value : [value];
    entries.forEach((entry, n) => {
      if (!entry || typeof entry !== 'object') fail(path, `the "${state}" entry must be an object (or a list of them)`);
      // The first format accepted fields of its own; only those of version 1 are read.
      const fields = Object.fromEntries(Object.entries(entry as object).filter(([field]) => [...CREDENTIALS, ...ALLOWED[state]].includes(field as keyof FileAccount)));
      accounts.push({ ...fields, state } as FileAccount);
      names.push(`the "${state}" entry${Array.isArray(value) ? ` ${n + 1}` : ''}`);
    });
  }
  // The old format gave balances, bonuses and bank.used once, for no account in particular: balances and
  // bonuses belong to the first user; bank.used to the user.inactive entry the old README paired it with.
  const first = accounts.find((a) => a.state === 'user');
  const inactive = accounts.find((a) => a.state === 'user.inactive');
  if (legacy.balances && first) first.balances = legacy.balances as FileAccount['balances'];
  if (legacy.bonuses && first) first.bonuses = legacy.bonuses as FileAccount['bonuses'];
  const bankOwner = inactive ?? first;
  if (legacy['bank.used'] && bankOwner) bankOwner.bankUsed = legacy['bank.used'] as FileAccount['bankUsed'];
  const reset = legacy['password-reset.token'] as { email?: unknown; token?: unknown } | undefined;
  if (reset !== undefined) {
    const owner = accounts.find((a) => a.state === 'user' && typeof reset?.email === 'string' && a.email.toLowerCase() === reset.email.toLowerCase());
    if (!owner || typeof reset.token !== 'string') {
      fail(path, `the "password-reset.token" entry must name the "user" entry its e-mail went to by "email", with its "token"; or write the token as that account's "resetToken" (version 1 format, see \`conformance states template\`)`);
    }
    owner.resetToken = reset.token;
  }
  // The old format's platform entry named only the id; its key came from JWT_PLATFORM_ID / JWT_PRIVATE_KEY_FILE, which still serve.
  const platform = legacy.platform as { privateKeyFile?: unknown } | undefined;
  const file = { version: 1, accounts, ...(platform && platform.privateKeyFile !== undefined ? { platform: platform as StatesFileV1['platform'] } : {}) } as StatesFileV1;
  legacyNames.set(file, names);
  return file;
}

function describeAccount(file: { accounts?: unknown }, index: number): string {
  const account = (Array.isArray(file.accounts) ? file.accounts[index] : undefined) as Partial<FileAccount> | undefined;
  const label = [account?.state, account?.email ?? account?.id].filter((part) => typeof part === 'string').join(' ');
  const legacy = legacyNames.get(file)?.[index];
  if (legacy) return `${legacy}${account?.email ? ` (${account.email})` : ''}`;
  return `accounts[${index}]${label ? ` (${label})` : ''}`;
}

/** The first schema problem as one line naming the entry and the fix. */
function schemaLine(file: Record<string, unknown>): string | undefined {
  const problems = schemaProblems('states-file', file).filter((p) => p.rule !== 'if');
  const problem = problems.find((p) => p.rule === 'enum' || p.rule === 'required' || p.rule === 'additionalProperties') ?? problems[0];
  if (!problem) return undefined;
  const parts = problem.pointer.split('/').slice(1);
  const field = parts.at(-1);
  const where = parts[0] === 'accounts' && parts[1] !== undefined && /^\d+$/.test(parts[1]) ? describeAccount(file, Number(parts[1])) : parts[0] === 'platform' ? 'the platform entry' : 'the file';
  const inner = parts[0] === 'accounts' ? parts.slice(2).join('.') : parts.slice(1).join('.');
  if (problem.rule === 'required' && parts[0] === 'platform' && field === 'privateKeyFile') {
    return `the platform entry names no private key: add "privateKeyFile" (a PKCS#8 PEM file of the RSA key the target verifies this platform's JWTs with), or remove the entry and set JWT_PLATFORM_ID and JWT_PRIVATE_KEY_FILE`;
  }
  if (problem.rule === 'required') return `${where}: missing field "${inner || field}"; add it (see \`conformance states template\`)`;
  if (problem.rule === 'enum' && field === 'state') return `${where}: unknown state name ${JSON.stringify(problem.value)}; use one of ${ACCOUNT_STATES.join(', ')}`;
  if (problem.rule === 'additionalProperties') return `${where}: unknown field "${inner || field}"; remove it or correct its name (see \`conformance states template\`)`;
  if (parts[0] === 'version') return `version must be 1 or 2 (got ${JSON.stringify(problem.value)}); write "version": 2`;
  return `${where}${inner ? ` field ${inner}` : ''}: ${problem.message}; correct it (see \`conformance states template\`)`;
}

/** The path of the first string of `value` written as a template placeholder (`<...>`, nothing else), but under `skip`. */
function placeholderIn(value: unknown, skip: string, at = ''): string | undefined {
  if (typeof value === 'string') return /^<[^<>]+>$/.test(value) ? at : undefined;
  if (!value || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (at === '' && key === skip) continue;
    const found = placeholderIn(inner, skip, Array.isArray(value) ? `${at}[${key}]` : at ? `${at}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Reads and checks a states file. Every problem is a StateError of one line naming the entry and the fix. */
export function loadStatesFile(path: string): StatesFileV1 {
  let raw: unknown;
  try {
    raw = parseBoundedJson(readBounded(path, MAX_CONFIG_FILE_BYTES, 'states file').toString('utf8'), 'the states file');
  } catch (error) {
    if (error instanceof TooLargeError) fail(path, error.message);
    fail(path, `not a JSON file (${(error as Error).message}); see \`conformance states template\``);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(path, 'must hold a JSON object (see `conformance states template`)');
  const file = ('version' in raw || 'accounts' in raw ? raw : fromLegacy(path, raw as Record<string, unknown>)) as Record<string, unknown>;
  const line = schemaLine(file);
  if (line) fail(path, line);
  const checked = file as unknown as StatesFileV1;

  const seen = new Map<string, number>();
  checked.accounts.forEach((account, index) => {
    const where = describeAccount(checked, index);
    // A value the template wrote and nobody filled in (`<optional: ...>`, `<its base32 TOTP secret>`) would be sent as an
    // id or a secret (review-p). A password is the user's own text, whatever its form, so it is not judged.
    const placeholder = placeholderIn(account, 'password');
    if (placeholder) fail(path, `${where}: field ${placeholder} still holds a placeholder of \`conformance states template\` (<...>); fill it in, or remove it if it is optional`);
    for (const field of Object.keys(account) as (keyof FileAccount)[]) {
      if (!CREDENTIALS.includes(field) && !ALLOWED[account.state].includes(field)) {
        const owners = ACCOUNT_STATES.filter((state) => ALLOWED[state].includes(field));
        fail(path, `${where}: field "${field}" does not belong to a ${account.state} account (only to ${owners.join(', ') || 'no'} accounts); move it to an account of that state`);
      }
    }
    // The S36 test reads balances.amount as "exactly precision fractional digits" of a held coin (docs/provider-states.md).
    const amount = account.balances?.amount;
    if (amount && !account.balances!.coins.includes(amount.symbol)) fail(path, `${where}: balances.amount names ${amount.symbol}, which its balances.coins do not hold; name a coin it holds`);
    if (amount && (/\.(\d+)$/.exec(amount.available)?.[1]?.length ?? 0) !== amount.precision) {
      fail(path, `${where}: balances.amount.available ${amount.available} must be written with exactly precision (${amount.precision}) fractional digits; write the coin's crypto available amount so`);
    }
    // The amounts tests read each entry of balances.amounts as a held coin's crypto available amount of at most precision places (round wb14).
    const seenAmounts = new Set<string>();
    for (const entry of account.balances?.amounts ?? []) {
      if (!account.balances!.coins.includes(entry.symbol)) fail(path, `${where}: balances.amounts names ${entry.symbol}, which its balances.coins do not hold; name coins it holds`);
      if (seenAmounts.has(entry.symbol)) fail(path, `${where}: balances.amounts names ${entry.symbol} twice; give each held coin one entry`);
      seenAmounts.add(entry.symbol);
      if ((/\.(\d+)$/.exec(entry.available)?.[1]?.length ?? 0) > entry.precision) {
        fail(path, `${where}: balances.amounts gives ${entry.symbol} the amount ${entry.available}, with more fractional digits than its precision (${entry.precision}); write the coin's crypto available amount as its records hold it`);
      }
    }
    // The genesis-date test reads each entry of balances.genesisDates as a held coin's genesis date, a calendar day (round wb22).
    const seenDates = new Set<string>();
    for (const entry of account.balances?.genesisDates ?? []) {
      if (!account.balances!.coins.includes(entry.symbol)) fail(path, `${where}: balances.genesisDates names ${entry.symbol}, which its balances.coins do not hold; name coins it holds`);
      if (seenDates.has(entry.symbol)) fail(path, `${where}: balances.genesisDates names ${entry.symbol} twice; give each held coin one date`);
      seenDates.add(entry.symbol);
      const [year, month, day] = entry.date.split('-').map(Number) as [number, number, number];
      const date = new Date(Date.UTC(2000, month - 1, day));
      if (month < 1 || month > 12 || date.getUTCMonth() !== month - 1 || year < 1) fail(path, `${where}: balances.genesisDates gives ${entry.symbol} the date ${entry.date}, which is no calendar day; write the coin's genesis date as YYYY-MM-DD`);
    }
    // The assets test reads each entry of balances.assets as what the records of a held coin or NFT hold (round wb23).
    const seenAssets = new Set<string>();
    for (const entry of account.balances?.assets ?? []) {
      if (!account.balances!.coins.includes(entry.symbol) && !account.balances!.nfts.includes(entry.symbol)) fail(path, `${where}: balances.assets names ${entry.symbol}, which neither its balances.coins nor its balances.nfts hold; name coins and NFTs it holds`);
      if (seenAssets.has(entry.symbol)) fail(path, `${where}: balances.assets names ${entry.symbol} twice; give each held asset one entry`);
      seenAssets.add(entry.symbol);
    }
    // The company check reads twoPlatforms.company.<bank|card>.none as a value that selects none of the account's records (round wb23).
    for (const kind of ['bank', 'card'] as const) {
      const company = account.twoPlatforms?.company?.[kind];
      if (company?.none !== undefined && company.none.trim().toLowerCase() === company.value.trim().toLowerCase()) fail(path, `${where}: twoPlatforms.company.${kind}.none is its value ${JSON.stringify(company.value)}, which selects some of its ${kind}s; give as none a value of the company filter that selects none of them, or leave out the optional none`);
    }
    // The list test of an order's two bonuses reads bonuses.sharedOrder as two of the account's bonuses (docs/provider-states.md).
    const shared = account.bonuses?.sharedOrder;
    if (shared && (shared[0] === shared[1] || shared.some((id) => !account.bonuses!.ids.includes(id)))) fail(path, `${where}: bonuses.sharedOrder must name two different bonuses of its bonuses.ids (two that one order earned, in one status); name them so, or leave out the optional sharedOrder`);
    for (const key of [`id ${account.id}`, `email ${account.email.toLowerCase()}`]) {
      const other = seen.get(key);
      if (other === undefined) {
        seen.set(key, index);
        continue;
      }
      const first = checked.accounts[other]!;
      const roles = `${roleOf(first)} and ${roleOf(account)}`;
      if (first.state !== account.state || roleOf(first) !== roleOf(account)) {
        fail(path, `${describeAccount(checked, other)} and ${where} are one account (same ${key.split(' ')[0]}) in conflicting roles ${roles}; an account has one state and one role: give each role an account of its own`);
      }
      fail(path, `${describeAccount(checked, other)} and ${where} are one account (same ${key.split(' ')[0]}) listed twice; remove one (a test leases an account alone)`);
    }
  });

  for (const [entry, platform] of [['platform', checked.platform], ['secondPlatform', checked.secondPlatform]] as const) {
    const placeholder = placeholderIn(platform, '');
    if (placeholder) fail(path, `the ${entry} entry: field ${placeholder} still holds a placeholder of \`conformance states template\` (<...>); fill it in, or remove the entry`);
  }
  if (checked.platform && checked.secondPlatform && sameId(checked.platform.id, checked.secondPlatform.id)) {
    fail(path, `the secondPlatform entry names the platform ${checked.platform.id} of the platform entry; give a second platform the target trusts, with a key of its own, or remove the entry`);
  }
  for (const [entry, platform] of [['platform', checked.platform], ['secondPlatform', checked.secondPlatform]] as const) {
    if (!platform) continue;
    const keyFile = resolve(dirname(path), platform.privateKeyFile);
    if (!existsSync(keyFile)) fail(path, `the ${entry} entry's privateKeyFile ${keyFile} does not exist; write the platform's RSA private key (PKCS#8 PEM) there`);
    let usable = false;
    let bits: number | undefined;
    try {
      const key = createPrivateKey(readBounded(keyFile, MAX_CONFIG_FILE_BYTES, 'platform key file').toString('utf8'));
      usable = key.asymmetricKeyType === 'rsa';
      bits = key.asymmetricKeyDetails?.modulusLength;
    } catch {
      usable = false;
    }
    if (usable && bits !== undefined && bits < 2048) fail(path, `the ${entry} entry's privateKeyFile ${keyFile} is an RSA key of ${bits} bits; RS512 needs at least 2048: make a new key pair (\`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048\`) and register its public key with the target`);
    if (!usable) fail(path, `the ${entry} entry's privateKeyFile ${keyFile} is not an RSA private key; export it as PKCS#8 PEM with \`openssl pkcs8 -topk8 -nocrypt\``);
  }
  for (const account of checked.accounts) {
    learnAccountPassword(account);
    learnSecret(account.token, 'token', { owner: account.id });
    learnSecret(account.totpSecret, 'never-travels');
    learnSecret(account.resetToken, 'reset-token');
    learnSecret(account.bonuses?.antiPhishing, 'own-code', { owner: account.id });
  }
  return checked;
}

/** The platform entry of a file with its key file resolved, when it has one. */
export function filePlatform(path: string, file: StatesFileV1): { id: string; privateKeyFile: string } | undefined {
  return file.platform ? { id: file.platform.id, privateKeyFile: resolve(dirname(path), file.platform.privateKeyFile) } : undefined;
}

/**
 * Where a run records the disposable accounts it spent, next to the file (`states.json` ->
 * `states.spent`): one id a line. A later run with the same file skips them instead of failing on
 * their spent token and changed password; `states export` to that path starts a new list.
 */
export function spentListPath(path: string): string {
  return `${path.replace(/\.json$/i, '')}.spent`;
}

function readSpent(path: string): Set<string> {
  try {
    return new Set(readFileSync(spentListPath(path), 'utf8').split('\n').map((line) => line.trim()).filter(Boolean));
  } catch {
    return new Set();
  }
}

/** The test a lease belongs to (one per test, made by the check context). */
export interface LeaseHolder {
  id: string;
}

type Leases = { acquire(ask: AcquireRequest): Promise<AcquireAnswer>; release(holder: string, retire?: number[]): Promise<void> };

/** The states asked after a `user` that an account's role carries, and that role. */
const NEED_ROLES = new Map<string, UserRole>([
  ['balances', 'balances'],
  ['bonuses', 'bonuses'],
  ['bank.used', 'bank.used'],
  ['password-reset.token', 'password-reset.token'],
  ['bank.two-platforms', 'two-platforms'],
  ['card.two-platforms', 'two-platforms'],
  ['bonuses.two-platforms', 'two-platforms'],
]);

/**
 * The accounts a file gave out in this worker, by e-mail: a test that cannot log in with one of them
 * with its own credentials reports the test not verified (the file is stale for that account), not failed.
 */
const givenOut = new Map<string, { kind: string; password: string }>();

/** The kind of the file's account this e-mail and password are, when a STATES_FILE gave it out in this worker. */
export function fileAccountGiven(email: string, password: string): string | undefined {
  const given = givenOut.get(email.toLowerCase());
  return given && given.password === password ? given.kind : undefined;
}

export class FileStates implements StatesTransport {
  readonly file: StatesFileV1;
  private readonly leases: Leases;
  /** Disposable accounts spent by earlier runs with this file. */
  private readonly spentBefore: Set<string>;
  /** Per test: its leased account indices, and the chain that keeps its acquisitions in order. */
  private readonly held = new Map<string, { indices: number[]; chain: Promise<unknown> }>();

  constructor(
    private readonly path: string,
    leaseUrl?: string,
  ) {
    this.file = loadStatesFile(path);
    this.spentBefore = readSpent(path);
    this.leases = leaseUrl ? new LeaseClient(leaseUrl) : new LocalLeases();
  }

  describe(): string {
    return `file ${this.path}`;
  }

  /** The accounts a test holds, for its clean-up (restoring a login counter). */
  accountsOf(holder: LeaseHolder): FileAccount[] {
    return (this.held.get(holder.id)?.indices ?? []).map((index) => this.file.accounts[index]!);
  }

  /** Gives back a test's accounts; those in `retire` (found unusable) are never leased again in this run. */
  async release(holder: LeaseHolder, retire: FileAccount[] = []): Promise<void> {
    const entry = this.held.get(holder.id);
    if (!entry) return;
    this.held.delete(holder.id);
    await this.leases.release(holder.id, entry.indices.filter((index) => retire.includes(this.file.accounts[index]!)));
  }

  async get<N extends StateName>(name: N, params: Record<string, unknown>, options: StateRequestOptions = {}): Promise<StateOutcome<N>> {
    if ((ACCOUNT_STATES as readonly string[]).includes(name)) return this.lease(name as AccountState, params, options) as Promise<StateOutcome<N>>;
    return this.lookUp(name, params) as StateOutcome<N>;
  }

  private skip(reason: string, state: string, params: Record<string, unknown> = {}): { provided: false; reason: string } {
    return { provided: false, reason: `${reason} (${hookWouldAdd(state, params)})` };
  }

  private async lease(state: AccountState, params: Record<string, unknown>, options: StateRequestOptions): Promise<StateOutcome<StateName>> {
    // `platformId` (added later): a file's accounts are users of the platform the suite signs its JWTs with (its platform
    // entry, or JWT_PLATFORM_ID); none is of its secondPlatform.
    if (params.platformId !== undefined && sameId(params.platformId, this.file.secondPlatform?.id)) {
      return this.skip(`STATES_FILE's accounts are users of its platform entry (or of JWT_PLATFORM_ID), not of its secondPlatform ${this.file.secondPlatform?.id}`, state, params);
    }
    let role: UserRole | AccountState = state;
    if (state === 'user') {
      const needs = (options.needs ?? []).map((need) => NEED_ROLES.get(need)).filter((role): role is UserRole => role !== undefined);
      // A 2FA account whose password a reset changes (added later): an account with a resetToken and a totpSecret.
      // A 2FA account with a used bank (round wb12, added later): a 2FA account with records that `states export` gives a bankUsed.
      role = params.twoFactor === true ? (needs.includes('password-reset.token') ? 'password-reset.token' : needs.some((need) => need === 'bonuses' || need === 'balances' || need === 'bank.used') ? '2fa-records' : '2fa') : (needs[0] ?? 'plain');
    }
    const usedBankTwoFactor = state === 'user' && params.twoFactor === true && (options.needs ?? []).includes('bank.used');
    const resetTwoFactor = state === 'user' && role === 'password-reset.token' && params.twoFactor === true;
    let candidates = this.file.accounts.map((account, index) => ({ account, index })).filter(({ account }) => account.state === state && roleOf(account) === role);
    if (usedBankTwoFactor) candidates = candidates.filter(({ account }) => account.bankUsed !== undefined);
    // States user.inactive, user.locked, user.brute-force and user.short-session with twoFactor (added later): an account of that state with a totpSecret serves those asks only.
    const stateTwoFactor = state !== 'user' && params.twoFactor === true;
    if (state !== 'user') candidates = candidates.filter(({ account }) => (account.totpSecret !== undefined) === stateTwoFactor);
    // A 2FA login with no records asked takes a 2FA account with records when the file has no other (a file without them keeps its 2FA accounts for the login tests).
    if (candidates.length === 0 && role === '2fa') candidates = this.file.accounts.map((account, index) => ({ account, index })).filter(({ account }) => account.state === 'user' && roleOf(account) === '2fa-records');
    // An account that carries the needed extra as a second one serves when no account has it as its role.
    if (candidates.length === 0 && state === 'user' && role !== 'plain' && role !== '2fa' && role !== '2fa-records' && role !== 'password-reset.token' && role !== 'two-platforms') {
      candidates = this.file.accounts.map((account, index) => ({ account, index })).filter(({ account }) => account.state === 'user' && needsMet(account, role as UserRole));
    }
    // The token of a typed forgot-password (state password-reset.token with `type`) only an account of that resetTokenType
    // carries; the others are kept for the tests that ask for one while other accounts fit.
    // A reset token of a 2FA account only an account with a totpSecret carries, and it serves no other reset: those log in
    // after the reset without a code (a 2FA account refuses that, a false failure) and are not leased one test a TOTP step.
    candidates = candidates.filter(({ account }) => role !== 'password-reset.token' || (account.totpSecret !== undefined) === resetTwoFactor);
    const resetType = role === 'password-reset.token' ? options.resetType : undefined;
    if (resetType !== undefined) candidates = candidates.filter(({ account }) => account.resetTokenType === resetType);
    else if (role === 'password-reset.token') {
      const untyped = candidates.filter(({ account }) => account.resetTokenType === undefined);
      if (untyped.length > 0) candidates = untyped;
    }
    // The token of a forgot-password sent after a first reset of the address (round wb14, `resetBefore`) only an account so
    // prepared carries; it is kept for the second-reset test while other accounts fit the others.
    const resetBefore = role === 'password-reset.token' && options.resetBefore === true;
    if (resetBefore) candidates = candidates.filter(({ account }) => account.resetBefore === true);
    else if (role === 'password-reset.token') {
      const first = candidates.filter(({ account }) => account.resetBefore !== true);
      if (first.length > 0) candidates = first;
    }
    const emailLength = typeof params.emailLength === 'number' ? params.emailLength : undefined;
    if (emailLength !== undefined) candidates = candidates.filter(({ account }) => account.email.length === emailLength);
    else {
      // An account with a long address is kept for the tests that ask for one while others fit.
      const kept = candidates.filter(({ account }) => account.email.length <= 191);
      if (kept.length > 0) candidates = kept;
    }
    // `emailTag` (added later): an address with a + tag (name+tag@domain); such an account is kept for the tests that ask for one while others fit.
    const emailTag = params.emailTag === true && state === 'user';
    if (emailTag) candidates = candidates.filter(({ account }) => hasEmailTag(account.email));
    else {
      const untagged = candidates.filter(({ account }) => !hasEmailTag(account.email));
      if (untagged.length > 0) candidates = untagged;
    }
    // An account of user.brute-force serves once whatever the file says: the test leaves it restricted.
    const spends = options.mutates === true || state === 'user.brute-force';
    if (spends) {
      if (options.mutates) candidates = candidates.filter(({ account }) => account.disposable === true);
      const fresh = candidates.filter(({ account }) => !this.spentBefore.has(account.id));
      if (candidates.length > 0 && fresh.length === 0) {
        if (!options.mutates) return this.skip(`every ${state} account of STATES_FILE was spent by an earlier run (listed in ${spentListPath(this.path)}); each serves once: add fresh ones or export again (\`conformance states export --runs N\`)`, state, params);
        return this.skip(`every disposable account of STATES_FILE this test could use was spent by an earlier run (listed in ${spentListPath(this.path)}); a disposable account serves once: add fresh ones or export again`, state, params);
      }
      candidates = fresh;
    }
    else {
      // A disposable account may have been changed by an earlier test: others get it only when nothing else fits.
      const kept = candidates.filter(({ account }) => account.disposable !== true);
      if (kept.length > 0) candidates = kept;
    }
    const kind = kindName(state, role, { ...(options.mutates ? { disposable: true } : {}), ...(emailLength !== undefined ? { emailLength } : {}), ...(emailTag ? { emailTag: true } : {}), ...(stateTwoFactor || resetTwoFactor ? { twoFactor: true } : {}), ...(resetType !== undefined ? { resetType } : {}), ...(resetBefore ? { resetBefore: true } : {}) });
    if (candidates.length === 0) {
      if (emailLength !== undefined && !options.mutates) return this.skip(`STATES_FILE has no account of kind "${kind}"; add one whose e-mail address has exactly ${emailLength} characters (see \`conformance states template\`)`, state, params);
      if (emailTag && !options.mutates) return this.skip(`STATES_FILE has no account of kind "${kind}"; add one whose e-mail address carries a + tag in its local part, as name+tag@example.com (see \`conformance states template\`)`, state, params);
      if (options.mutates && role === 'password-reset.token' && resetType !== undefined) {
        return this.skip(`STATES_FILE has no account of kind "${kind}": a reset with the token of a forgot-password of type ${resetType} needs an account whose resetToken that e-mail carried, as it shows it ("resetTokenType": "${resetType}", marked "disposable": true; \`conformance states export\` writes them)`, 'password-reset.token', { type: resetType });
      }
      if (options.mutates && role === 'password-reset.token' && resetBefore) {
        return this.skip(`STATES_FILE has no account of kind "${kind}": the second reset of one address needs an account whose address was reset once (forgot-password, reset-password) before the forgot-password whose e-mail carried its resetToken ("resetBefore": true, marked "disposable": true; \`conformance states export\` writes them)`, 'password-reset.token', {});
      }
      if (options.mutates && role === 'password-reset.token') {
        return this.skip(`STATES_FILE has no account of kind "${kind}": a reset that succeeds spends the account\u2019s reset token, which only a new e-mail can renew, so it needs an account with a resetToken marked "disposable": true`, state, params);
      }
      if (options.mutates) return this.skip(`STATES_FILE has no account of kind "${kind}": this test changes its account, so it needs one marked "disposable": true`, state, params);
      return this.skip(`STATES_FILE has no account of kind "${kind}"; add one (see \`conformance states template\`)`, state, params);
    }
    // Every test's check context gives a holder; without one the account would be shared unleased.
    const holder = options.holder;
    if (!holder) throw new Error(`a ${kind} account of STATES_FILE was asked for without a lease holder`);
    let index: number;
    {
      const entry = this.held.get(holder.id) ?? { indices: [], chain: Promise.resolve() };
      this.held.set(holder.id, entry);
      const answer = entry.chain.then(() => this.leases.acquire({ holder: holder.id, cls: kind, candidates: candidates.map((c) => c.index), ...(spends ? { spends: true } : {}), ...(role === '2fa' || role === '2fa-records' || stateTwoFactor || resetTwoFactor ? { totp: true } : {}), ...(!spends && options.failsLogins ? { failsLogins: options.failsLogins } : {}) }));
      entry.chain = answer.catch(() => undefined);
      const granted = await answer;
      if ('impossible' in granted) return this.skip(`STATES_FILE: ${granted.impossible}`, state, params);
      if (spends) appendFileSync(spentListPath(this.path), `${this.file.accounts[granted.index]!.id}\n`);
      entry.indices.push(granted.index);
      index = granted.index;
    }
    const account = this.file.accounts[index]!;
    givenOut.set(account.email.toLowerCase(), { kind, password: account.password });
    const data: Record<string, unknown> = { id: account.id, email: account.email, password: account.password };
    if (account.totpSecret) data.totpSecret = account.totpSecret;
    if (account.token) data.token = account.token;
    if (account.attempts !== undefined) data.attempts = account.attempts;
    if (typeof params.platformId === 'string') data.platformId = params.platformId;
    return { provided: true, data: data as never };
  }

  private lookUp(name: StateName, params: Record<string, unknown>): StateOutcome<StateName> {
    if (name === 'platform') {
      // The state's platform is a second one (the first is the file's platform entry): version 2 names it with its key.
      const second = this.file.secondPlatform;
      if (second) return { provided: true, data: { id: second.id, privateKeyFile: resolve(dirname(this.path), second.privateKeyFile) } };
      if (this.file.platform) return this.skip('this test needs a second platform the target trusts, and STATES_FILE gives one platform; add a "secondPlatform" entry with its privateKeyFile (version 2)', name, params);
      return this.skip('STATES_FILE has no platform entry and JWT_PLATFORM_ID / JWT_PRIVATE_KEY_FILE are not set; add a platform entry with its privateKeyFile', name, params);
    }
    const byEmail = name === 'password-reset.token';
    // An e-mail in any letter case; a user id as ids are compared (a UUID in any letter case: sameId).
    const email = String(params.email).toLowerCase();
    const account = this.file.accounts.find((a) => (byEmail ? a.email.toLowerCase() === email : sameId(a.id, params.userId)));
    if (!account) return this.skip(`state ${name} is asked for an account that STATES_FILE does not hold`, name, params);
    const label = `${account.state} account ${account.email}`;
    if (name === 'balances') return account.balances ? { provided: true, data: account.balances } : this.skip(`STATES_FILE gives the ${label} no balances; add them`, name, params);
    if (name === 'bonuses' && account.bonuses && params.sharedOrder === true && !account.bonuses.sharedOrder) return this.skip(`STATES_FILE gives the ${label} no bonuses.sharedOrder (the ids of two of its bonuses, in one status, that one order earned; added later); add them`, name, params);
    if (name === 'bonuses') return account.bonuses ? { provided: true, data: account.bonuses } : this.skip(`STATES_FILE gives the ${label} no bonuses; add them`, name, params);
    if (name === 'bank.used') return account.bankUsed ? { provided: true, data: account.bankUsed } : this.skip(`STATES_FILE gives the ${label} no bankUsed; add it`, name, params);
    if (name === 'bank' || name === 'card') return account[name] ? { provided: true, data: account[name] } : this.skip(`STATES_FILE gives the ${label} no "${name}" (a ${name} of it made for the test of an inactive account's own ${name}, version 2); add it`, name, params);
    if (name === 'bank.two-platforms' || name === 'card.two-platforms' || name === 'bonuses.two-platforms') {
      const field = name.split('.')[0] as 'bank' | 'card' | 'bonuses';
      const platforms = account.twoPlatforms?.[field];
      // The optional company of bank and card (added later): without it, whether company is read is not verified.
      const company = field === 'bonuses' ? undefined : account.twoPlatforms?.company?.[field];
      return platforms ? { provided: true, data: { platforms, ...(company ? { company } : {}) } } : this.skip(`STATES_FILE gives the ${label} no twoPlatforms.${field} (its records on two platforms, state ${name}, version 2); add them`, name, params);
    }
    if (name === 'password-reset.token') {
      if (!account.resetToken) return this.skip(`a reset token only an e-mail can carry, and STATES_FILE gives the ${label} no resetToken`, name, params);
      // With `type`, only the token of an e-mail of that type (as it shows it): an account's resetTokenType says which it is.
      if (params.type !== undefined && account.resetTokenType !== params.type) return this.skip(`STATES_FILE gives the ${label} a resetToken ${account.resetTokenType ? `of a forgot-password of type ${account.resetTokenType}` : 'of no stated type'}, and this test needs the token of one of type ${String(params.type)} ("resetTokenType")`, name, params);
      return { provided: true, data: { token: account.resetToken } };
    }
    return this.skip(`STATES_FILE cannot give state ${name}`, name, params);
  }
}

function needsMet(account: FileAccount, role: UserRole): boolean {
  const field = ROLE_FIELDS.find(([, r]) => r === role)?.[0];
  return field !== undefined && account[field] !== undefined;
}
