import type { Mutation } from '../mutation.js';
import type { ReferenceContext } from '../context.js';
import type { Mutant } from './types.js';
import { only, reading, routeOf } from './reading.js';
import { BANKS, CARDS } from './routes.js';

/**
 * review-aq (issue 28, "fair to the readings nobody listed"): a read-only fairness review of the checks fix-wb24open
 * added (ca298c8 cbcea96 06914e0 948f79a dc4a092 adaddc2 d32f9d6 eae1489 f2ba0c8), of the fixes of review-ap's findings
 * (d8966b6 adc93db), then suites/cards.test.ts from line 880, helpers/check/filters.ts and pages.ts and the newest tests
 * of suites/balances.test.ts. Each allowed-* probe takes one choice the text leaves open, the other way from the
 * reference; each description quotes the text that leaves the point open. Verdicts (bin/mutants.mjs --shards 1 --mutant
 * NAME, 2026-11-28):
 * - F1 allowed-review-aq-card-status-filter-validated-against-stored-lower-case: REFUSED (suites/cards.test.ts 'answers
 *   200 with the created card, and its status filter keeps only cards of that status': listed({ status: card.status })
 *   requires 200 ("expected 200, got 422") before the other writings are tried; the bank twin takes the 422).
 * - F2 allowed-review-aq-balances-state-names-only-minted-nfts: REFUSED (suites/balances.test.ts twoNftHolders: 'lists
 *   none of the NFTs another user holds' and 'never answers another user's holding to the show of an NFT ...' take state
 *   balances' nfts as every NFT a hook's account holds, which docs/provider-states.md does not say).
 * - pin allowed-review-aq-bank-status-filter-validated-against-stored-lower-case: conformant (F1's bank twin).
 * Not a mutant (F3): the unmutated reference run from a STATES_FILE exported by `conformance states export` fails the
 * card company test once the card platform test (expectCreatedUnderForm, cbcea96) has created its card on the same
 * non-disposable "user with records on two platforms" account (cards cannot be deleted).
 */

/**
 * Two allowed readings together: a card's status is stored lower-case and shown upper-case, the status filter compares
 * the stored value (review-x, allowed-review-x-card-status-filter-takes-stored-lower-case), AND a filter value the
 * service does not know is refused with 422 keyed by the filter (allowed-card-list-unknown-filter-value-422): a Laravel
 * list request validated with `Rule::in(['confirmed', ...])`, the stored values, so status=CONFIRMED (as the records show
 * it) is a value it does not know (422 keyed by status) and status=confirmed lists the CONFIRMED cards.
 */
function statusFilterValidatedAgainstStoredLowerCase(route: string, deviation: string): Mutation {
  return {
    // The reference with this deviation refuses with 422 every status but CONFIRMED (and every company or platform that is
    // no platform code): the stored lower-case value is mapped to the reference's CONFIRMED, any other writing made unknown.
    deviation,
    request(request) {
      if (request.method !== 'GET' || routeOf(request) !== route) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      if (typeof query.status !== 'string') return;
      query.status = query.status === query.status.toLowerCase() ? query.status.toUpperCase() : `not-stored-${query.status}`;
    },
  };
}

/**
 * Provider state `balances` names the NFTs the state gave the account, not every NFT the account holds: the platform
 * drops each balances account's first NFT (an edition of a semi-fungible ERC-1155 item: 2.2 "NFT records carry a
 * positive count") to every other balances account too, as a community airdrop, and the hook does not list what it did
 * not mint for that account. Each account's list and show answer what it really holds, the airdropped items included,
 * consistently (the list and the show of the same user agree). docs/provider-states.md gives balances as
 * `{ "coins": [symbols], "nfts": [symbols], ... }` "that user holds at least one coin and one NFT balance", and its later
 * members say "best every coin held" / "best every one held": nowhere that `nfts` names every NFT the account holds.
 */
function balancesStateNamesOnlyMintedNfts(): Mutation {
  const firsts: { userId: string; symbol: string }[] = [];
  const copy = (ctx: ReferenceContext, from: string, to: string, symbol: string) =>
    ctx.db
      .prepare(
        `INSERT INTO balances (user_id, symbol, quantity, favorite, crypto_json, fiat_json)
         SELECT ?, symbol, quantity, favorite, crypto_json, fiat_json FROM balances WHERE user_id = ? AND symbol = ?
         ON CONFLICT(user_id, symbol) DO NOTHING`,
      )
      .run(to, from, symbol);
  return {
    state(name, data, ctx) {
      const nfts = (data as { nfts?: unknown } | undefined)?.nfts;
      if (name !== 'balances' || !Array.isArray(nfts) || typeof nfts[0] !== 'string') return data;
      const symbol = nfts[0];
      const row = ctx.db.prepare('SELECT user_id FROM balances WHERE symbol = ?').get(symbol) as { user_id: string } | undefined;
      if (!row) return data;
      for (const earlier of firsts) {
        copy(ctx, earlier.userId, row.user_id, earlier.symbol);
        copy(ctx, row.user_id, earlier.userId, symbol);
      }
      firsts.push({ userId: row.user_id, symbol });
      return data;
    },
  };
}

const written: Mutant[] = [
  // F1 (suites/cards.test.ts, 'answers 200 with the created card, and its status filter keeps only cards of that status':
  // listed({ status: card.status }) requires 200 before the other writings are tried).
  reading(
    'allowed-review-aq-card-status-filter-validated-against-stored-lower-case',
    'cards',
    '4.6a',
    'two allowed readings together: a card\u2019s status is stored lower-case and shown upper-case, the status filter compares the stored value (allowed-review-x-card-status-filter-takes-stored-lower-case), and a value the service does not know is refused with 422 keyed by the filter (allowed-card-list-unknown-filter-value-422): the list validates status against the stored values, so status=CONFIRMED (as the records show it) is 422 keyed by status and status=confirmed lists the cards (4.6a: "query status, company, platform (optional filters, strings)"; how a filter compares, in which letter case it takes a value and what an unknown value gets are not said)',
    statusFilterValidatedAgainstStoredLowerCase(CARDS, 'cards.unknown-filter-value-422'),
    only('cards'),
  ),
  // Pin (the bank twin of F1): suites/banks.test.ts 'returns every bank whose status matches the status filter' tries the
  // other writings whatever the first answered (listsTheBank), and the value filters of helpers/check/filters.ts take a 422.
  reading(
    'allowed-review-aq-bank-status-filter-validated-against-stored-lower-case',
    'banks',
    '4.10',
    'two allowed readings together: a bank\u2019s status is stored lower-case and shown upper-case, the status filter compares the stored value (allowed-review-y-bank-status-filter-takes-stored-lower-case), and a value the service does not know is refused with 422 keyed by the filter (allowed-bank-list-unknown-filter-value-422): status=CONFIRMED (as the records show it) is 422 keyed by status and status=confirmed lists the banks (4.10: "status, currency, company, platform (all optional filters, strings)"; how a filter compares, in which letter case it takes a value and what an unknown value gets are not said)',
    statusFilterValidatedAgainstStoredLowerCase(BANKS, 'banks.unknown-filter-value-422'),
    only('banks'),
  ),
  // F2 (suites/balances.test.ts twoNftHolders: "a hook's account holds what the state gave it"; the NFT list's 'lists
  // none of the NFTs another user holds' and the NFT show's 'never answers another user's holding ...').
  reading(
    'allowed-review-aq-balances-state-names-only-minted-nfts',
    'balances',
    '4.6',
    'provider state balances names the NFTs it gave the account, not every NFT the account holds: every balances account also holds an edition of each other balances account\u2019s first NFT (a community airdrop of a semi-fungible item; 2.2: "NFT records carry a positive count"), which its list and show answer alike, and which its state does not name (docs/provider-states.md: balances answers `{ "coins", "nfts", ... }` of a user that "holds at least one coin and one NFT balance"; nowhere that nfts is every NFT held, and its later members ask for "best every coin held", "best every one held")',
    balancesStateNamesOnlyMintedNfts(),
    only('balances'),
  ),
];

/** The probes of review-aq (registered in index.ts): each must stay conformant. */
export const probesReviewAqMutants: Mutant[] = written;
