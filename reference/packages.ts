/**
 * The embedded reference's own packages, loaded only when it runs (never with `--target`).
 * better-sqlite3 is an optional dependency of the published package: its native build is the
 * slowest part of an install, and an install where it fails (or `npm install --ignore-scripts`)
 * still runs the suite against a target. fastify and @fastify/multipart are plain JavaScript and
 * ordinary dependencies (as optional ones npm drops them on Node 20: a dependency of theirs
 * declares `engines.node >=22`, which npm treats as a failed optional install).
 *
 * The one list: reference/load.ts names the missing one in its exit-2 line.
 */
export const REFERENCE_PACKAGES = ['better-sqlite3', 'fastify', '@fastify/multipart'] as const;
