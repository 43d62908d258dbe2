/**
 * Every error the reference answers, in one table (section 7). Authentication failures and 401 on
 * protected endpoints use `{ error }`; the rest `{ message }`; validation `{ message, errors }`.
 */
export interface ErrorAnswer {
  status: number;
  body: Record<string, unknown>;
}

export const UNAUTHORIZED_MESSAGE = 'This action is unauthorized.';

export const ERRORS = {
  unauthenticated: (): ErrorAnswer => ({ status: 401, body: { error: 'Unauthenticated.' } }),
  loginInactive: (): ErrorAnswer => ({ status: 401, body: { error: 'Your account is inactive.' } }),
  wrongCredentials: (): ErrorAnswer => ({ status: 403, body: { error: 'The provided credentials are incorrect.' } }),
  locked: (): ErrorAnswer => ({ status: 423, body: { error: 'Your account is locked.' } }),
  throttled: (seconds: number): ErrorAnswer => ({ status: 425, body: { error: `Too many login attempts. Please try again in ${seconds} seconds.` } }),
  jwtInvalid: (): ErrorAnswer => ({ status: 412, body: { error: 'The JWT payload is invalid.' } }),
  jwtExpired: (): ErrorAnswer => ({ status: 416, body: { error: 'The JWT has expired.' } }),
  unauthorized: (status: 403 | 409): ErrorAnswer => ({ status, body: { message: UNAUTHORIZED_MESSAGE } }),
  accountInactive: (): ErrorAnswer => ({ status: 403, body: { message: 'Your account is inactive.' } }),
  notFound: (model: string, id: string): ErrorAnswer => ({ status: 404, body: { message: `No query results for model [${model}] ${id}` } }),
  routeNotFound: (): ErrorAnswer => ({ status: 404, body: { message: 'The route could not be found.' } }),
  bankUsed: (): ErrorAnswer => ({ status: 403, body: { message: 'This bank has been used in previous actions and cannot be deleted.' } }),
  malformedJson: (): ErrorAnswer => ({ status: 400, body: { message: 'The request body is not valid JSON.' } }),
  payloadTooLarge: (): ErrorAnswer => ({ status: 413, body: { message: 'The request is too large.' } }),
  validation: (errors: Record<string, string[]>): ErrorAnswer => {
    const messages = Object.values(errors).flat();
    const more = messages.length - 1;
    const message = more > 0 ? `${messages[0]} (and ${more} more error${more > 1 ? 's' : ''})` : (messages[0] ?? 'The given data was invalid.');
    return { status: 422, body: { message, errors } };
  },
} as const;

/** Thrown inside a handler to answer with one of the errors above. */
export class HttpAnswer extends Error {
  constructor(readonly answer: ErrorAnswer) {
    super(`${answer.status}`);
  }
}

export function fail(answer: ErrorAnswer): never {
  throw new HttpAnswer(answer);
}
