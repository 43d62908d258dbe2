/** The embedded reference's own packages (reference/packages.mjs). */
export declare const REFERENCE_PACKAGES: readonly ['better-sqlite3', 'fastify', '@fastify/multipart'];
