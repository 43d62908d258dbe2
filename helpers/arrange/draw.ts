import { createHash, randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/**
 * Values drawn from a whole class (issue 27): the currencies, swift codes, IBANs and expiries the
 * suite sends beside its fixed boundary members. The draw comes from the run's seed (`--seed`, SEED;
 * a fresh one each run, recorded in report.json), so a run can be replayed value for value.
 *
 * Detection never rests on the draw: every table that draws also sends its class's boundary and odd
 * members on every run, and draws only extras on top of them. Fields that must be unique (an IBAN)
 * take a per-run part that is not drawn, so a replay with the same seed never collides with the run
 * it replays.
 */

/** The run's seed, as the CLI provided it; a fresh one where no CLI gave one (a mutation run, a self-test). Failure messages name it. */
export function runSeed(): string {
  let seed: string | undefined;
  try {
    seed = inject('target')?.seed;
  } catch {
    seed = undefined;
  }
  return seed ?? (fallbackSeed ??= randomBytes(4).toString('hex'));
}
let fallbackSeed: string | undefined;

/** A deterministic stream of numbers in [0, 1) for one `label` (one table) of the run's seed. */
export function drawStream(label: string, seed = runSeed()): () => number {
  let counter = 0;
  return () => {
    const digest = createHash('sha256').update(`${seed}\u0000${label}\u0000${counter++}`).digest();
    return digest.readUInt32BE(0) / 2 ** 32;
  };
}

/** `count` distinct members of `pool` drawn for `label`, none of `besides` (the members always sent). */
export function drawDistinct<T>(label: string, pool: readonly T[], count: number, besides: readonly T[] = []): T[] {
  const next = drawStream(label);
  const left = pool.filter((member) => !besides.includes(member));
  const drawn: T[] = [];
  while (drawn.length < count && left.length > 0) drawn.push(left.splice(Math.floor(next() * left.length), 1)[0]!);
  return drawn;
}

/** `length` upper-case letters and digits drawn for `label` from `alphabet`. */
export function drawText(label: string, length: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'): string {
  const next = drawStream(label);
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
  return text;
}

/** Digits that differ on every run, replay or not: the part of a unique field that keeps a replay from colliding. */
export function runPart(length: number): string {
  return randomBytes(length).reduce((text, byte) => text + String(byte % 10), '');
}
