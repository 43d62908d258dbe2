import fc from 'fast-check';
import { ASSETS_PARAM, balancePaths, holder, symbolsOf } from '../helpers/arrange/balances.js';
import { endpoint } from '../helpers/check/check.js';
import { userWithToken } from '../helpers/arrange/flows.js';
import { property } from './engine.js';
import { expectShape, expectStatus, Nonconformance } from './judge.js';
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
      runs: (base) => base / 4,
      show: ({ picks }) => `the held symbols at positions ${picks.join(', ')}`,
      arrange: (t) => holder(t),
      probe: async (probe, { picks }, { user, token, held }) => {
        const symbols: string[] = held[kind];
        const requested = picks.map((i) => symbols[i % symbols.length]!);
        const response = await probe.send({ method: 'GET', path: path(user.id), token, query: { [ASSETS_PARAM]: requested } });
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
