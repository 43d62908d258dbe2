import type { FastifyReply } from 'fastify';
import type { Mutation, WireAnswer } from '../mutation.js';
import { onAnswers, parse, perServer, recordsOf } from './reading.js';
import type { Mutant } from './types.js';
import { ROUTE as URL } from './routes.js';

/**
 * The NFT show answers another NFT's image and url (owner and creator its own: one wallet, one collection's creator):
 * the media of another NFT of the same user's list, as a mapper that keeps the media of the last NFT it mapped for that
 * user would. Kept per server and per user: across users, which NFT is "another" would depend on which tests listed first.
 */
function showImageUrlOfAnother(): Mutation {
  const metasOf = perServer(() => new Map<string, Map<string, { image: unknown; url: unknown }>>());
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.status !== 200 || (answer.url !== URL.nftList && answer.url !== URL.nftOne)) return undefined;
      const user = String((reply.request.params as { user?: unknown } | undefined)?.user ?? '').toLowerCase();
      const byUser = metasOf(reply.server);
      const metas = byUser.get(user) ?? new Map<string, { image: unknown; url: unknown }>();
      byUser.set(user, metas);
      const body = parse(answer.payload);
      const records = recordsOf(body);
      if (answer.url === URL.nftList) {
        for (const r of records) if (typeof r?.symbol === 'string' && r.meta?.image) metas.set(r.symbol.toUpperCase(), { image: r.meta.image, url: r.meta.url });
        return undefined;
      }
      const record = records[0];
      if (!record?.meta || typeof record.symbol !== 'string') return undefined;
      const other = [...metas.entries()].find(([s, m]) => s !== record.symbol.toUpperCase() && m.image !== record.meta.image);
      if (!other) return undefined;
      record.meta.image = other[1].image;
      record.meta.url = other[1].url;
      return JSON.stringify(body);
    },
  };
}

const nextDayUtcMidnight = (date: string): string | undefined => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1)).toISOString().replace(/\.\d{3}Z$/, '.000000Z');
};

/**
 * review-al (D1, D2), registered as deviations: the depth the review-ak relaxations had cost. D1: the NFT show answers
 * another NFT's image and url, its owner and creator its own (on a real target one wallet owns every NFT the user holds,
 * and one creator a collection): a rendition the show gives is judged where it is exactly another asset's listed value.
 * D2: every coin's genesis_date written as UTC midnight of the next day (a zoned time that is no local midnight of the
 * genesis day in any zone from UTC-12 to UTC+14).
 */
export const probesReviewAlMutants: Mutant[] = [
  { name: 'review-al-nft-show-image-url-of-another', clause: '4.7', group: 'balances', description: 'sections 4.7/2.2 (200 { data: <Balance record> } of the {asset}; meta of the asset): the NFT show answers another NFT\u2019s image and url, its owner and creator its own (a mapper that keeps the last NFT\u2019s media)', mutation: showImageUrlOfAnother() },
  { name: 'review-al-coin-genesis-day-late-utc-midnight', clause: '2.2', group: 'balances', description: 'section 2.2 (meta genesis_date "date string"; provider state balances\u2019 genesisDates): every coin answers its genesis_date a day late, written as UTC midnight of the next day (a date shifted by a time-zone conversion the wrong way)', mutation: onAnswers([URL.coinList, URL.coinOne], (body) => { let changed = false; for (const r of recordsOf(body)) { const d = r?.meta?.genesis_date; const late = typeof d === 'string' ? nextDayUtcMidnight(d) : undefined; if (late) { r.meta.genesis_date = late; changed = true; } } return changed; }) },
];
