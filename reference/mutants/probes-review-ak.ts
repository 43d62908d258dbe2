import { answered } from './make.js';
import type { Mutant } from './types.js';
import { onAnswers, only, reading, recordsOf } from './reading.js';
import { COIN, COINS, NFT, NFTS } from './routes.js';
import { deletedBanksUnderStatusDeleted } from './round-wb22.js';

/**
 * review-ak's findings, registered as allowed readings: each was failed by a check of round wb22 (fix-wb22a/b) although
 * the text leaves it open (the review's proof, each run against the reference with the reading alone):
 * - F1: an asset's meta compared between show and list: a total_supply from an hourly market-data cache in the list and
 *   the live feed on show, and a thumbnail image in the list beside the large rendition on show (CoinGecko's
 *   /coins/markets beside /coins/{id}). The suite now advises on image, url and total_supply (META_RENDITIONS).
 * - F2: genesis_date kept at local midnight and written in UTC (Laravel's date cast with app.timezone Europe/Berlin:
 *   2015-07-30 as "2015-07-29T22:00:00.000000Z"): a zoned time now gives the day of that instant in any zone from UTC-12
 *   to UTC+14 (calendarDaysOf). 2.2 gives a "date string", no zone.
 * - F3: a soft delete whose bank list shows the deleted banks, with status DELETED, when status=DELETED asks for them:
 *   advised on; and with the status they had (review-al F1: the reading below), advised on too.
 */
export const probesReviewAkMutants: Mutant[] = [
  // A: the coin list is served from a market-data cache (refreshed hourly: two list reads agree), the show reads the feed
  // live (its total_supply a little higher, an inflationary coin).
  reading(
    'allowed-review-ak-coin-list-cached-show-live-supply',
    'balances',
    '2.2',
    'the coin list\u2019s meta comes from an hourly market-data cache, the show reads the feed live: total_supply grows a little in the show',
    (() => {
      let reads = 0;
      return onAnswers([COIN], (body) => {
        const metas = recordsOf(body).map((record) => record?.meta).filter((meta) => meta && typeof meta.total_supply === 'number');
        if (metas.length === 0) return false;
        reads += 1;
        for (const meta of metas) meta.total_supply += 1000 + reads;
      });
    })(),
    only('balances'),
  ),
  // B: genesis_date stored as a date, cast by Laravel's 'date' cast in app timezone Europe/Berlin and serialised by
  // Carbon::toJSON in UTC: 2009-01-03 -> "2009-01-02T23:00:00.000000Z" (list and show alike).
  reading(
    'allowed-review-ak-genesis-date-local-midnight-in-utc',
    'balances',
    '2.2',
    'genesis_date written as the UTC instant of local midnight (Laravel date cast, app timezone Europe/Berlin, toJSON in UTC)',
    onAnswers([COINS, COIN], (body) => {
      let changed = false;
      for (const record of recordsOf(body)) {
        const date = record?.meta?.genesis_date;
        const m = typeof date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
        if (!m) continue;
        const instant = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - 3600_000);
        record.meta.genesis_date = instant.toISOString().replace(/\.\d{3}Z$/, '.000000Z');
        changed = true;
      }
      return changed;
    }),
    only('balances'),
  ),
  // C: delete is a soft delete (status DELETED, deleted_at set); the list leaves deleted banks out unless the status
  // filter asks for DELETED (withTrashed() when status=DELETED), then lists them with status DELETED.
  reading(
    'allowed-review-ak-deleted-bank-listed-under-status-deleted',
    'banks',
    '4.10',
    'soft-deleted banks are listed only when status=DELETED is asked (in any letter case), with status DELETED',
    (() => {
      const seen = new Map<string, any>();
      const deleted = new Map<string, any[]>();
      const list = answered('GET /api/v1/user/{user}/bank', 200, (body, request) => {
        for (const record of recordsOf(body)) if (record?.id) seen.set(String(record.id).toLowerCase(), record);
        const status = request.query?.status;
        if (typeof status !== 'string' || status.toUpperCase() !== 'DELETED' || !Array.isArray(body?.data)) return false;
        const user = String(request.params?.user ?? '').toLowerCase();
        const gone = deleted.get(user) ?? [];
        if (gone.length === 0) return false;
        body.data.push(...gone.map((record) => ({ ...record, status: 'DELETED' })));
        return true;
      });
      const show = answered('GET /api/v1/user/{user}/bank/{bank}', 200, (body) => {
        if (body?.data?.id) seen.set(String(body.data.id).toLowerCase(), body.data);
        return false;
      });
      const create = answered('POST /api/v1/user/{user}/bank', 201, (body) => {
        if (body?.data?.id) seen.set(String(body.data.id).toLowerCase(), body.data);
        return false;
      });
      const remove = answered('DELETE /api/v1/user/{user}/bank/{bank}', 200, (_body, request) => {
        const record = seen.get(String(request.params?.bank ?? '').toLowerCase());
        if (record) {
          const user = String(request.params?.user ?? '').toLowerCase();
          deleted.set(user, [...(deleted.get(user) ?? []), record]);
        }
        return false;
      });
      return {
        wire(answer: any, reply: any) {
          for (const m of [list, show, create, remove]) {
            const out = (m as any).wire(answer, reply);
            if (out !== undefined) return out;
          }
          return undefined;
        },
      };
    })(),
    only('banks'),
  ),
  // D: the list serves each asset's image as a thumbnail rendition and the show the large one (CoinGecko's
  // /coins/markets vs /coins/{id} image.large; an image service's ?w= rendition), the same picture, deterministic.
  reading(
    'allowed-review-ak-list-thumbnail-show-large-image',
    'balances',
    '2.2',
    'the list gives meta.image as a 64 px thumbnail URL, the show as the 512 px rendition of the same picture',
    onAnswers([COINS, COIN, NFTS, NFT], (body, answer) => {
      const metas = recordsOf(body).map((record) => record?.meta).filter((meta) => meta && typeof meta.image === 'string');
      if (metas.length === 0) return false;
      const width = answer.url === COIN || answer.url === NFT ? 512 : 64;
      for (const meta of metas) meta.image = `${meta.image}?w=${width}`;
    }),
    only('balances'),
  ),
  // review-al F1: the same soft delete as the reading above, its trashed rows listed under status=DELETED with the status
  // they had (CONFIRMED: onlyTrashed() on such a value, the status column left alone, as Laravel's SoftDeletes, Rails
  // paranoia's only_deleted and Django safedelete's deleted_objects do): advised on too.
  reading(
    'allowed-review-al-deleted-bank-listed-with-stored-status-under-status-deleted',
    'banks',
    '4.10',
    'a bank list asked with status=DELETED answers the user\u2019s deleted banks with the status they had (CONFIRMED: a soft delete sets deleted_at and leaves the status, and the filter value DELETED lists the trashed rows): 4.10 names the filter, the bank statuses are "not shown", and section 3 shows no transition',
    deletedBanksUnderStatusDeleted('CONFIRMED'),
    only('banks'),
  ),
];
