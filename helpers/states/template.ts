import { isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEMA_DIR } from '../spec/schemas.js';
import { ACCOUNT_KINDS, countOf, type FileAccount, type StatesFileV1, type UserRole } from './file.js';
import type { CompanyRecords, PlatformRecords } from './transport.js';

/**
 * `conformance states template`: the skeleton of a static provider-states file
 * (schemas/states-file.json) for a run without a hook, with placeholders an operator fills in.
 */

export type Kind = (typeof ACCOUNT_KINDS)[number];

/** The fields an account of that kind carries, with placeholder values. */
function skeletonAccount(kind: Kind, n: number): FileAccount {
  const email = kind.emailLength ? `<e-mail address of exactly ${kind.emailLength} characters, of ${kind.kind} ${n}>` : kind.emailTag ? `<e-mail address with a + tag (name+tag@example.com), of ${kind.kind} ${n}>` : `<e-mail of ${kind.kind} ${n}>`;
  const account: FileAccount = { state: kind.state, id: `<user id (UUID) of ${kind.kind} ${n}>`, email, password: '<its password>', ...(kind.disposable ? { disposable: true } : {}) };
  const extras: Partial<Record<UserRole | 'inactive', Partial<FileAccount>>> = {
    balances: {
      balances: {
        coins: ['<coin symbol it holds>'],
        nfts: ['<NFT symbol it holds>'],
        native: ['<optional: held coin native to its chain (chain name and symbol null)>'],
        genesisDate: ['<optional: held coin whose meta carries genesis_date>'],
        // Optional (added later, round wb23): what the records of a held coin or NFT hold, each member optional.
        assets: [
          {
            symbol: '<optional: held coin or NFT symbol>',
            chain: { name: '<its chain.name as its records show it (null, not a text, for a native coin)>', symbol: '<its chain.symbol as its records show it (null for a native coin)>' },
            links: { website: '<optional: its meta.links.website as its records show it>', github: '<optional: its meta.links.github>', facebook: '<optional: its meta.links.facebook>', twitter: '<optional: its meta.links.twitter>' },
            description: { en: '<optional: its description text in that language as its records show it>' },
          },
        ],
        // The optional `amount` ({ symbol, precision, available }), `amounts` (a list of them) and `genesisDates` have no placeholder the schema accepts: docs/provider-states.md.
      },
    },
    bonuses: { bonuses: { ids: ['<bonus id: at least one distributed, one pending, one canceled>'], assets: ['<asset symbol of its bonuses>'], antiPhishing: '<optional: its anti-phishing code in clear>', sharedOrder: ['<optional: a bonus id of one order that earned two, in one status>', '<the other bonus id of that order>'] } },
    'bank.used': { bankUsed: { id: '<id of its bank used in earlier actions>' } },
    'password-reset.token': { resetToken: '<token of the latest forgot-password e-mail sent to it>' },
    '2fa': { totpSecret: '<its base32 TOTP secret>' },
    '2fa-records': {
      totpSecret: '<its base32 TOTP secret>',
      bonuses: { ids: ['<bonus id of this account>'], assets: ['<asset symbol of its bonuses>'] },
      balances: { coins: ['<coin symbol it holds>'], nfts: ['<NFT symbol it holds>'] },
      // Optional: without it, the used-bank delete with a 2FA login is not verified (round wb12).
      bankUsed: { id: '<optional: id of its bank used in earlier actions>' },
    },
    'two-platforms': {
      twoPlatforms: {
        bank: twoPlatforms('bank'),
        card: twoPlatforms('card'),
        bonuses: twoPlatforms('bonus'),
        // Optional (added later): a value of the company filter in the target's own meaning and the records it selects.
        company: { bank: companyOf('bank'), card: companyOf('card') },
      },
    },
    inactive: {
      token: '<access token issued before it became inactive, unexpired>',
      bonuses: { ids: ['<bonus id of this account>'], assets: ['<asset symbol>'] },
      bankUsed: { id: '<id of a bank of this account>' },
      bank: { id: '<id of a bank of this account never used in any action>' },
      card: { id: '<id of a card of this account>' },
    },
  };
  // user.inactive and user.locked with 2FA (added later): the account's credentials, its TOTP secret, and the inactive one's token.
  // A user with 2FA and a reset token (added later): its TOTP secret beside the token.
  if (kind.twoFactor && kind.state === 'user') return { ...account, totpSecret: '<its base32 TOTP secret>', resetToken: '<token of the latest forgot-password e-mail sent to it>' };
  if (kind.twoFactor) return { ...account, ...(kind.state === 'user.inactive' ? { token: '<access token issued before it became inactive, unexpired>' } : {}), ...(kind.state === 'user.brute-force' ? { attempts: 5 } : {}), totpSecret: '<its base32 TOTP secret>' };
  if (kind.state === 'user.expired-token') return { ...account, token: '<access token issued to it whose lifetime is over>' };
  if (kind.state === 'user.brute-force') return { ...account, attempts: 5 };
  // A reset token sent after a first reset of the address (added later, round wb14): the second reset of one address.
  if (kind.resetBefore) return { ...account, resetToken: '<token of the latest forgot-password e-mail sent to it, sent after a first reset of its address>', resetBefore: true };
  if (kind.resetType) return { ...account, resetToken: `<token of the latest forgot-password e-mail sent to it, of type ${kind.resetType}, as that e-mail shows it>`, resetTokenType: kind.resetType };
  return { ...account, ...(kind.role ? extras[kind.role] : kind.state === 'user.inactive' ? extras.inactive : {}) };
}

/** A `twoPlatforms` entry's placeholder: two platforms, each with this account's records of that kind on it. */
function twoPlatforms(record: string): PlatformRecords[] {
  return [1, 2].map((n) => ({ id: `<ID of platform ${n} (the {platform} path segment)>`, code: `<externalPlatform.code its ${record}s show on platform ${n}>`, ids: [`<id of its ${record} on platform ${n}>`, ...(n === 1 ? [`<id of a second ${record} on platform 1>`] : [])] }));
}

/** A `twoPlatforms.company` entry's placeholder: a company value of the target's own and the records of this account it selects, and one that selects none. */
function companyOf(record: string): CompanyRecords {
  return { value: `<optional: a value of the company filter, in the target's own meaning, that selects some but not all of its ${record}s>`, ids: [`<id of each of its ${record}s that value selects>`], none: `<optional: a value of the company filter, in the target's own meaning, that selects none of its ${record}s>` };
}

function countsLine(minimum: boolean, runs: number): string {
  return ACCOUNT_KINDS.map((k) => `${countOf(k, minimum, runs)} ${k.kind}`).join(', ');
}

/**
 * How an operator prepares by hand each kind of account that is more than an account with a password
 * (docs/provider-states.md, the states): the template's comment lists them.
 */
export const PREPARE_BY_HAND: Record<string, string> = {
  'user with records on two platforms': 'an active account with banks, cards and bonuses on two platforms the target trusts (different IDs, codes and names; two records on platform 1, one on platform 2), and no other banks, cards or bonuses; give each platform\u2019s ID, code and the records\u2019 ids',
  'user with 2FA, bonuses and balances': 'an active account whose login needs a 2FA code, with at least one bonus and a balance of a coin and of an NFT; give its TOTP secret, bonus ids and assets, coin and NFT symbols, and (optional) a bank of it used in earlier actions',
  'user.inactive (with bonuses and a used bank)': 'an account made inactive after an access token was issued to it, with bonuses, a bank used in earlier actions, a bank never used ("bank") and a card ("card")',
  'user.inactive with 2FA': 'an account whose login needs a 2FA code, made inactive after an access token was issued to it; give its TOTP secret and that token',
  'user.locked with 2FA': 'a locked account whose login needs a 2FA code; give its TOTP secret',
  'user.forbidden': 'an active account whose role or policy forbids it to create a bank (and nothing else)',
  'user.short-session': 'an active account whose sessions last 2 to 5 seconds (a setting of the target for that account)',
  'user.short-session with 2FA': 'as user.short-session, an account whose login needs a 2FA code; give its TOTP secret',
  'user.brute-force': 'a fresh active account no one has logged in to with a wrong password, and "attempts": the failed logins after which the target restricts its login (425); serves once',
  'user with an e-mail with a + tag': 'an active account whose e-mail address carries a + tag in its local part (name+tag@example.com)',
  'disposable user with 2FA and a reset token': 'an active account whose login needs a 2FA code, to which forgot-password was sent; give its TOTP secret and the token; serves once',
  'user.brute-force with 2FA': 'as user.brute-force, an account whose login needs a 2FA code; give its TOTP secret; serves once',
  'disposable user': 'a fresh active account that has never had a card; serves once',
  'disposable user with records on two platforms': 'as a user with records on two platforms, none of whose banks was used in earlier actions (the suite deletes one on each platform); serves once',
  'disposable user with a reset token after a first reset': 'an active account to which forgot-password was sent, whose address was then reset with that e-mail\u2019s token (give the new password), and to which forgot-password was sent again; give the token of that second e-mail and "resetBefore": true; serves once',
  'disposable user with a reset token of type text': 'an active account to which forgot-password was sent with "type": "text"; give the token as that e-mail shows it, and "resetTokenType": "text"; serves once (as with "link")',
};

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

export function template(minimum = false, fromDir?: string, runs = 1): StatesFileV1 & { $schema: string } {
  const accounts: FileAccount[] = [];
  for (const kind of ACCOUNT_KINDS) for (let n = 1; n <= countOf(kind, minimum, runs); n++) accounts.push(skeletonAccount(kind, n));
  const prepare = Object.entries(PREPARE_BY_HAND).map(([kind, how]) => `${kind}: ${how}`).join('; ');
  return {
    $schema: schemaReference(fromDir),
    version: 2,
    comment: `${minimum ? 'The fewest accounts that run every test a file can give (tests wait for free accounts)' : 'Accounts for a full run at full speed (no test waits for an account)'}${runs > 1 ? `, with the accounts that serve once for ${runs} runs` : ''}: ${countsLine(minimum, runs)}. ${minimum ? `At full speed: ${countsLine(false, runs)}.` : `At least: ${countsLine(true, runs)}.`} Each account is leased to one test at a time; the suite never changes one unless it is "disposable": true, and each disposable account (and each user.brute-force one) serves once (one test of one run: add fresh ones for the next run, or use --runs N). How to prepare by hand: ${prepare}. secondPlatform: a second platform the target trusts, with its own RSA key. See docs/provider-states.md.`,
    platform: { id: '<platform id: the {platform} path segment>', privateKeyFile: 'platform-key.pem' },
    secondPlatform: { id: '<id of a second platform the target trusts>', privateKeyFile: 'second-platform-key.pem' },
    accounts,
  };
}
