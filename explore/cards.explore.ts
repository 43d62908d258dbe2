import fc from 'fast-check';
import { cardForm, monthYear, type CardFields } from '../helpers/arrange/cards.js';
import { endpoint, type CheckContext } from '../helpers/check/check.js';
import { userWithToken } from '../helpers/arrange/flows.js';
import { twoByteText } from '../helpers/arrange/text.js';
import { property, type Probe } from './engine.js';
import { filtersProperty, otherUserProperty, unknownIdProperty, type Session } from './paths.js';
import { expectRefusedForAny, expectShape, expectStatus, expectStoredAsSent, judgeRule } from './judge.js';
import { digit, bmpChar, blank, describeText, digitsVerdict, lengthVerdict, REWRITTEN_TEXT, textBetween, textOfLength } from './values.js';
import { schemaRules } from '../helpers/spec/rules.js';

/**
 * Section 4.6a with 7 and 8: the text fields of card create, the list filters and the show path,
 * explored. Cards cannot be deleted through the interface, so only the property of values inside
 * the rules creates cards, with a small share of the budget (each run reports how many); the
 * properties of values outside the rules create none unless the target wrongly accepts one. The
 * form's fields are multipart text, so other JSON types do not apply here.
 */

const create = endpoint('POST /api/v1/user/{user}/card');
const list = endpoint('GET /api/v1/user/{user}/card');
const show = endpoint('GET /api/v1/user/{user}/card/{card}');

const cardsPath = (userId: string) => `/api/v1/user/${userId}/card`;
const arrange = (t: CheckContext): Promise<Session> => userWithToken(t);

async function createCard(probe: Probe, { user, token }: Session, fields: CardFields) {
  const response = await probe.send({ method: 'POST', path: cardsPath(user.id), token, form: cardForm(fields).form });
  if (response.status === 201) probe.cardCreated();
  return response;
}

create.describe(() => {
  property(create, 'holderName, alias and lastFourDigits inside the rules of sections 4.6a and 8 are accepted (201) and stored as sent', { rules: [...schemaRules('card-response'), 'S276', 'S277', 'S314', 'S316'], clauses: ['4.6a', '8'], status: 201, constraint: 'card.holderName.max' }, {
    arbitrary: fc.record({ holderName: textBetween(1, 191).filter((s) => !blank(s)), alias: textBetween(1, 191).filter((s) => !blank(s)), lastFourDigits: textOfLength(4, digit) }),
    // The boundary, tried first (characters, not bytes).
    // Then texts with compatibility characters and invisible format characters (REWRITTEN_TEXT; review-an F5).
    examples: [{ holderName: twoByteText(191), alias: twoByteText(191), lastFourDigits: '0042' }, { holderName: REWRITTEN_TEXT, alias: `My ${REWRITTEN_TEXT}`, lastFourDigits: '4242' }],
    // Cards stay on the target: a 25th of the budget (4 cards by default), at least two.
    runs: (base) => Math.max(2, base / 25),
    // Every shrink step that a target accepts would create one more card: the first counterexample is reported as found.
    shrink: false,
    show: (v) => `holderName ${describeText(v.holderName)}, alias ${describeText(v.alias)}, lastFourDigits ${v.lastFourDigits}`,
    arrange,
    probe: async (probe, v, session) => {
      const response = await createCard(probe, session, v);
      const verdicts = { holderName: lengthVerdict(v.holderName, 1, 191), alias: lengthVerdict(v.alias, 1, 191) };
      judgeRule(probe, response, 'holderName', 'at most 191 characters', verdicts.holderName, v.holderName, true);
      judgeRule(probe, response, 'alias', 'at most 191 characters', verdicts.alias, v.alias, true);
      judgeRule(probe, response, 'lastFourDigits', 'exactly 4 digits', 'inside', v.lastFourDigits, true);
      if ((verdicts.holderName !== 'inside' || verdicts.alias !== 'inside') && response.status === 422) return;
      expectStatus(response, 201, 'a card whose every field keeps its rules');
      const { data } = expectShape(response, 'card-response');
      expectStoredAsSent(probe, 'holderName', data.holderName, v.holderName);
      expectStoredAsSent(probe, 'alias', data.alias, v.alias);
      expectStoredAsSent(probe, 'lastFourDigits', data.lastFourDigits, v.lastFourDigits);
    },
  });

  const later = monthYear(30);
  const outside: { field: keyof CardFields; rule: string; arbitrary: fc.Arbitrary<string>; verdict: (value: string) => 'inside' | 'outside' | 'ambiguous'; constraint: string; clauses: string[] }[] = [
    { field: 'holderName', rule: 'at most 191 characters', arbitrary: textBetween(192, 250), verdict: (s) => lengthVerdict(s, 0, 191), constraint: 'card.holderName.max', clauses: ['4.6a', '8', '7'] },
    { field: 'alias', rule: 'at most 191 characters', arbitrary: textBetween(192, 250), verdict: (s) => lengthVerdict(s, 0, 191), constraint: 'card.alias.max', clauses: ['4.6a', '8', '7'] },
    {
      field: 'lastFourDigits',
      rule: 'exactly 4 digits',
      arbitrary: fc.oneof(textOfLength(4, bmpChar), textBetween(1, 10, digit).filter((s) => s.length !== 4)),
      verdict: (s) => (blank(s) ? 'outside' : digitsVerdict(s, 4)),
      constraint: 'card.lastFourDigits.digits',
      clauses: ['4.6a', '8', '7'],
    },
    {
      field: 'expirationDate',
      rule: 'format m/y',
      arbitrary: textBetween(1, 12, bmpChar.filter((c) => c !== '/')),
      verdict: () => 'outside',
      constraint: 'card.expirationDate.format',
      clauses: ['4.6a', '7'],
    },
  ];
  for (const { field, rule, arbitrary, verdict, constraint, clauses } of outside) {
    property(create, `a ${field} outside "${rule}" is refused with 422 keyed by ${field} `, { rules: [...schemaRules('error-validation'), 'S286'], clauses, status: 422, constraint }, {
      // Only values outside the rule under every reading: an inside or ambiguous one may create a card.
      arbitrary: arbitrary.filter((value) => verdict(value) === 'outside'),
      shrink: false,
            runs: (base) => base / 4,
      show: describeText,
      arrange,
      probe: async (probe, value, session) => {
        const fields: CardFields = field === 'expirationDate' ? { expirationDate: value } : { [field]: value, expirationDate: later.date };
        const response = await createCard(probe, session, fields);
        // A blank expirationDate may be read as none, and then expirationMonth and expirationYear are "required when
        // expirationDate is absent" (4.6a): any of the three may key the 422, as in the fixed rows.
        if (field === 'expirationDate' && blank(value)) return expectRefusedForAny(probe, response, ['expirationDate', 'expirationMonth', 'expirationYear'], rule);
        judgeRule(probe, response, field, rule, 'outside', value, false);
      },
    });
  }
});

list.describe(() => {
  filtersProperty(list, '4.6a', cardsPath, arrange);
  otherUserProperty(list, '4.6a', 'the card list', cardsPath, arrange);
});

show.describe(() => {
  unknownIdProperty(show, '4.6a', 'card', (userId, id) => `${cardsPath(userId)}/${id}`, arrange);
});
