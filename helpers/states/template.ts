import { isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEMA_DIR } from '../spec/schemas.js';
import { ACCOUNT_KINDS, type FileAccount, type StatesFileV1, type UserRole } from './file.js';

/**
 * `conformance states template`: the skeleton of a static provider-states file
 * (schemas/states-file.json) for a run without a hook, with placeholders an operator fills in.
 */

export type Kind = (typeof ACCOUNT_KINDS)[number];

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
