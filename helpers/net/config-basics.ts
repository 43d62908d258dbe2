/**
 * What the tests' workers need of the configuration (helpers/states/): without config.ts's schema, whose zod every worker
 * imported for one constant and one class (a share of each worker's start, bench/peers.md).
 */

/**
 * MAX_RESPONSE_BYTES's default, 1 MiB (issue 29): the interface's documents are a few kilobytes and a list of one user's
 * records a few hundred; what a test keeps of its answers while it runs (8 tests at once a worker) is what a padding
 * target can make it hold, so the default stays a few times over the largest answer the interface needs.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** A configuration problem: the run stops with exit code 2 and this one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
