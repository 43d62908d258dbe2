import fc from 'fast-check';
import { BONUS_STATUSES, userWithBonuses } from '../helpers/bonuses.js';
import { endpoint } from '../helpers/check.js';
import { property } from './engine.js';
import { expectOtherUserRefused, expectShape, expectStatus, Nonconformance } from './judge.js';
import { describeText, textBetween } from './values.js';

/** Section 4.11: the `status` and `platform` queries of the bonus list and the show path, explored. */

const list = endpoint('GET /api/v1/user/{user}/bonus');
const show = endpoint('GET /api/v1/user/{user}/bonus/{bonus}');
const bonusesPath = (userId: string) => `/api/v1/user/${userId}/bonus`;

list.describe(() => {
  property(list, 'status distributed, pending or canceled lists only bonuses of that status', { clauses: ['4.11'], status: 200 }, {
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

  property(list, 'any text as the platform filter answers 200 with a list', { clauses: ['4.11'], status: 200 }, {
    arbitrary: textBetween(0, 40),
    runs: (base) => base / 4,
    show: describeText,
    arrange: (t) => userWithBonuses(t),
    probe: async (probe, platform, { user, token }) => {
      const response = await probe.send({ method: 'GET', path: bonusesPath(user.id), token, query: { platform } });
      expectStatus(response, 200, `the list with platform=${describeText(platform)} (an optional filter, section 4.11)`);
      expectShape(response, 'bonus-list-response');
    },
  });

  property(list, 'a user id (UUID) that is not the caller\u2019s answers 403 or 409 with "This action is unauthorized."', { clauses: ['4.11', '5', '7'], status: [403, 409] }, {
    arbitrary: fc.uuid(),
    runs: (base) => base / 4,
    arrange: (t) => userWithBonuses(t),
    probe: async (probe, id, { token }) => expectOtherUserRefused(probe, await probe.send({ method: 'GET', path: bonusesPath(id), token }), 'the bonus list'),
  });
});

show.describe(() => {
  property(show, 'a bonus id (UUID) that names no bonus of the user answers 404 with { message }', { clauses: ['4.11', '7'], status: 404 }, {
    arbitrary: fc.uuid(),
    runs: (base) => base / 4,
    arrange: (t) => userWithBonuses(t),
    probe: async (probe, id, { user, token }) => {
      const response = await probe.send({ method: 'GET', path: `${bonusesPath(user.id)}/${id}`, token });
      expectStatus(response, 404, `show of the unknown bonus ${id}`);
      expectShape(response, 'error-message');
    },
  });
});
