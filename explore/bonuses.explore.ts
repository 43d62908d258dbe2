import fc from 'fast-check';
import { BONUS_STATUSES, userWithBonuses } from '../helpers/arrange/bonuses.js';
import { endpoint } from '../helpers/check/check.js';
import { property } from './engine.js';
import { expectShape, expectStatus, Nonconformance } from './judge.js';
import { filtersProperty, otherUserProperty, unknownIdProperty } from './paths.js';
import { schemaRules } from '../helpers/spec/rules.js';

/** Section 4.11: the `status` and `platform` queries of the bonus list and the show path, explored. */

const list = endpoint('GET /api/v1/user/{user}/bonus');
const show = endpoint('GET /api/v1/user/{user}/bonus/{bonus}');
const bonusesPath = (userId: string) => `/api/v1/user/${userId}/bonus`;

list.describe(() => {
  property(list, 'status distributed, pending or canceled lists only bonuses of that status', { rules: [...schemaRules('bonus-list-response'), 'S79', 'S263'], clauses: ['4.11'], status: 200 }, {
    arbitrary: fc.constantFrom(...BONUS_STATUSES),
    runs: (base) => base / 8,
    arrange: (t) => userWithBonuses(t),
    probe: async (probe, status, { user, token }) => {
      const response = await probe.send({ method: 'GET', path: bonusesPath(user.id), token, query: { status } });
      expectStatus(response, 200, `the list with status=${status}`);
      const { data } = expectShape(response, 'bonus-list-response');
      // Provider state bonuses holds bonuses in every status.
      if (data.length === 0) throw new Nonconformance(`status=${status} lists no bonus, but the user holds bonuses of every status (provider state bonuses)`);
      const others = data.filter((b: { status: string }) => b.status !== status);
      if (others.length > 0) throw new Nonconformance(`status=${status} also lists bonuses of status ${[...new Set(others.map((b: { status: string }) => b.status))].join(', ')}`);
    },
  });

  filtersProperty(list, '4.11', bonusesPath, (t) => userWithBonuses(t));
  otherUserProperty(list, '4.11', 'the bonus list', bonusesPath, (t) => userWithBonuses(t));
});

show.describe(() => {
  unknownIdProperty(show, '4.11', 'bonus', (userId, id) => `${bonusesPath(userId)}/${id}`, (t) => userWithBonuses(t));
});
