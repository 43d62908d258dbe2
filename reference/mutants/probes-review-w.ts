import type { FastifyReply } from 'fastify';
import type { WireAnswer } from '../mutation.js';
import type { Mutant } from './types.js';
import { onParsedBody, only, ownCompany, queryOf, reading, routeOf } from './reading.js';

/**
 * review-w probes (review of round wb15's fixes and the r19 quote folding), registered: the smart-quote store survived
 * the symmetric quote fold and is killed since it is one way; the bank list refusing `company` with 422 after
 * authentication is an allowed reading; before authentication it is a judged deviation (5.3: a request without valid
 * authentication is answered 401; docs/judging.md, the access table row).
 */
const BANKS = '/api/v1/user/:user/bank';

/** Straight quotes written typographic (a SmartyPants-like input filter): the mirror of r19's straightening. */
const SMART = (text: string): string => text.replace(/'/g, '\u2019').replace(/"/g, '\u201D');

/** The bank list refuses a `company` that is no BIC institution code (four letters), 422 keyed by company. */
function companyRefused(beforeAuth: boolean) {
  return {
    wire(answer: WireAnswer, reply: FastifyReply) {
      if (answer.method !== 'GET' || answer.url !== BANKS || answer.status === 422) return undefined;
      if (!beforeAuth && answer.status === 401) return undefined;
      const company = queryOf(reply).company;
      if (company === undefined || (typeof company === 'string' && /^[A-Za-z]{4}$/.test(company))) return undefined;
      reply.code(422);
      return JSON.stringify({ message: 'The selected company is invalid.', errors: { company: ['The selected company is invalid.'] } });
    },
    // Its hook gives no company (one written before docs/provider-states.md added it): the reference's value, a platform
    // code, is no institution code this list takes, and the reference compares a four-letter one with no bank's platform.
    state: ownCompany('bank.two-platforms', () => undefined),
  };
}

export const probesReviewWMutants: readonly Mutant[] = [
  {
    name: 'review-w-banks-texts-smart-quoted',
    clause: '4.10',
    group: 'banks',
    description: 'sections 4.10/2.4: a bank create stores bankName with its straight quotes written typographic (\' as \u2019, " as \u201D: an input typography filter), so the bank holds another name than the one sent',
    mutation: {
      request(request) {
        if (request.method === 'POST' && routeOf(request) === BANKS) onParsedBody(request, (body) => {
          if (typeof body.bankName === 'string') body.bankName = SMART(body.bankName);
        });
      },
    },
  },
  reading(
    'allowed-review-w-bank-list-company-refused-after-auth',
    'banks',
    '4.10',
    'the bank list takes `company` as a BIC institution code only: any other value is refused with 422 keyed by company, after authentication and before the owner and account checks (a form request validated before the policy)',
    companyRefused(false),
    only('banks'),
  ),
  {
    name: 'review-w-bank-list-company-refused-before-auth',
    clause: '5',
    group: 'banks',
    description: 'sections 5.3/7: the bank list validates `company` as a BIC institution code before authentication, so a request without a token that names another company is answered 422 instead of 401 (5.3: "without valid authentication the response is 401") — judged a deviation (docs/judging.md, the access table: the no-token row answers 401 under a filter too)',
    mutation: companyRefused(true),
  },
];
