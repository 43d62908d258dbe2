import fc from 'fast-check';
import { endpointById } from '../helpers/spec/catalogue.js';
import type { CheckContext, EndpointChecks } from '../helpers/check/check.js';
import { property } from './engine.js';
import { errorKeys, expectOtherUserRefused, expectShape, expectStatus } from './judge.js';
import { describeText, textBetween } from './values.js';
import { schemaRules } from '../helpers/spec/rules.js';

/** The path and query properties every record group shares: text filters, unknown ids, other users' ids. */

/** Per record section: the rule of its list (4.10 lists the user's banks; 4.6a cards; 4.11 bonuses) and of its show's 404. */
const LIST_RULE: Readonly<Record<string, string>> = { '4.10': 'S220', '4.6a': 'S278', '4.11': 'S262' };
const NOT_FOUND_RULE: Readonly<Record<string, string>> = { '4.10': 'S253', '4.6a': 'S292', '4.11': 'S274' };

/** A user of a property and its access token. */
export type Session = { user: { id: string }; token: string };

/**
 * Optional string filters (sections 4.10, 4.6a, 4.11): any text answers 200 with a list, or 422 keyed
 * by the filter (a value the service does not know; the specification does not say what one gets:
 * advised on, as the suites judge it in helpers/check/filters.ts). The filters are the catalogue's
 * free-text ones for the list (not an enum such as the bonus status), the list's shape its catalogue
 * success schema.
 */
export function filtersProperty<S extends Session>(list: EndpointChecks, clause: string, path: (userId: string) => string, arrange: (t: CheckContext) => Promise<S>): void {
  const { query = [], success: schema } = endpointById.get(list.id)!;
  const filters = query.filter((q) => q.schema.type === 'string' && !('enum' in q.schema)).map((q) => q.name);
  if (filters.length === 0) throw new Error(`${list.id} has no free-text filter in the catalogue: no filter property to explore`);
  property(list, `any text as the ${filters.join(', ').replace(/, ([^,]+)$/, ' or $1')} filter answers 200 with a list (or 422 keyed by the filter, or 400)`, { rules: [...schemaRules(schema), LIST_RULE[clause]!], clauses: [clause], status: 200 }, {
    arbitrary: fc.record({ filter: fc.constantFrom(...filters), value: textBetween(0, 40) }),
    runs: (base) => base / 2,
    show: (v) => `${v.filter}=${describeText(v.value)}`,
    arrange,
    probe: async (probe, { filter, value }, { user, token }) => {
      const response = await probe.send({ method: 'GET', path: path(user.id), token, query: { [filter]: value } });
      if (response.status === 422 && errorKeys(response).includes(filter)) {
        expectShape(response, 'error-validation');
        return probe.advise(`${filter}=${describeText(value)} is refused with 422 keyed by ${filter} rather than answered 200 with a list; the specification gives ${filter} as an optional string filter and does not say what a value no record has gets`, `${filter} refused with 422`);
      }
      // A typed query binder's 400 (Spring's enum-bound @RequestParam, ASP.NET's enum binding): judged as the suites'
      // expectFilteredList judges it (review-as F1, carried here by review-at F4): in JSON advised on as a 422 is, not
      // JSON not verified (probably a gateway's, not the interface's).
      if (response.status === 400) {
        if (!response.isJson) probe.notVerified(`${filter}=${describeText(value)} was answered 400 with a body that is not JSON, probably not by the interface (a gateway's refusal)`);
        return probe.advise(`${filter}=${describeText(value)} is refused with 400 (a typed query binder) rather than answered 200 with a list; the specification gives ${filter} as an optional string filter and does not say what a value no record has gets`, `${filter} refused with 400`);
      }
      expectStatus(response, 200, `the list with ${filter}=${describeText(value)} (filters are optional strings, section ${clause}; 422 keyed by ${filter}, or a 400 in JSON, would also hold)`);
      expectShape(response, schema);
    },
  });
}

/** Section 7: a record id (UUID) that names none of the user's records answers 404 `{ message }`. */
export function unknownIdProperty<S extends Session>(show: EndpointChecks, clause: string, record: string, path: (userId: string, id: string) => string, arrange: (t: CheckContext) => Promise<S>): void {
  property(show, `a ${record} id (UUID) that names no ${record} of the user answers 404 with { message }`, { rules: [...schemaRules('error-message'), 'S19', 'S338', NOT_FOUND_RULE[clause]!], clauses: [clause, '7'], status: 404 }, {
    arbitrary: fc.uuid({ version: 4 }), // the version the service issues: 1.6 gives none, so a pipe that takes v4 only is a reading (review-an F6)
    runs: (base) => base / 4,
    arrange,
    probe: async (probe, id, { user, token }) => {
      const response = await probe.send({ method: 'GET', path: path(user.id, id), token });
      expectStatus(response, 404, `show of the unknown ${record} ${id}`);
      expectShape(response, 'error-message');
    },
  });
}

/** Section 5.6: a {user} that is not the caller's answers 403 or 409 with "This action is unauthorized.". */
export function otherUserProperty<S extends Session>(list: EndpointChecks, clause: string, what: string, path: (userId: string) => string, arrange: (t: CheckContext) => Promise<S>): void {
  property(list, 'a user id (UUID) that is not the caller\u2019s answers 403 or 409 with "This action is unauthorized."', { rules: [...schemaRules('error-message'), 'S17', 'S326', 'S327', 'S339'], clauses: [clause, '5', '7'], status: [403, 409] }, {
    arbitrary: fc.uuid({ version: 4 }), // the version the service issues: 1.6 gives none, so a pipe that takes v4 only is a reading (review-an F6)
    runs: (base) => base / 4,
    arrange,
    probe: async (probe, id, { token }) => expectOtherUserRefused(probe, await probe.send({ method: 'GET', path: path(id), token }), what),
  });
}
