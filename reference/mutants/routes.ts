/**
 * The interface's routes as the reference registers them (fastify templates: `request.routeOptions.url`), named once
 * for the mutants that rewrite a request or an answer of one route. A mutant compares a reply's route with these.
 */

export const AUTH = '/api/v1/authenticate';
export const JWT = '/api/v1/authenticate-jwt/:platform';
export const LOGOUT = '/api/v1/user/logout';
export const FORGOT = '/api/v1/user/forgot-password';
export const RESET = '/api/v1/user/reset-password';
export const COINS = '/api/v1/user/:user/balances';
export const COIN = '/api/v1/user/:user/balances/:asset';
export const NFTS = '/api/v1/user/:user/balances/nft';
export const NFT = '/api/v1/user/:user/balances/nft/:asset';
export const BANKS = '/api/v1/user/:user/bank';
export const BANK = '/api/v1/user/:user/bank/:bank';
export const CARDS = '/api/v1/user/:user/card';
export const CARD = '/api/v1/user/:user/card/:card';
export const BONUSES = '/api/v1/user/:user/bonus';
export const BONUS = '/api/v1/user/:user/bonus/:bonus';
export const SUMMARY = '/api/v1/user/:user/bonus/assets/:asset?';

export const COIN_ROUTES: readonly string[] = [COINS, COIN];
export const NFT_ROUTES: readonly string[] = [NFTS, NFT];
export const BALANCE_ROUTES: readonly string[] = [COINS, COIN, NFTS, NFT];
export const BANK_ROUTES: readonly string[] = [BANKS, BANK];
export const CARD_ROUTES: readonly string[] = [CARDS, CARD];
export const BONUS_ROUTES: readonly string[] = [BONUSES, BONUS];

/** The same routes as one object, for the white-box rounds that write `URL.bankList`. */
export const ROUTE = {
  login: AUTH,
  jwt: JWT,
  logout: LOGOUT,
  forgot: FORGOT,
  reset: RESET,
  coinList: COINS,
  coinOne: COIN,
  nftList: NFTS,
  nftOne: NFT,
  bankList: BANKS,
  bankOne: BANK,
  cardList: CARDS,
  cardOne: CARD,
  bonusList: BONUSES,
  bonusOne: BONUS,
  bonusSummary: SUMMARY,
  summary: SUMMARY,
} as const;
