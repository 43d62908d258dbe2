import type { FastifyReply } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { only, parse, reading, recordsOf } from './reading.js';
import { BONUS, BONUSES, SUMMARY } from './routes.js';

/**
 * review-as (issue 28, "fair to the readings nobody listed"): the last read-only fairness review of the session, over
 * the newest fixes (3966c60, d8966b6, 3278e8e), helpers/arrange/invariants.ts and suites/bonuses.test.ts. Each allowed-*
 * probe takes one choice the text leaves open, the other way from the reference; each description quotes the text that
 * leaves the point open. Verdicts (bin/mutants.mjs --shards 1 --mutant NAME, 2026-11-28): below each probe.
 */

/** The answers of the countdown reading so far (allowed-review-as-order-life-seconds-remaining). */
let reads = 0;

const written: Mutant[] = [
  // 2.7 gives an order's payment `lifeSeconds (integer)` and `lifeUntilAt (integer)` and no meaning: a payment window's
  // remaining seconds, computed at read time (a Laravel accessor `life_until_at - now()`, as an exchange's
  // order page counts down), is as ready a reading as the window's configured length. Two reads seconds apart then give
  // two values; nothing says an order's members are the same on every read.
  reading(
    'allowed-review-as-order-life-seconds-remaining',
    'bonuses',
    '2.7',
    'an order\u2019s payment.lifeSeconds is the seconds left until payment.lifeUntilAt at the time of the read (negative once past: an accessor `life_until_at - now()` unclamped), not the window\u2019s length (2.7: "lifeSeconds (integer), lifeUntilAt (integer)", no meaning given)',
    {
      wire(answer: WireAnswer, _reply: FastifyReply) {
        if (answer.method !== 'GET' || (answer.url !== BONUSES && answer.url !== BONUS) || answer.status !== 200) return undefined;
        const body = parse(answer.payload);
        if (body === undefined) return undefined;
        // Each answer a second after the one before (reads a second apart, whatever the run's pace): the countdown moves
        // between every two reads, deterministically.
        reads += 1;
        const now = Math.floor(Date.now() / 1000) + reads;
        for (const record of recordsOf(body)) {
          const payment = record?.order?.payment;
          if (!payment || typeof payment.lifeUntilAt !== 'number') continue;
          payment.lifeSeconds = payment.lifeUntilAt - now;
        }
        return JSON.stringify(body);
      },
    },
    only('bonuses'),
  ),
  // suites/bonuses.test.ts 'answers an asset the user has no bonus in with no other asset' compares the entry's symbol
  // with NOBONUSASSET letter for letter, where its twin (the symbol cut by one character) compares in any letter case.
  // A service that keys assets by a lower-case symbol (CoinGecko-style keys: `btc`), lower-cases the {asset} segment
  // before the lookup and answers an asset it has no bonus of as one entry of zeros built from the normalised segment
  // (a LEFT JOIN over the asked symbol, as allowed-r8-bonus-summary-every-asset does for the summary of all assets).
  reading(
    'allowed-review-as-summary-unknown-asset-zero-entry-lower-case',
    'bonuses',
    '4.11',
    'the summary of an {asset} in which the user has no bonus is one entry of zeros (orders 0, each status { bonuses: 0, amount: 0 }) whose asset symbol is the segment as the service normalises it, lower-case (4.11: "asset optional path segment (symbol)", 200 { data: [<Bonus asset summary>] }; neither the entries of an asset without bonuses nor the letter case of a symbol the service keeps is given: storage normalisation, docs/judging.md)',
    {
      wire(answer: WireAnswer, reply: FastifyReply) {
        if (answer.method !== 'GET' || answer.url !== SUMMARY || answer.status !== 200) return undefined;
        const asked = (reply.request.params as Record<string, unknown> | undefined)?.asset;
        if (typeof asked !== 'string' || asked === '') return undefined;
        const body = parse(answer.payload);
        if (!Array.isArray(body?.data)) return undefined;
        if (body.data.some((entry: any) => String(entry?.asset?.symbol).toLowerCase() === asked.toLowerCase())) return undefined;
        const zero = { bonuses: 0, amount: 0 };
        body.data.push({ asset: { name: asked.toLowerCase(), symbol: asked.toLowerCase(), alias: null, type: 'coin', precision: '8' }, orders: 0, distributed: { ...zero }, pending: { ...zero }, canceled: { ...zero } });
        return JSON.stringify(body);
      },
    },
    only('bonuses'),
  ),
];

export const probesReviewAsMutants: readonly Mutant[] = written;
