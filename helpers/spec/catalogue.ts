/**
 * The interface as a catalogue: its sections, its endpoints with every documented status, the
 * schema of their success and their query filters, and its field constraints. Coverage is computed
 * by matching test metadata against this catalogue, and a test that cites a section, endpoint or
 * constraint missing here fails to load.
 *
 * Written from the interface specification (version v1); section numbers are the specification's.
 */

export const SPEC = { title: 'User Account, Balance, Bank, Bonus and Card Interface', version: 'v1' } as const;

export const CLAUSES: Readonly<Record<string, string>> = {
  '1': 'General rules (paths, JSON, envelopes, timestamps, amounts, path segments)',
  '2.1': 'Session',
  '2.2': 'Balance record',
  '2.3': 'Asset summary',
  '2.4': 'Bank record',
  '2.5': 'Card record',
  '2.5a': 'Bonus record',
  '2.5b': 'Bonus asset summary',
  '2.6': 'User object',
  '2.7': 'Order object',
  '3': 'States and transitions',
  '4.1': 'POST /api/v1/authenticate-jwt/{platform}',
  '4.2': 'POST /api/v1/authenticate',
  '4.3': 'POST /api/v1/user/forgot-password',
  '4.4': 'POST /api/v1/user/reset-password',
  '4.5': 'POST /api/v1/user/logout',
  '4.6': 'GET /api/v1/user/{user}/balances/nft',
  '4.7': 'GET /api/v1/user/{user}/balances/nft/{asset}',
  '4.8': 'GET /api/v1/user/{user}/balances',
  '4.9': 'GET /api/v1/user/{user}/balances/{asset}',
  '4.10': 'Banks',
  '4.11': 'Bonuses',
  '4.6a': 'Cards',
  '5': 'Authentication',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

export type Group = 'authentication' | 'password' | 'balances' | 'banks' | 'bonuses' | 'cards';

export const GROUPS: readonly Group[] = ['authentication', 'password', 'balances', 'banks', 'bonuses', 'cards'];

export interface DocumentedStatus {
  status: number;
  /** What the specification says leads to this status. */
  condition: string;
  /** Statuses the specification allows interchangeably for the same condition (403 or 409). */
  alternatives?: number[];
}

/** An optional query parameter that section 4 names for a list (sections 4.6 to 4.11 and 4.6a). */
export interface QueryFilter {
  name: string;
  /** Its JSON Schema: a string unless the specification gives values (the bonus status) or repetition (`assets[]`). */
  schema: Record<string, unknown>;
  description: string;
}

export interface Endpoint {
  id: string; // "METHOD /api/v1/..." exactly as the specification writes the path
  group: Group;
  clauses: string[];
  /** Section 4: the schema (schemas/, by name) of the body of the documented success. */
  success: string;
  /** The optional query filters section 4 names for the endpoint. */
  query?: QueryFilter[];
  statuses: DocumentedStatus[];
}

/** Sections 4.6 and 4.8: the asset symbols to return, repeatable. */
const ASSETS_FILTER: QueryFilter[] = [{ name: 'assets[]', schema: { type: 'array', items: { type: 'string' } }, description: 'asset symbols to return (repeatable)' }];

/** Filters named without values or semantics: strings. */
const filters = (...names: string[]): QueryFilter[] => names.map((name) => ({ name, schema: { type: 'string' }, description: 'optional filter' }));

const UNAUTHORIZED_ACTION = 'action unauthorized (another user\u2019s resources): 403 or 409 with "This action is unauthorized."';

function owned(kind: 'balances' | 'record', extra: DocumentedStatus[] = []): DocumentedStatus[] {
  const base: DocumentedStatus[] = [
    { status: 401, condition: 'unauthenticated' },
    kind === 'balances'
      ? { status: 403, condition: UNAUTHORIZED_ACTION, alternatives: [409] }
      : { status: 403, condition: 'account inactive' },
    { status: 409, condition: UNAUTHORIZED_ACTION, alternatives: [403] },
  ];
  return [...base, ...extra];
}

const LOGIN_ERRORS: DocumentedStatus[] = [
  { status: 401, condition: 'account inactive' },
  { status: 403, condition: 'provided credentials incorrect' },
  { status: 423, condition: 'account locked' },
  { status: 425, condition: 'login restricted after brute force detection' },
];

export const ENDPOINTS: readonly Endpoint[] = [
  {
    id: 'POST /api/v1/authenticate-jwt/{platform}',
    group: 'authentication',
    clauses: ['4.1', '5'],
    success: 'session-response',
    statuses: [
      { status: 200, condition: 'valid platform JWT' },
      ...LOGIN_ERRORS,
      { status: 412, condition: 'JWT payload invalid' },
      { status: 416, condition: 'JWT expired' },
    ],
  },
  {
    id: 'POST /api/v1/authenticate',
    group: 'authentication',
    clauses: ['4.2', '5'],
    success: 'session-response',
    statuses: [
      { status: 200, condition: 'valid e-mail, password and, when enabled, 2FA code' },
      ...LOGIN_ERRORS,
      { status: 422, condition: 'field limits of section 8' },
    ],
  },
  {
    id: 'POST /api/v1/user/logout',
    group: 'authentication',
    clauses: ['4.5', '5'],
    success: 'logout-response',
    statuses: [
      { status: 200, condition: 'token destroyed' },
      { status: 401, condition: 'unauthenticated' },
    ],
  },
  {
    id: 'POST /api/v1/user/forgot-password',
    group: 'password',
    clauses: ['4.3'],
    success: 'message-response',
    statuses: [
      { status: 200, condition: 'reset e-mail sent' },
      { status: 422, condition: 'e-mail unknown or invalid field' },
    ],
  },
  {
    id: 'POST /api/v1/user/reset-password',
    group: 'password',
    clauses: ['4.4'],
    success: 'message-response',
    statuses: [
      { status: 200, condition: 'password changed' },
      { status: 422, condition: 'token invalid or invalid field' },
    ],
  },
  { id: 'GET /api/v1/user/{user}/balances/nft', group: 'balances', clauses: ['4.6'], success: 'balance-nft-list-response', query: ASSETS_FILTER, statuses: [{ status: 200, condition: 'NFT balances' }, ...owned('balances')] },
  { id: 'GET /api/v1/user/{user}/balances/nft/{asset}', group: 'balances', clauses: ['4.7'], success: 'balance-response', statuses: [{ status: 200, condition: 'one NFT balance' }, ...owned('balances')] },
  { id: 'GET /api/v1/user/{user}/balances', group: 'balances', clauses: ['4.8'], success: 'balance-coin-list-response', query: ASSETS_FILTER, statuses: [{ status: 200, condition: 'coin balances' }, ...owned('balances')] },
  { id: 'GET /api/v1/user/{user}/balances/{asset}', group: 'balances', clauses: ['4.9'], success: 'balance-response', statuses: [{ status: 200, condition: 'one coin balance' }, ...owned('balances')] },
  {
    id: 'POST /api/v1/user/{user}/bank',
    group: 'banks',
    clauses: ['4.10'],
    success: 'bank-response',
    statuses: [
      { status: 201, condition: 'bank created' },
      { status: 401, condition: 'unauthenticated' },
      { status: 403, condition: 'account inactive; action unauthorized' },
      // Section 4.10 lists 401, 403, 422 for create; section 7 gives 409 for bank actions that are unauthorized.
      { status: 409, condition: UNAUTHORIZED_ACTION, alternatives: [403] },
      { status: 422, condition: 'invalid field' },
    ],
  },
  { id: 'GET /api/v1/user/{user}/bank', group: 'banks', clauses: ['4.10'], success: 'bank-list-response', query: filters('status', 'currency', 'company', 'platform'), statuses: [{ status: 200, condition: 'banks listed' }, ...owned('record')] },
  {
    id: 'GET /api/v1/user/{user}/bank/{bank}',
    group: 'banks',
    clauses: ['4.10'],
    success: 'bank-response',
    statuses: [{ status: 200, condition: 'bank shown' }, ...owned('record', [{ status: 404, condition: 'no record found' }])],
  },
  {
    id: 'DELETE /api/v1/user/{user}/bank/{bank}',
    group: 'banks',
    clauses: ['4.10', '3'],
    success: 'bank-delete-response',
    statuses: [
      { status: 200, condition: 'bank deleted' },
      { status: 401, condition: 'unauthenticated' },
      { status: 403, condition: 'account inactive; action unauthorized; bank already used in previous actions' },
      { status: 409, condition: UNAUTHORIZED_ACTION, alternatives: [403] },
    ],
  },
  {
    id: 'GET /api/v1/user/{user}/bonus/assets/{asset?}',
    group: 'bonuses',
    clauses: ['4.11'],
    success: 'bonus-asset-summary-list-response',
    statuses: [
      { status: 200, condition: 'bonus asset summaries' },
      { status: 401, condition: 'unauthenticated' },
      { status: 403, condition: 'account inactive; action unauthorized' },
      // Section 4.11 lists 401, 403 for the summary; section 7 gives 409 for bonus actions that are unauthorized.
      { status: 409, condition: UNAUTHORIZED_ACTION, alternatives: [403] },
    ],
  },
  {
    id: 'GET /api/v1/user/{user}/bonus',
    group: 'bonuses',
    clauses: ['4.11'],
    success: 'bonus-list-response',
    query: [{ name: 'status', schema: { type: 'string', enum: ['distributed', 'pending', 'canceled'] }, description: 'optional filter' }, ...filters('platform')],
    statuses: [{ status: 200, condition: 'bonuses listed' }, ...owned('record')],
  },
  {
    id: 'GET /api/v1/user/{user}/bonus/{bonus}',
    group: 'bonuses',
    clauses: ['4.11'],
    success: 'bonus-response',
    statuses: [{ status: 200, condition: 'bonus shown' }, ...owned('record', [{ status: 404, condition: 'no record found' }])],
  },
  {
    id: 'POST /api/v1/user/{user}/card',
    group: 'cards',
    clauses: ['4.6a'],
    success: 'card-response',
    statuses: [
      { status: 201, condition: 'card created' },
      { status: 401, condition: 'unauthenticated' },
      { status: 403, condition: 'account inactive; action unauthorized' },
      // Section 4.6a lists 401, 403, 422 for create; section 7 gives 409 for card actions that are unauthorized.
      { status: 409, condition: UNAUTHORIZED_ACTION, alternatives: [403] },
      { status: 422, condition: 'invalid or missing field' },
    ],
  },
  { id: 'GET /api/v1/user/{user}/card', group: 'cards', clauses: ['4.6a'], success: 'card-list-response', query: filters('status', 'company', 'platform'), statuses: [{ status: 200, condition: 'cards listed' }, ...owned('record')] },
  {
    id: 'GET /api/v1/user/{user}/card/{card}',
    group: 'cards',
    clauses: ['4.6a'],
    success: 'card-response',
    statuses: [{ status: 200, condition: 'card shown' }, ...owned('record', [{ status: 404, condition: 'no record found' }])],
  },
];

export interface Constraint {
  id: string;
  endpoint: string;
  field: string;
  rule: string;
  clauses: string[];
  /** Why no client can tell whether the target enforces it; such a constraint is reported, never claimed. */
  unobservable?: string;
}

const UNKNOWN_EMAIL_422 = 'any address that breaks it is also unknown, and section 4.3 answers an unknown e-mail with the same 422 keyed by email';
const INVALID_TOKEN_422 = 'any token that breaks it is also invalid, and section 4.4 answers an invalid token with the same 422 keyed by token';

/** Constraints the interface makes indistinguishable from another documented answer. */
const UNOBSERVABLE: Readonly<Record<string, string>> = {
  'forgot.email.required': UNKNOWN_EMAIL_422,
  'forgot.email.format': UNKNOWN_EMAIL_422,
  'reset.token.required': INVALID_TOKEN_422,
  'reset.token.max': INVALID_TOKEN_422,
};

/** The constraints that section 8 (Limits) lists; the others are stated only in section 4. */
const SECTION_8 = new Set([
  'authenticate.email.max', 'authenticate.password.min', 'authenticate.password.max', 'authenticate.2fa.digits',
  'forgot.email.max', 'reset.email.max', 'reset.token.max', 'reset.password.min', 'reset.password.max',
  'bank.bankName.max', 'bank.iban.max', 'bank.iban.unique', 'bank.swift.length',
  'card.cardImage1.type', 'card.cardImage1.max', 'card.cardImage2.type', 'card.cardImage2.max',
  'card.holderName.max', 'card.alias.max', 'card.lastFourDigits.digits',
]);

function constraints(endpoint: string, section: string, prefix: string, rows: [field: string, rule: string, ids: string][]): Constraint[] {
  return rows.map(([field, rule, suffix]) => {
    const id = `${prefix}.${field}.${suffix}`;
    const unobservable = UNOBSERVABLE[id];
    return { id, endpoint, field, rule, clauses: SECTION_8.has(id) ? [section, '8'] : [section], ...(unobservable ? { unobservable } : {}) };
  });
}

export const CONSTRAINTS: readonly Constraint[] = [
  ...constraints('POST /api/v1/authenticate', '4.2', 'authenticate', [
    ['email', 'required', 'required'],
    ['email', 'a valid e-mail', 'format'],
    ['email', 'at most 191 characters', 'max'],
    ['password', 'required', 'required'],
    ['password', 'at least 8 characters', 'min'],
    ['password', 'at most 191 characters', 'max'],
    ['2fa', 'exactly 6 digits', 'digits'],
  ]),
  ...constraints('POST /api/v1/user/forgot-password', '4.3', 'forgot', [
    ['email', 'required', 'required'],
    ['email', 'a valid e-mail', 'format'],
    ['email', 'at most 255 characters', 'max'],
    ['type', 'null, text or link', 'enum'],
  ]),
  ...constraints('POST /api/v1/user/reset-password', '4.4', 'reset', [
    ['email', 'required', 'required'],
    ['email', 'a valid e-mail', 'format'],
    ['email', 'at most 255 characters', 'max'],
    ['token', 'required', 'required'],
    ['token', 'at most 255 characters', 'max'],
    ['password', 'required', 'required'],
    ['password', 'at least 8 characters', 'min'],
    ['password', 'at most 191 characters', 'max'],
  ]),
  ...constraints('POST /api/v1/user/{user}/bank', '4.10', 'bank', [
    ['bankName', 'required', 'required'],
    ['bankName', 'a string', 'string'],
    ['bankName', 'at most 191 characters', 'max'],
    ['iban', 'required', 'required'],
    ['iban', 'a string', 'string'],
    ['iban', 'at most 191 characters', 'max'],
    ['iban', 'alphanumeric', 'alphanumeric'],
    ['iban', 'unique', 'unique'],
    ['swift', 'required', 'required'],
    ['swift', 'a string', 'string'],
    ['swift', 'alphanumeric', 'alphanumeric'],
    ['swift', '8 to 11 characters', 'length'],
    ['currency', 'required', 'required'],
    ['currency', 'a string', 'string'],
    ['currency', 'alphanumeric', 'alphanumeric'],
    ['currency', 'a valid ISO currency code', 'iso'],
  ]),
  ...constraints('POST /api/v1/user/{user}/card', '4.6a', 'card', [
    ['cardImage1', 'required', 'required'],
    ['cardImage1', 'jpg, jpeg, bmp or png image', 'type'],
    ['cardImage1', 'at most 10240 KB', 'max'],
    ['cardImage2', 'required', 'required'],
    ['cardImage2', 'jpg, jpeg, bmp or png image', 'type'],
    ['cardImage2', 'at most 10240 KB', 'max'],
    ['holderName', 'required', 'required'],
    ['holderName', 'at most 191 characters', 'max'],
    ['expirationDate', 'required unless expirationMonth and expirationYear are given', 'required'],
    ['expirationDate', 'format m/y', 'format'],
    ['expirationDate', 'not in the past', 'future'],
    ['expirationMonth', 'required with expirationYear', 'required-with'],
    ['expirationMonth', 'format m', 'format'],
    ['expirationYear', 'required with expirationMonth', 'required-with'],
    ['expirationYear', 'format y', 'format'],
    ['expirationYear', 'not in the past', 'future'],
    ['lastFourDigits', 'required', 'required'],
    ['lastFourDigits', 'exactly 4 digits', 'digits'],
    ['alias', 'required', 'required'],
    ['alias', 'at most 191 characters', 'max'],
  ]),
];

export const endpointById = new Map(ENDPOINTS.map((e) => [e.id, e]));
export const constraintById = new Map(CONSTRAINTS.map((c) => [c.id, c]));

/**
 * The path shapes of an endpoint: one, unless its template ends in an optional segment (`{asset?}` of
 * the bonus asset summary, section 4.11), which gives two: without the segment and with it. A rule of
 * every route applies to each shape (rules with instances, helpers/spec/instances.ts).
 */
export function pathShapes(endpoint: Pick<Endpoint, 'id'>): string[] {
  const optional = /\{(\w+)\?\}$/.exec(endpoint.id);
  return optional ? [`without {${optional[1]}}`, `with {${optional[1]}}`] : [''];
}

/** Every documented (endpoint, status) pair: the rows of the certification coverage matrix. */
export function documentedPairs(): { endpoint: Endpoint; status: DocumentedStatus }[] {
  return ENDPOINTS.flatMap((endpoint) => endpoint.statuses.map((status) => ({ endpoint, status })));
}
