import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { UserRow } from './context.js';

/** Access tokens `<numeric_id>|<secret>` (section 2.1); only a hash of the secret is stored. */
export const TOKEN_TTL_SECONDS = 7200;

export const TOKENS_DDL = `
CREATE TABLE IF NOT EXISTS access_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  secret_folded_hash TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL
);`;

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function secret(length = 40): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('');
}

export interface IssuedToken {
  token: string;
  createdMs: number;
  ttl: number;
}

/** `ttl`: the token's lifetime in seconds (TOKEN_TTL_SECONDS unless the account's sessions are short); `lifetimeMs` only a mutant sets apart from it. */
/**
 * The last tokens issued, in plain, per database: read only by a mutant's deviation (a bank list that
 * carries another session's token), since the reference keeps nothing but hashes of them otherwise.
 */
const recentlyIssued = new WeakMap<Database.Database, { userId: string; token: string }[]>();

/** The latest token the reference issued to a user other than `userId` (a mutant's deviation only). */
export function latestTokenOfAnotherUser(db: Database.Database, userId: string): string | undefined {
  const recent = recentlyIssued.get(db) ?? [];
  for (let i = recent.length - 1; i >= 0; i--) if (recent[i]!.userId !== userId) return recent[i]!.token;
  return undefined;
}

export function issueToken(db: Database.Database, userId: string, kind: 'password' | 'jwt', nowMs: number, ttl = TOKEN_TTL_SECONDS, lifetimeMs = ttl * 1000, secretLength = 40): IssuedToken {
  const plain = secret(secretLength);
  const result = db
    .prepare('INSERT INTO access_tokens (user_id, secret_hash, secret_folded_hash, kind, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)')
    .run(userId, hash(plain), hash(plain.toLowerCase()), kind, nowMs, nowMs + lifetimeMs);
  const token = `${result.lastInsertRowid}|${plain}`;
  const recent = recentlyIssued.get(db) ?? [];
  recent.push({ userId, token });
  if (recent.length > 32) recent.shift();
  recentlyIssued.set(db, recent);
  return { token, createdMs: nowMs, ttl };
}

/** White-box round wb1, deviation of a mutant only: the token found by its secret's hash alone, its id ignored (Sanctum's lookup of a token without `|`). */
export function resolveTokenBySecret(db: Database.Database, bearer: string, nowMs: number): { user: UserRow; tokenId: number } | undefined {
  const match = /^(\d+)\|(.+)$/.exec(bearer);
  if (!match) return undefined;
  const row = db.prepare('SELECT * FROM access_tokens WHERE secret_hash = ?').get(hash(match[2]!)) as { id: number; user_id: string; expires_ms: number } | undefined;
  if (!row || row.expires_ms <= nowMs) return undefined;
  const user = db.prepare('SELECT * FROM users WHERE id = ?').get(row.user_id) as UserRow | undefined;
  return user ? { user, tokenId: row.id } : undefined;
}

/** `foldCase` only for a mutant: the secret compared in any letter case. */
export function resolveToken(db: Database.Database, bearer: string, nowMs: number, foldCase = false): { user: UserRow; tokenId: number } | undefined {
  const match = /^(\d+)\|(.+)$/.exec(bearer);
  if (!match) return undefined;
  const row = db.prepare('SELECT * FROM access_tokens WHERE id = ?').get(Number(match[1])) as
    | { id: number; user_id: string; secret_hash: string; secret_folded_hash: string; expires_ms: number }
    | undefined;
  const matches = row !== undefined && (foldCase ? row.secret_folded_hash === hash(match[2]!.toLowerCase()) : row.secret_hash === hash(match[2]!));
  if (!row || !matches || row.expires_ms <= nowMs) return undefined;
  const user = db.prepare('SELECT * FROM users WHERE id = ?').get(row.user_id) as UserRow | undefined;
  return user ? { user, tokenId: row.id } : undefined;
}

export function destroyToken(db: Database.Database, tokenId: number): void {
  db.prepare('DELETE FROM access_tokens WHERE id = ?').run(tokenId);
}

/** Section 1.4: ISO 8601 UTC with microseconds. */
export function isoMicros(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
