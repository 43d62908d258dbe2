import fc from 'fast-check';
import { ASSETS_PARAM, balancePaths, holder, symbolsOf } from '../helpers/arrange/balances.js';
import { endpoint } from '../helpers/check/check.js';
import { userWithToken } from '../helpers/arrange/flows.js';
import { property } from './engine.js';
import { errorKeys, expectShape, expectStatus, Nonconformance } from './judge.js';
import { otherUserProperty } from './paths.js';
import { schemaRules } from '../helpers/spec/rules.js';

/**
 * Sections 4.6 and 4.8: the repeatable `assets[]` query of the two balance lists, explored over
 * every non-empty choice of the symbols the user holds (provider state `balances`), in any order and
 * repeated. Symbols the user does not hold are left out: the specification does not say what they
 * answer (the fixed suite only advises on them).
 */

const lists = [
  { ep: endpoint('GET /api/v1/user/{user}/balances/nft'), clause: '4.6', kind: 'nfts' as const, path: balancePaths.nftList, schema: 'balance-nft-list-response', records: (body: any) => body.data },
  { ep: endpoint('GET /api/v1/user/{user}/balances'), clause: '4.8', kind: 'coins' as const, path: balancePaths.coinList, schema: 'balance-coin-list-response', records: (body: any) => body.data.coins },
];

for (const { ep, clause, kind, path, schema, records } of lists) {
  ep.describe(() => {
    property(ep, `assets[] naming held ${kind === 'nfts' ? 'NFTs' : 'coins'} (any choice, order and repetition) returns exactly those`, { rules: [clause === '4.6' ? 'S199' : 'S209'], clauses: [clause], status: 200 }, {
      arbitrary: fc.record({ picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }) }),
      // Tried first: three held symbols (more than a small page holds) with the first named twice.
      examples: [{ picks: [0, 1, 2, 0] }],
      runs: (base) => base / 4,
      show: ({ picks }) => `the held symbols at positions ${picks.join(', ')}`,
      arrange: (t) => holder(t),
      probe: async (probe, { picks }, { user, token, held }) => {
        const symbols: string[] = held[kind];
        const named = picks.map((i) => symbols[i % symbols.length]!);
        let requested = named;
        let response = await probe.send({ method: 'GET', path: path(user.id), token, query: { [ASSETS_PARAM]: requested } });
        // A symbol named twice may be refused as a duplicate (422 keyed by the item, `assets.1`, as Laravel's `distinct`
        // rule does: allowed-r23-assets-filter-duplicates-refused), or with another client error but 401, 403 and 409, as
        // the suites take a refused filter (docs/judging.md): 4.6 and 4.8 say "repeatable", not whether a value may repeat.
        // Advised on, and the same symbols are asked once each, which must then be answered.
        const repeated = new Set(named).size < named.length;
        if (repeated && response.status >= 400 && response.status < 500 && ![401, 403, 409].includes(response.status)) {
          probe.advise(`assets[] = ${named.join(', ')} (a symbol named twice) is answered ${response.status}${errorKeys(response).length > 0 ? ` keyed by ${errorKeys(response).join(', ')}` : ''}; 4.6 and 4.8 say the parameter is repeatable, not whether a value may repeat, so not judged`, 'repeated assets refused');
          requested = [...new Set(named)];
          response = await probe.send({ method: 'GET', path: path(user.id), token, query: { [ASSETS_PARAM]: requested } });
        }
        expectStatus(response, 200, `the list with assets[] = ${requested.join(', ')}`);
        const listed = symbolsOf(records(expectShape(response, schema)));
        const got = [...new Set(listed)].sort();
        const want = [...new Set(requested)].sort();
        // A symbol asked for twice and listed twice: the specification does not say whether repeats collapse.
        if (listed.length > got.length) probe.advise(`assets[] = ${requested.join(', ')} lists a repeated symbol more than once (${listed.join(', ')}); the specification does not say whether repeats collapse`, 'repeated assets listed repeatedly');
        if (JSON.stringify(got) !== JSON.stringify(want)) throw new Nonconformance(`assets[] = ${requested.join(', ')} must return exactly ${want.join(', ')} (section ${clause}); got ${got.join(', ') || 'none'}`);
      },
    });

    otherUserProperty(ep, clause, `the ${kind} list`, path, (t) => userWithToken(t));
  });
}
