import fc from 'fast-check';
import { bankPath, banksPath, COMMON_CURRENCIES, randomAlphanumeric } from '../helpers/arrange/banks.js';
import { endpoint, type CheckContext } from '../helpers/check/check.js';
import { userWithToken } from '../helpers/arrange/flows.js';
import { twoByteText } from '../helpers/arrange/text.js';
import { property, type Probe } from './engine.js';
import { filtersProperty, otherUserProperty, unknownIdProperty, type Session } from './paths.js';
import { expectRefusedFor, expectShape, expectStatus, expectStoredAsSent, judgeRule, judgeType } from './judge.js';
import { alnumBetween, alnumWithPunctuation, blank, describeText, lengthVerdict, nonString, REWRITTEN_TEXT, textBetween } from './values.js';
import { schemaRules } from '../helpers/spec/rules.js';

/** Section 4.10 with 7 and 8: every field of bank create, the list filters and the show path, explored. */

const create = endpoint('POST /api/v1/user/{user}/bank');
const list = endpoint('GET /api/v1/user/{user}/bank');
const show = endpoint('GET /api/v1/user/{user}/bank/{bank}');

type BankField = 'bankName' | 'iban' | 'swift' | 'currency';

/** IBANs are unique across the target (4.10): each generated one gets a random prefix, so runs never collide. */
const uniqueIban = (tail: string) => `ZX${randomAlphanumeric(14)}${tail}`.slice(0, 191);
const validBody = () => ({ bankName: 'Explored Bank', iban: uniqueIban(''), swift: 'EXPLDEFF', currency: 'EUR' });

/** Sends a create; deletes whatever it created at once (banks are the one record the suite can remove). */
async function createOnce(probe: Probe, { user, token }: Session, json: Record<string, unknown>) {
  const response = await probe.send({ method: 'POST', path: banksPath(user.id), token, json });
  const id = response.status === 201 && response.isJson ? response.json?.data?.id : undefined;
  if (typeof id === 'string') await probe.read({ method: 'DELETE', path: bankPath(user.id, id), token });
  return response;
}

/**
 * A refused create leaves nothing behind: any bank the user holds anyway is deleted (the property's
 * own user holds none otherwise). Not a check: no mutant of the reference stores a refused bank.
 */
async function removeLeftovers(probe: Probe, { user, token }: Session) {
  const listed = await probe.read({ method: 'GET', path: banksPath(user.id), token });
  const data: unknown[] = listed.isJson && Array.isArray(listed.json?.data) ? listed.json.data : [];
  for (const bank of data) {
    const id = (bank as { id?: unknown })?.id;
    if (typeof id === 'string') await probe.read({ method: 'DELETE', path: bankPath(user.id, id), token });
  }
}

const arrange = (t: CheckContext): Promise<Session> => userWithToken(t);

create.describe(() => {
  property(create, 'bank fields inside the rules of sections 4.10 and 8 are accepted (201) and stored as sent', { rules: [...schemaRules('bank-response'), 'S217', 'S218', 'S231', 'S234', 'S235', 'S239', 'S240', 'S244'], clauses: ['4.10', '8'], status: 201 }, {
    arbitrary: fc.record({
      bankName: textBetween(1, 191).filter((s) => !blank(s)),
      ibanTail: alnumBetween(0, 175),
      swift: alnumBetween(8, 11),
      currency: fc.constantFrom(...COMMON_CURRENCIES),
    }),
    // The boundary, tried first and shrunk like generated values (characters, not bytes).
    // Then a name with compatibility characters (full-width letters, a ligature, a vulgar fraction) and invisible format
    // characters (a soft hyphen, a zero-width space): a store may keep it in NFKC or without them (review-an F5).
    examples: [{ bankName: twoByteText(191), ibanTail: '', swift: 'EXPLDEFF', currency: 'EUR' }, { bankName: REWRITTEN_TEXT, ibanTail: 'EX', swift: 'EXPLDEFF', currency: 'EUR' }],
    runs: (base) => base / 2,
    show: (v) => `bankName ${describeText(v.bankName)}, iban <unique prefix>${v.ibanTail}, swift ${v.swift}, currency ${v.currency}`,
    arrange,
    probe: async (probe, v, session) => {
      const json = { bankName: v.bankName, iban: uniqueIban(v.ibanTail), swift: v.swift, currency: v.currency };
      const response = await createOnce(probe, session, json);
      const verdict = lengthVerdict(v.bankName, 1, 191);
      judgeRule(probe, response, 'bankName', 'at most 191 characters', verdict, v.bankName, true);
      for (const field of ['iban', 'swift', 'currency'] as const) judgeRule(probe, response, field, 'section 4.10', 'inside', json[field], true);
      if (verdict !== 'inside' && response.status === 422) return;
      expectStatus(response, 201, 'a create whose every field keeps its rules');
      const { data } = expectShape(response, 'bank-response');
      expectStoredAsSent(probe, 'bankName', data.bankName, v.bankName);
      expectStoredAsSent(probe, 'iban', data.iban, json.iban);
    },
  });

  const outside: { field: BankField; rule: string; arbitrary: fc.Arbitrary<string>; examples?: string[] }[] = [
    { field: 'bankName', rule: 'at most 191 characters', arbitrary: textBetween(192, 260).filter((s) => lengthVerdict(s, 0, 191) === 'outside'), examples: [twoByteText(192)] },
    { field: 'iban', rule: 'alphanumeric, at most 191 characters', arbitrary: fc.oneof(alnumBetween(192, 240), alnumWithPunctuation(3, 40)) },
    { field: 'swift', rule: 'alphanumeric, 8 to 11 characters', arbitrary: fc.oneof(alnumBetween(1, 7), alnumBetween(12, 40), alnumWithPunctuation(8, 11)) },
    { field: 'currency', rule: 'alphanumeric, an ISO currency code', arbitrary: fc.oneof(alnumBetween(4, 12), alnumBetween(1, 2), alnumWithPunctuation(3, 6)) },
  ];
  const RULES_OF: Record<BankField, string[]> = { bankName: ['S231'], iban: ['S234', 'S235'], swift: ['S239', 'S240'], currency: ['S243', 'S244'] };
  for (const { field, rule, arbitrary, examples } of outside) {
    property(create, `a ${field} outside "${rule}" is refused with 422 keyed by ${field}`, { rules: [...schemaRules('error-validation'), 'S247', ...RULES_OF[field]], clauses: ['4.10', '8', '7'], status: 422 }, {
      arbitrary,
      ...(examples ? { examples } : {}),
      runs: (base) => base / 2,
      show: (value) => `${field} ${describeText(value)}`,
      arrange,
      probe: async (probe, value, session) => {
        const response = await createOnce(probe, session, { ...validBody(), [field]: value });
        expectRefusedFor(response, field, rule);
        await removeLeftovers(probe, session);
      },
    });
  }

  property(create, 'a JSON number, boolean, array or object where section 4.10 documents a string is refused with 422 keyed by the field', { rules: [...schemaRules('error-validation'), 'S230', 'S233', 'S238', 'S242', 'S247'], clauses: ['4.10', '7'], status: 422 }, {
    arbitrary: fc.record({ field: fc.constantFrom<BankField>('bankName', 'iban', 'swift', 'currency'), value: nonString }),
    // 978 is EUR's ISO 4217 numeric code: a target may take it for the code, which a random number seldom hits.
    examples: [{ field: 'bankName', value: 12345 }, { field: 'currency', value: 978 }],
    runs: (base) => base / 2,
    arrange,
    probe: async (probe, { field, value }, session) => {
      const response = await createOnce(probe, session, { ...validBody(), [field]: value });
      judgeType(probe, response, field, value, true);
      await removeLeftovers(probe, session);
    },
  });
});

list.describe(() => {
  filtersProperty(list, '4.10', banksPath, arrange);
  otherUserProperty(list, '4.10', 'the bank list', banksPath, arrange);
});

show.describe(() => {
  unknownIdProperty(show, '4.10', 'bank', bankPath, arrange);
});
