import { loadSchemaDocuments } from './schemas.js';

/**
 * The members section 2 names for a record, as the schemas (the single source of truth for shapes) give them: a tree
 * of named members, each leaf with the kind its comparison between two reads needs. Two reads of one record (a show
 * and a list, a filtered list and an unfiltered one) are compared member by member over this tree, recursively, so a
 * member the schemas name is compared without a list of fields written out by hand; a member no schema names (an extra
 * one, which no schema forbids) is never compared, since nothing says it is stable.
 */
export type MemberKind = 'decimal' | 'precision' | 'value';
export interface MemberTree {
  kind: MemberKind;
  /** The members a schema names for an object; absent for a leaf (a member whose members no schema names). */
  members?: Readonly<Record<string, MemberTree>>;
}

type Schema = Record<string, unknown>;

/** The kind of a leaf by the definition of schemas/common.json it refers to. */
const LEAF_KINDS: Readonly<Record<string, MemberKind>> = { decimalString: 'decimal', numericString: 'precision' };

function treeOf(documents: Map<string, Schema>, document: string, node: Schema): MemberTree {
  if (typeof node.$ref === 'string') {
    const [file, pointer = ''] = node.$ref.split('#');
    const target = file ? file.replace(/\.json$/, '') : document;
    let resolved: unknown = documents.get(target);
    for (const key of pointer.split('/').filter(Boolean)) resolved = (resolved as Schema | undefined)?.[key];
    if (!resolved || typeof resolved !== 'object') throw new Error(`schemas: ${document} refers to ${node.$ref}, which is not there`);
    const leaf = pointer.startsWith('/$defs/') ? LEAF_KINDS[pointer.slice('/$defs/'.length)] : undefined;
    return leaf ? { kind: leaf } : treeOf(documents, target, resolved as Schema);
  }
  // A nullable leaf written `anyOf: [<a definition of common.json>, { type: null }]` (an order's payment amount) has
  // that definition's kind: null compares as itself, a value in any writing of it.
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf as Schema[];
    const typed = branches.filter((branch) => branch.type !== 'null');
    if (typed.length === 1 && branches.length === 2 && typeof typed[0]!.$ref === 'string' && !typed[0]!.properties) {
      const tree = treeOf(documents, document, typed[0]!);
      if (!tree.members) return tree;
    }
  }
  const properties = node.properties as Record<string, Schema> | undefined;
  if (!properties) return { kind: 'value' };
  return { kind: 'value', members: Object.fromEntries(Object.entries(properties).map(([name, member]) => [name, treeOf(documents, document, member)])) };
}

const trees = new Map<string, MemberTree>();

/** The member tree of the record a schema of schemas/ describes (by name: `bonus`), read once. */
export function memberTree(schema: string): MemberTree {
  let tree = trees.get(schema);
  if (!tree) {
    const documents = loadSchemaDocuments() as Map<string, Schema>;
    const root = documents.get(schema);
    if (!root) throw new Error(`schemas: no schema ${schema}`);
    tree = treeOf(documents, schema, root);
    trees.set(schema, tree);
  }
  return tree;
}

/** The subtree of a dotted member path (`order.payment`), or undefined where the tree names no such member. */
export function subtree(tree: MemberTree | undefined, path: string): MemberTree | undefined {
  if (path === '') return tree;
  return path.split('.').reduce<MemberTree | undefined>((node, key) => node?.members?.[key], tree);
}

/**
 * Members of a bonus (2.5a, with its user 2.6 and its order 2.7) that the specification leaves free to move between two
 * reads a moment apart (docs/judging.md, "Transitions between reads"). Section 3 names the statuses of a bonus, an order
 * and a user and shows no transition; what moves with them is here, each with its reason. Every other member a bonus's
 * schema names (its id, amount, asset; the order's ids, types, symbols, assets, quote, parentOrder, platform and
 * createdAt; the user's id, e-mail, options, meta and createdAt) is the record's own and must read alike.
 *
 * `moving`: judged by the sandwich: a member two reads give otherwise fails only where a list read after the second
 * gives it as the first did (else the record moved between them: advised on).
 * `withOrderStatus`: an order's status and its fill, which may be set when the order moves (filled at a rate: its
 * amounts, its commissions, its transaction, wallet, payment, mode and child order); where both reads give the order one
 * status, judged by the sandwich like `moving` (a fill may come in parts, a proof be uploaded, a count-down run, with no
 * move of its status); where they give it two, not judged (advised on: a show may read the order where it is filled, a
 * list where it was placed, allowed-wb9-bonus-order-filled-between-reads).
 */
export const BONUS_MEMBERS_FREE: { moving: readonly string[]; withOrderStatus: readonly string[] } = {
  moving: [
    'status', // section 3: distributed, pending, canceled; transitions not shown
    'bonusedAt', // dated when the bonus settles (allowed-bonus-pending-settled-when-listed, allowed-r12-bonused-at-zero-until-distributed)
    'user.status', // section 3: the user's status (active seen)
    'user.isActive', // moves with the user's status (5.6: inactive accounts)
    'user.tradeStatus', // a trading permission, granted or withdrawn with the account's status
    'user.selfDeleted', // a self-deletion is a transition of the account
    'user.deletedAt',
  ],
  // Section 3: the order's status (REJECTED seen), its reason and its fill.
  withOrderStatus: ['order.status', 'order.statusReason', 'order.fromAmount', 'order.toAmount', 'order.rate', 'order.commissions', 'order.txId', 'order.wallet', 'order.walletAddress', 'order.childOrder', 'order.payment', 'order.mode', 'order.updates', 'order.transfer', 'order.meta'],
};

/** True when a dotted member path is one of `members` or lies inside one. */
export const isUnder = (path: string, members: readonly string[]): boolean => members.some((member) => path === member || path.startsWith(`${member}.`));
