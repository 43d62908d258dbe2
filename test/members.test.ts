import { describe, expect, it } from 'vitest';
import { memberDifferences } from '../helpers/arrange/invariants.js';
import { BONUS_MEMBERS_FREE, isUnder, memberTree, subtree, type MemberTree } from '../helpers/spec/members.js';

// helpers/spec/members.ts and memberDifferences (helpers/arrange/invariants.ts): two reads of a bonus compared member
// by member over every member its schemas name (round wb11), so no member of 2.5a, 2.6 or 2.7 is left out by a list
// written by hand, and the members free to move between reads are a short list that names real members.

/** Every leaf member of a tree, dotted. */
function leaves(tree: MemberTree, path = ''): string[] {
  if (!tree.members) return [path];
  return Object.entries(tree.members).flatMap(([name, member]) => leaves(member, path ? `${path}.${name}` : name));
}

const bonus = () => ({
  id: '0b6f3a2e-8d8b-4a4e-9c59-6f1f4d2a0c11',
  amount: '1.50',
  status: 'pending',
  asset: { name: 'Bitcoin', symbol: 'BTC', alias: null, type: 'coin', precision: '8' },
  user: { id: 'aa6f3a2e-8d8b-4a4e-9c59-6f1f4d2a0c11', tradeStatus: true, options: { language: 'en', guard: { antiPhishing: 'ab***', actions: { login: { '2fa': false, password: true } } } } },
  order: {
    id: 'cc6f3a2e-8d8b-4a4e-9c59-6f1f4d2a0c11',
    typeOperationName: 'buy_with_fiat',
    rate: '0.5',
    quote: { id: 'q1', publicId: 'Q-1' },
    payment: { currency: 'EUR', meta: { b: 1, a: 2 }, feeAmount: '0.10' },
    meta: { main: [{ key: 'a' }, { key: 'b' }] },
    updatedAt: 1,
  },
});

describe('the member tree of a bonus (schemas/bonus.json and the schemas it refers to)', () => {
  const tree = memberTree('bonus');
  const all = leaves(tree);

  it('names every member of the bonus, its user, asset and order, down to the leaves', () => {
    for (const member of ['id', 'amount', 'status', 'bonusedAt', 'asset.precision', 'user.tradeStatus', 'user.options.guard.actions.login.2fa', 'user.selfDeleted.dates.deleted', 'order.typeOperationName', 'order.quote.publicId', 'order.parentOrder.id', 'order.payment.lifeUntilAt', 'order.payment.feePercent', 'order.commissions.percent', 'order.mode.expireAt', 'order.updates.wallet.url', 'order.externalPlatform.urls.widget', 'order.transfer', 'order.meta.main']) {
      expect(all, member).toContain(member);
    }
    expect(subtree(tree, 'order.rate')?.kind).toBe('decimal');
    expect(subtree(tree, 'order.fromAsset.precision')?.kind).toBe('precision');
    // A nullable decimal (anyOf decimalString or null: round wb14) is a decimal leaf; a nullable timestamp stays a value.
    expect(subtree(tree, 'order.payment.amount')?.kind).toBe('decimal');
    expect(subtree(tree, 'user.deletedAt')?.kind).toBe('value');
  });

  it('lists as free to move only members the tree names, and leaves the record\u2019s own members out', () => {
    for (const member of [...BONUS_MEMBERS_FREE.moving, ...BONUS_MEMBERS_FREE.withOrderStatus]) expect(subtree(tree, member), member).toBeDefined();
    const free = [...BONUS_MEMBERS_FREE.moving, ...BONUS_MEMBERS_FREE.withOrderStatus];
    for (const own of ['id', 'amount', 'asset.symbol', 'createdAt', 'user.id', 'user.email', 'user.createdAt', 'order.id', 'order.publicId', 'order.typeOperationName', 'order.quote.id', 'order.parentOrder.id', 'order.fromAsset.symbol', 'order.externalPlatform.code', 'order.createdAt']) {
      expect(isUnder(own, free), own).toBe(false);
    }
    expect(isUnder('order.payment.currency', free)).toBe(true);
    expect(isUnder('user.tradeStatus', free)).toBe(true);
  });
});

describe('memberDifferences: two reads of a bonus, member by member', () => {
  const tree = memberTree('bonus');

  it('finds none between two writings of one value', () => {
    const other = bonus();
    other.id = other.id.toUpperCase();
    other.amount = '1.5';
    other.asset.precision = 8 as never;
    other.order.rate = '.50';
    other.order.payment.meta = { a: 2, b: 1 };
    other.order.meta.main = [{ key: 'b' }, { key: 'a' }];
    expect(memberDifferences(tree, bonus(), other)).toEqual([]);
  });

  it('names each differing member by its path, at any depth', () => {
    const other = bonus();
    other.order.typeOperationName = 'BUY_WITH_FIAT';
    other.order.quote = { id: other.order.id, publicId: 'Q-1' };
    other.order.payment.currency = 'BTC';
    other.user.tradeStatus = false;
    other.user.options.guard.actions.login['2fa'] = true;
    expect(memberDifferences(tree, bonus(), other).sort()).toEqual(['order.payment.currency', 'order.quote.id', 'order.typeOperationName', 'user.options.guard.actions.login.2fa', 'user.tradeStatus']);
  });

  it('compares only the members the schemas name and both reads give', () => {
    const other = bonus();
    other.order.updatedAt = 2; // not named by 2.7: an extra member, nothing says it is stable
    delete (other.order as Record<string, unknown>).rate; // given by one read only: the schema checks' concern
    expect(memberDifferences(tree, bonus(), other)).toEqual([]);
  });

  it('takes a member given as null by one read and as an object by the other as one difference', () => {
    const other = bonus();
    (other.order as Record<string, unknown>).payment = null;
    expect(memberDifferences(tree, bonus(), other)).toEqual(['order.payment']);
  });
});
