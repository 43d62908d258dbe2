import type { Mutant } from './types.js';
import { answered } from './make.js';
import { only, reading } from './reading.js';

const COIN_SHOW = 'GET /api/v1/user/{user}/balances/{asset}';
const NFT_SHOW = 'GET /api/v1/user/{user}/balances/nft/{asset}';

/** The show answers description {} where the asset has texts: a show that does not load the translations a list joins. */
const descriptionEmptied = (body: any): boolean => body?.data?.description && typeof body.data.description === 'object' && Object.keys(body.data.description).length > 0 && ((body.data.description = {}), true);

/**
 * review-ah F1, registered as allowed readings: a balance list filtered by assets[] with a symbol named twice lists that
 * asset twice (a service that looks each named symbol up in turn, `symbols.flatMap(find)`). 4.6 and 4.8 give assets[] as
 * "(optional, repeatable; asset symbols to return)" and say nothing of a symbol named twice, and docs/judging.md already
 * advised on it ("a repeated symbol listed twice is advised on"), yet the list invariant failed it. Round wb1 had
 * registered both as deviations (wb1-balances-repeated-filter-twice, wb1-balances-nft-repeated-filter-twice); they are
 * readings now, under these names. An entry listed more often than its symbol is named still fails
 * (helpers/arrange/invariants.ts expectListedAsNamed).
 *
 * review-ah F2, registered as allowed readings: a balance show that answers description {} for an asset whose list entry
 * carries its texts (the show does not load the translations the list joins). 2.2 says a description "may be an empty
 * object" and does not say when; the suite already let a list give {} where the show gives texts (round r14), and leaves
 * meta, which 2.2 also lets be empty, out of the show-versus-list comparison. Rounds wb9 and wb11 had registered these as
 * deviations (wb9-coin-show-description-empty, wb11-nft-show-description-empty); they are readings now, under these names.
 */
export const probesReviewAhMutants: Mutant[] = [
  reading(
    'allowed-review-ah-coin-filter-repeated-symbol-listed-twice',
    'balances',
    '4.8',
    'a coin list filtered with assets[] naming one symbol twice lists that coin twice, once for each time it is named (4.8: assets[] is "repeatable; asset symbols to return"; nothing says a repeated symbol is returned once)',
    { deviation: 'wb1.balances-filter-per-symbol' },
    only('balances'),
  ),
  reading(
    'allowed-review-ah-nft-filter-repeated-symbol-listed-twice',
    'balances',
    '4.6',
    'an NFT list filtered with assets[] naming one symbol twice lists that NFT twice, once for each time it is named (4.6: assets[] is "repeatable; asset symbols to return"; nothing says a repeated symbol is returned once)',
    { deviation: 'wb1.balances-nft-filter-per-symbol' },
    only('balances'),
  ),
  reading(
    'allowed-review-ah-coin-show-description-empty',
    'balances',
    '4.9',
    'the coin show answers description {} for a coin whose list entry carries its texts, the translations not loaded by the show (2.2: a description "may be an empty object", without saying when)',
    answered(COIN_SHOW, 200, descriptionEmptied),
    only('balances'),
  ),
  reading(
    'allowed-review-ah-nft-show-description-empty',
    'balances',
    '4.7',
    'the NFT show answers description {} for an NFT whose list entry carries its texts, the translations not loaded by the show (2.2: a description "may be an empty object", without saying when)',
    answered(NFT_SHOW, 200, descriptionEmptied),
    only('balances'),
  ),
];
