import { suiteVersion } from '../spec/version.js';

/**
 * The User-Agent the suite's client sends on every request to the target and to the states hook (RFC 9110 10.1.5:
 * "A user agent SHOULD send a User-Agent header field in each request"; a firewall such as AWS WAF's core rule set,
 * NoUserAgent_HEADER, blocks requests without one: round r14). A `--header 'User-Agent: ...'` of the user replaces it.
 */
export const USER_AGENT = `account-api-conformance/${suiteVersion()}`;

/** The default headers of every request: the suite's User-Agent, under the user's and the request's own headers. */
export const withUserAgent = (headers: Record<string, string> = {}): Record<string, string> =>
  Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent') ? { ...headers } : { 'user-agent': USER_AGENT, ...headers };
