import type { FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.js';
import type { Mutation } from '../mutation.js';
import type { Mutant } from './types.js';
import { bicCompanyOfState, bicInstitution, only, parse, reading, routeOf } from './reading.js';
import { bicCompanyFilter } from './readings-r12.js';
import { BANKS, BONUSES, CARDS } from './routes.js';
import { DEFAULT_PLATFORM } from '../modules/authentication.js';
import { PARTNER_PLATFORM } from '../modules/bonuses.js';

/**
 * review-aa probes (issue 28's done-when: no `expect` decides an open point). Each `allowed-review-aa-*` takes a reading
 * the text leaves open, the other way from the reference; a failing test is a finding. What review-aa found (each probe
 * run against the suite of then): the platform probe failed only the 2FA and JWT session filter checks (6 tests:
 * helpers/arrange/invariants.ts expectSessionFilters sent `platform=no-such-value-0000` and failed when the user's
 * records were still listed, where the password session's checks of the same value advise); the currency probe failed
 * the same bank session checks (2 tests); the company probe failed the session checks and the two-platform company
 * checks of banks and cards (helpers/check/filters.ts, expectPlatformFilter's no-such-value row). The suite was changed
 * after (branch fix-aa): a value that resolves to nothing is advised on wherever it is sent, and the session rows ask
 * `currency` and `platform` with values that resolve and hold none of the user's records (a real ISO 4217 code none of
 * the user's banks shows; the ID of a platform registered after the records were made), so the round wb17 mutants that
 * ignore a filter under a JWT or 2FA session are still caught. The lead registered the three as allowed readings.
 * fix-aa2 adds a fourth, the company probe together with round r12's SWIFT-institution company: it lists every bank of
 * the user under every value the suite chooses, which c93c183 failed as an ignored filter; its hook answers the optional
 * company of bank.two-platforms (a SWIFT institution code), on which whether company is read is judged since.
 *
 * The parity these readings share: the project allows a bonus `status` filter to ignore a value outside its three
 * (`allowed-r13-bonus-status-filter-unknown-ignored`: "what a value outside the three does is not given; the list's
 * errors, 401, 403, 409, name no 422"), and a bank's or card's `status` filter to ignore a value the target does not know
 * (`allowed-r14-unknown-status-filter-ignored`). The same words hold of the other filters of 4.10, 4.6a and 4.11: what a
 * value that names no platform, no company or no currency code does is not given either, and those lists name no 422.
 */

/**
 * The platforms of the reference: its default one (DEFAULT_PLATFORM), the bonuses' partner (PARTNER_PLATFORM) and those platformIdentity makes (a UUID or, under r9, a number; `P` and six hex digits; a
 * name ending in "Platform"; a url host under `.platform.test`). A value resolves when it names one of them by its ID,
 * code, name or url host, in any letter case.
 */
const namesAPlatform = (value: string): boolean => {
  const v = value.trim();
  return (
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) ||
    /^\d+$/.test(v) ||
    /^P[0-9A-F]{6}$/i.test(v) ||
    /platform$/i.test(v) ||
    /\.platform\.test$/i.test(v) ||
    [DEFAULT_PLATFORM, PARTNER_PLATFORM].some((p) => [p.id, p.code, p.name, new URL(p.url).host].some((name) => name.toLowerCase() === v.toLowerCase()))
  );
};

/** Drops `filter` from a list's query when `keep` says its value resolves to nothing the service knows (a filter applied only when it resolves). */
function dropUnresolved(routes: readonly string[], filter: string, keep: (value: string) => boolean): { request(request: FastifyRequest): void } {
  return {
    request(request) {
      if (request.method !== 'GET' || !routes.includes(routeOf(request))) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const value = query[filter];
      if (typeof value === 'string' && value !== '' && !keep(value)) delete query[filter];
    },
  };
}

/**
 * fix-aa2 (the lead's judgement on c93c183): round r12's SWIFT-institution company, applied only when its value names an
 * institution of a bank the service holds. Every value the suite can choose (no-such-value-0000, a platform's code, ID,
 * name, url host) names none, so each lists every bank of the user: two allowed readings together, which the suite
 * once failed as a filter that is ignored. Its hook answers its own company value (a SWIFT institution of the state's
 * banks), on which whether company is read is judged.
 */
function bicCompanyUnlessUnresolved() {
  const filter = bicCompanyFilter();
  return {
    request(request: FastifyRequest, ctx?: ReferenceContext) {
      if (request.method === 'GET' && routeOf(request) === BANKS) {
        const query = (request.query ?? {}) as Record<string, unknown>;
        const value = query.company;
        const resolves = (v: string) => ctx?.db.prepare('SELECT 1 FROM banks WHERE deleted_at IS NULL AND upper(substr(trim(swift), 1, 4)) = ?').get(bicInstitution(v)) !== undefined;
        if (typeof value === 'string' && value !== '' && (bicInstitution(value) !== value.trim().toUpperCase() || !resolves(value))) delete query.company;
      }
      filter.request?.(request, ctx);
    },
    wire: filter.wire!,
    state: bicCompanyOfState,
  };
}

/**
 * A name of a platform the reference has: its default one's, the bonuses' partner's, or one platformIdentity makes (a
 * company's name ending in " Platform"), in any letter case. No ID, code or url host of the reference ends so.
 */
const namesAPlatformByName = (value: string): boolean => /\splatform$/i.test(value.trim()) || [DEFAULT_PLATFORM, PARTNER_PLATFORM].some((p) => p.name.toLowerCase() === value.trim().toLowerCase());

/** The name a list's record shows for its platform: a bank's or card's externalPlatform, a bonus's order's. */
const platformNameOf = (record: any): unknown => record?.externalPlatform?.name ?? record?.order?.externalPlatform?.name;

/**
 * `platform` compared with the platform's name only, and applied only when the value resolves (names a platform the
 * service has by its name): the lists' own filtering by code is bypassed (the query's platform taken off), and the
 * answer kept to the records whose platform shows that name, any letter case; a value that names no platform by its
 * name (its code, its ID, its url host, no-such-value-0000) is dropped and every record of the user listed.
 */
export function platformByNameUnresolvedIgnored(routes: readonly string[]): Mutation {
  const asked = new WeakMap<FastifyRequest, string>();
  return {
    request(request) {
      if (request.method !== 'GET' || !routes.includes(routeOf(request))) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const value = query.platform;
      if (typeof value !== 'string' || value === '') return;
      delete query.platform;
      if (namesAPlatformByName(value)) asked.set(request, value.trim().toLowerCase());
    },
    wire(answer, reply) {
      const name = asked.get(reply.request);
      if (name === undefined || answer.status !== 200) return undefined;
      const body = parse(answer.payload);
      if (!Array.isArray(body?.data)) return undefined;
      body.data = body.data.filter((record: any) => String(platformNameOf(record)).toLowerCase() === name);
      return JSON.stringify(body);
    },
  };
}

const written: readonly Mutant[] = [
  reading(
    'allowed-review-aa-platform-filter-unknown-value-ignored',
    'banks',
    '4.10',
    'the bank, card and bonus lists apply `platform` only when its value resolves to a platform the service has (by its code, ID, name or url host); a value that names no platform (`platform=no-such-value-0000`) is dropped and every record of the user listed, as a query builder that applies only the filters it can resolve does (4.10 "query: status, currency, company, platform (all optional filters, strings)", 4.6a, 4.11: what a value naming no platform does is not given, and the lists\u2019 errors name no 422; the parity of allowed-r13-bonus-status-filter-unknown-ignored)',
    dropUnresolved([BANKS, CARDS, BONUSES], 'platform', namesAPlatform),
    only('banks', 'cards', 'bonuses'),
  ),
  reading(
    'allowed-review-aa-bank-currency-filter-non-code-ignored',
    'banks',
    '4.10',
    'the bank list applies `currency` only when its value is shaped as a currency code (alphanumeric, at most three characters: ISO 4217 writes three letters or three digits); a value that is no code at all (`currency=no-such-value-0000`) is dropped as invalid and every bank of the user listed (4.10: "currency ... optional filters, strings"; what a value that is no currency code does is not given, and the list\u2019s errors, 401, 403, 409, name no 422; the parity of allowed-r13-bonus-status-filter-unknown-ignored). A code no bank has (`SEK`), part of one (`EU`) and a numeric code are still applied',
    dropUnresolved([BANKS], 'currency', (value) => /^[A-Za-z0-9]{1,3}$/.test(value)),
    only('banks'),
  ),
  reading(
    'allowed-review-aa-company-filter-unknown-value-ignored',
    'banks',
    '4.10',
    'the bank and card lists apply `company` only when its value resolves to a platform the service has (as `platform`, which the reference compares it with); a value that names none (`company=no-such-value-0000`) is dropped and every record of the user listed (4.10, 4.6a: `company` is named, not defined; what a value naming no company does is not given, and the lists\u2019 errors name no 422). Under this reading the suite\u2019s other company values (a bank\u2019s name, a SWIFT institution code, a holder\u2019s name) are dropped too: lists of every record, which the suite advises on',
    dropUnresolved([BANKS, CARDS], 'company', namesAPlatform),
    only('banks', 'cards'),
  ),
  reading(
    'allowed-review-aa-bank-company-bic-institution-unresolved-ignored',
    'banks',
    '4.10',
    'the bank list compares `company` with the institution code of the bank\u2019s SWIFT (its first four letters, any letter case: allowed-r12-bank-company-filter-by-bic-institution) and applies it only when the value names the institution of a bank the service holds; a value that names none (`company=no-such-value-0000`, a platform\u2019s code, ID, name or url host) is dropped and every bank of the user listed (allowed-review-aa-company-filter-unknown-value-ignored). Two readings the text leaves open, together (4.10: `company` is named, not defined; what a value naming no company does is not given, and the list\u2019s errors name no 422). Its provider-state hook answers the optional `company` of bank.two-platforms with a SWIFT institution code of the state\u2019s banks',
    bicCompanyUnlessUnresolved(),
    only('banks'),
  ),
  // fix-aa3 (issue 28): the one-identifier readings (allowed-bank-list-platform-filter-by-name and its kin) together
  // with review-aa's (a value that resolves to nothing ignored): the 2FA and JWT session rows' platform registered after
  // the user's records, sent by its ID alone, and the two-platform checks' code, ID and url host are answered with every
  // record of the user; only the name filters.
  reading(
    'allowed-review-aa-platform-filter-by-name-only-unresolved-ignored',
    'banks',
    '4.10',
    'the bank, card and bonus lists compare `platform` with the platform\u2019s name only (the `externalPlatform.name` its records show) and apply it only when the value names a platform the service has by its name; a platform\u2019s code, ID or url host names none by its name, so it is dropped and every record of the user listed, as a query builder that resolves a platform by name and applies only the filters it can resolve does (4.10 "query: status, currency, company, platform (all optional filters, strings)", 4.6a, 4.11: what a platform is named by in a filter is not given, nor what a value naming none does, and the lists\u2019 errors name no 422; allowed-bank-list-platform-filter-by-name with allowed-review-aa-platform-filter-unknown-value-ignored)',
    platformByNameUnresolvedIgnored([BANKS, CARDS, BONUSES]),
    only('banks', 'cards', 'bonuses'),
  ),
];

/** review-aa's probes, registered as allowed readings (the lead's judgement: parity with r13 and r14). */
export const probesReviewAaMutants: readonly Mutant[] = written;
