import { MAX_CONFIG_FILE_BYTES, readBounded } from '../spec/bounded.js';
import { sameId } from '../spec/normalisation.js';
import { SignJWT, base64url, exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, type CryptoKey, type KeyObject } from 'jose';
import type { CheckContext } from '../check/check.js';
import { currentTarget, currentTargetKey, onNewTarget, targetKey } from '../check/target.js';
import type { StateData, StateRequestOptions } from '../states/transport.js';
import { learnSecret } from '../net/secrets.js';

/** Section 4.1: platform JWTs are RS512-signed; the payload names the user by `email` or `id` and carries `expire` (Unix seconds). */
export interface JwtPayload {
  email?: unknown;
  id?: unknown;
  expire?: unknown;
  [claim: string]: unknown;
}

type SigningKey = CryptoKey | KeyObject;

export interface Platform {
  id: string;
  sign(payload: JwtPayload): Promise<string>;
  /** Signs with the platform's own key but RS256, an algorithm section 4.1 does not name. */
  signRs256(payload: JwtPayload): Promise<string>;
  /** White-box round wb24: signs with the platform's own key (RS512), its protected header naming `kid` (RFC 7515 4.1.4). */
  signKid(kid: string, payload: JwtPayload): Promise<string>;
}

type KeyPair = { privateKey: SigningKey; privateKeyPem: string; publicKeyPem: string };
const keyPairs: Promise<KeyPair>[] = [];

/** RSA key pairs per worker for the `platform` state (generating keys is the slow part): 0 is the suite's own platform, 1 another one. */
function keys(index: 0 | 1 = 0): Promise<KeyPair> {
  keyPairs[index] ??= (async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS512', { modulusLength: 2048, extractable: true });
    return { privateKey, privateKeyPem: await exportPKCS8(privateKey), publicKeyPem: await exportSPKI(publicKey) };
  })();
  return keyPairs[index]!;
}

/** The RS256 signing keys imported from a PEM, once per key rather than once per signature. */
const rs256Keys = new Map<string, ReturnType<typeof importPKCS8>>();

async function signRs256(privateKeyPem: string, payload: JwtPayload): Promise<string> {
  if (!rs256Keys.has(privateKeyPem)) rs256Keys.set(privateKeyPem, importPKCS8(privateKeyPem, 'RS256'));
  const key = await rs256Keys.get(privateKeyPem)!;
  const jwt = await new SignJWT(payload as Record<string, unknown>).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(key);
  learnSecret(jwt, 'token');
  return jwt;
}

export async function signRs512(key: SigningKey, payload: JwtPayload, header: { kid?: string } = {}): Promise<string> {
  const jwt = await new SignJWT(payload as Record<string, unknown>).setProtectedHeader({ alg: 'RS512', typ: 'JWT', ...header }).sign(key);
  learnSecret(jwt, 'token');
  return jwt;
}

/**
 * The form the run writes `expire` in. Section 4.1 gives "`expire` (required, timestamp, must be now or later)", while
 * 2.1 calls the ISO 8601 `until` a "timestamp" too: a number (the suite's first choice, under both units) or an ISO 8601
 * UTC string. The first JWT login of a worker that names its user and sends a numeric expire tells: a 412 to it is tried
 * once more with the same instant as an ISO 8601 UTC string, and when that is read (any answer but 412 or a 5xx) the
 * run writes every numeric expire that way (advised on). The 416 and 412 checks are then judged in that form.
 * Kept per target (targetKey: its base URL and run), and forgotten when a worker meets another target (onNewTarget): the mutation runner's
 * kept worker threads keep this module from one mutant's reference to the next (which may listen on an earlier one's
 * port), and each reference reads `expire` its own way.
 */
const expireForms = new Map<string, 'number' | 'iso'>();

/**
 * The unit of the run's routine `expire`s (futureExpire). They are milliseconds first, far ahead read as seconds, so
 * that a target reading either unit takes them. A target that reads seconds and keeps an upper bound (a lifetime cap,
 * a 32-bit timestamp) refuses them: the first routine JWT login answered 412 (or a 5xx) is tried once more with the same
 * instant in Unix seconds, and when that is taken the run's routine expires are Unix seconds (advised on). Only the
 * checks of a far-future expire judge it (suites/authentication.test.ts: "... whose expire lies a day ahead ...", in the
 * unit the target reads; round r14: allowed-r14-jwt-lifetime-capped-one-hour is a deviation, judged there). Milliseconds
 * read as seconds lie near the year 57 900, which a bounded timestamp cannot hold: advised on (review-aj F2).
 */
const expireUnits = new Map<string, 'ms' | 's'>();

/** The routine expires futureExpire gave in milliseconds while the unit was not known (the ones the unit probe may retry). */
const routineMs = new Set<number>();

/**
 * What the suite signed before the run knew the form and unit of `expire`, until it is sent: the first JWT login can be
 * signed again in the other form, and one signed before that login learnt it, sent after, in the learnt form (lateExpire).
 */
const signedJwts = new Map<string, { payload: JwtPayload; resign: (payload: JwtPayload) => Promise<string>; routineMs: boolean }>();

// Learnt of one target: another target (the mutation runner's next reference) is asked again. What is learnt of any
// target but the one this worker serves now (currentTargetKey) is an earlier run's and is not kept.
onNewTarget(() => {
  expireForms.clear();
  expireUnits.clear();
  routineMs.clear();
  signedJwts.clear();
});

/** A numeric `expire` as an ISO 8601 UTC string of the same instant (milliseconds above 10^11, else Unix seconds). */
export function isoExpire(expire: number): string {
  return new Date(expire > 1e11 ? expire : expire * 1000).toISOString();
}

function written(target: string, payload: JwtPayload): JwtPayload {
  return expireForms.get(target) === 'iso' && typeof payload.expire === 'number' && Number.isFinite(payload.expire) && payload.expire > 0 ? { ...payload, expire: isoExpire(payload.expire) } : payload;
}

/** A signer that writes `expire` in the run's form and remembers what it signed. */
function signer(target: string, raw: (payload: JwtPayload) => Promise<string>): (payload: JwtPayload) => Promise<string> {
  return async (payload) => {
    // What is known when signing starts decides both the form written and what is kept (the signature is asynchronous).
    const form = expireForms.get(target);
    const routine = typeof payload.expire === 'number' && routineMs.has(payload.expire);
    const keep = form === undefined || (form !== 'iso' && !expireUnits.has(target) && routine);
    const jwt = await raw(written(target, payload));
    if (!keep) return jwt;
    if (signedJwts.size >= 10_000) signedJwts.delete(signedJwts.keys().next().value!);
    signedJwts.set(jwt, { payload, resign: raw, routineMs: routine });
    return jwt;
  };
}

/** The expire a JWT signed before the run learnt the form or unit (signedJwts) is written in now, if it differs. */
function lateExpire(target: string, signed: { payload: JwtPayload; routineMs: boolean }): number | string | undefined {
  const sent = signed.payload.expire;
  if (typeof sent !== 'number' || !Number.isFinite(sent) || sent <= 0) return undefined;
  let expire = sent;
  const seconds = signed.routineMs && expireUnits.get(target) === 's';
  // Kept only while the form was unknown or a number (signer): the ISO 8601 form learnt since is written now.
  const iso = expireForms.get(target) === 'iso';
  if (!seconds && !iso) return undefined;
  if (seconds) expire = Math.ceil(expire / 1000);
  return iso ? isoExpire(expire) : expire;
}

/**
 * Sends a JWT login and, for the first one that can tell, detects the form of `expire` (see expireForms): answers the
 * answer the run judges, the retried one when the ISO 8601 form was read.
 */
export async function sendWithExpireForm<R extends { status: number }>(t: CheckContext, jwt: string | undefined, send: (jwt: string | undefined) => Promise<R>): Promise<R> {
  // Taken before the send: a concurrent login that learns the form or unit meanwhile forgets what was signed.
  const signed = jwt === undefined ? undefined : signedJwts.get(jwt);
  const response = await send(jwt);
  const target = targetKey(t.target);
  if (jwt === undefined) return response;
  // A test of an earlier run still in flight when this worker met the next target: it learns nothing (targetKey).
  if (target !== currentTargetKey()) return response;
  if (!signed) return response;
  const { payload } = signed;
  const names = (typeof payload.email === 'string' && payload.email !== '') || (typeof payload.id === 'string' && payload.id !== '');
  if (!names || typeof payload.expire !== 'number' || !Number.isFinite(payload.expire) || payload.expire <= 0) return response;
  // Signed before another login of the run (one test's concurrent logins) learnt that the target reads expire as an
  // ISO 8601 string or as Unix seconds, and refused in the form it was sent in: sent once more as the run now writes it.
  const late = lateExpire(target, signed);
  if (late !== undefined) {
    signedJwts.delete(jwt);
    // A 412 for either; a 5xx only for the unit, as the unit probe reads it (the form is learnt from a 412 alone).
    const unitLearnt = signed.routineMs && expireUnits.get(target) === 's';
    if (response.status !== 412 && !(unitLearnt && response.status >= 500)) return response;
    return send(await signed.resign({ ...payload, expire: late }));
  }
  // The unit probe: a routine expire in milliseconds refused (412 or a 5xx) is tried once in Unix seconds; only a 200 to
  // that switches the run's routine expires to seconds.
  if (!expireUnits.has(target) && expireForms.get(target) !== 'iso' && routineMs.has(payload.expire)) {
    if (response.status === 200 || response.status === 416) {
      expireUnits.set(target, 'ms');
      routineMs.clear();
    } else if (response.status === 412 || response.status >= 500) {
      const seconds = Math.ceil(payload.expire / 1000);
      const retried = await send(await signed.resign({ ...payload, expire: seconds }));
      if (target !== currentTargetKey()) return response;
      // Only a 200 proves the seconds read (review-n): a target that reads milliseconds answers the same instant in
      // seconds, a date in 1970, with 416, and one that judges the claims first may answer 412 or 403 to both forms;
      // neither may turn the run's routine expires into seconds, which such a target would then refuse every time.
      if (retried.status === 200) {
        expireUnits.set(target, 's');
        routineMs.clear();
        expireForms.set(target, expireForms.get(target) ?? 'number');
        signedJwts.delete(jwt);
        t.advise(`the JWT login answered ${response.status} to an expire in milliseconds ${Math.round((payload.expire - Date.now()) / 1000)} s ahead (far ahead read as Unix seconds) and ${retried.status} to the same instant in Unix seconds (${seconds}): expire is read as Unix seconds with an upper bound (a lifetime cap or a 32-bit timestamp); the run sends its routine expires in seconds, and the check "answers 200 with a Session for a JWT whose expire lies a day ahead ..." judges a far-future expire in the unit read`);
        return retried;
      }
      // The same instant in seconds expired: the target reads milliseconds; its 412 was about something else.
      if (retried.status === 416) {
        expireUnits.set(target, 'ms');
        routineMs.clear();
      }
    }
  }
  if (expireForms.has(target)) {
    signedJwts.delete(jwt);
    // Learnt by a concurrent login while this one was in its unit probe.
    const learnt = lateExpire(target, signed);
    if (learnt !== undefined && response.status === 412) return send(await signed.resign({ ...payload, expire: learnt }));
    return response;
  }
  if (response.status === 200 || response.status === 416) {
    expireForms.set(target, 'number');
    signedJwts.delete(jwt);
  }
  if (response.status !== 412) return response;
  const iso = isoExpire(payload.expire);
  const retried = await send(await signed.resign({ ...payload, expire: iso }));
  if (target !== currentTargetKey()) return response;
  const form = retried.status === 412 || retried.status >= 500 ? 'number' : 'iso';
  expireForms.set(target, form);
  signedJwts.delete(jwt);
  if (form === 'number') return response;
  t.advise(`the JWT login answered 412 to a numeric expire and ${retried.status} to the same instant as an ISO 8601 UTC string (${iso}): expire is read as an ISO 8601 string, which section 4.1 ("timestamp") allows as 2.1 calls the ISO 8601 until a timestamp; the run sends expire in that form`);
  return retried;
}

/**
 * The platform of each test: every call of platformFor in one test answers the same one, so that the users a test asks
 * for that platform (platformUser) are of the platform whose key signs its JWTs.
 */
const platformOfTest = new WeakMap<CheckContext, Promise<Platform>>();

/**
 * A platform the target trusts: the static JWT_PLATFORM_ID key when configured, else a fresh one from the `platform` state
 * (one a test).
 */
export function platformFor(t: CheckContext): Promise<Platform> {
  let platform = platformOfTest.get(t);
  if (!platform) {
    platform = trustedPlatform(t);
    platformOfTest.set(t, platform);
    // A failed registration is not kept: the test fails (or is skipped) with it, and a retry asks again.
    platform.catch(() => platformOfTest.delete(t));
  }
  return platform;
}

/**
 * platformFor without a skip (white-box round wb24): the test's trusted platform where one can be had without asking a
 * state the target may not provide: the configured JWT_PLATFORM_ID key, the one this test already has, or one a hook
 * registers through its `platform` state (as platformFor would, and kept as the test's); undefined for a STATES_FILE
 * without a configured key and for a hook without the state, where the caller finds another way.
 */
export async function platformIfAny(t: CheckContext): Promise<Platform | undefined> {
  if (t.target.jwtPlatform || platformOfTest.has(t)) return platformFor(t);
  if (t.target.states.kind !== 'hook') return undefined;
  const { privateKey, privateKeyPem, publicKeyPem } = await keys(0);
  const outcome = await currentTarget().states.get('platform', { publicKey: publicKeyPem });
  const id = outcome.provided ? (outcome.data as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || id === '') return undefined;
  const platform: Platform = { id, sign: signer(targetKey(t.target), (payload) => signRs512(privateKey, payload)), signRs256: signer(targetKey(t.target), (payload) => signRs256(privateKeyPem, payload)) , signKid: (kid, payload) => signer(targetKey(t.target), (claims) => signRs512(privateKey, claims, { kid }))(payload) };
  if (!platformOfTest.has(t)) platformOfTest.set(t, Promise.resolve(platform));
  return platformFor(t);
}

/** The account states a JWT names (section 4.1), which take the `platformId` param (docs/provider-states.md, added later). */
export type JwtAccountState = 'user' | 'user.inactive' | 'user.locked' | 'user.throttled' | 'user.short-session';

/**
 * An account of `state` that belongs to the platform whose key signs the test's JWTs (state param `platformId`, added
 * later to the contract): section 4.1 does not say whether a platform may authenticate any user of the service or only
 * its own users (a multi-tenant service), and a user of its own holds under both readings (docs/judging.md).
 */
export async function platformUser<N extends JwtAccountState>(t: CheckContext, state: N, params: Record<string, unknown> = {}, options: Omit<StateRequestOptions, 'holder'> = {}): Promise<StateData[N]> {
  const platform = await platformFor(t);
  return t.state(state, { ...params, platformId: platform.id }, options);
}

/**
 * Not verified (a skip with the reason), never failed: a platform's JWT for `user` refused as wrong credentials (403)
 * while the provider state did not say that the user belongs to that platform (`platformId` in its data): a target whose
 * platforms authenticate only their own users refuses it rightly, and its hook (or file) did not offer `platformId`.
 */
export function skipUnlessOwnUser(t: CheckContext, response: { status: number }, user: { platformId?: string }, platform: { id: string }): void {
  if (response.status !== 403 || sameId(user.platformId, platform.id)) return;
  t.skip(`not verified: the platform's JWT for the account answered 403, and the provider state did not say that the account belongs to platform ${platform.id} (it answered no "platformId"): a platform may authenticate only its own users (section 4.1 does not say; docs/judging.md), so give the state user (and user.inactive, user.locked, user.throttled, user.short-session) the param platformId (docs/provider-states.md)`);
}

async function trustedPlatform(t: CheckContext): Promise<Platform> {
  const configured = t.target.jwtPlatform;
  if (configured) {
    const pem = readBounded(configured.privateKeyFile, MAX_CONFIG_FILE_BYTES, 'JWT_PRIVATE_KEY_FILE').toString('utf8');
    const privateKey = await importPKCS8(pem, 'RS512');
    return { id: configured.id, sign: signer(targetKey(t.target), (payload) => signRs512(privateKey, payload)), signRs256: signer(targetKey(t.target), (payload) => signRs256(pem, payload)) , signKid: (kid, payload) => signer(targetKey(t.target), (claims) => signRs512(privateKey, claims, { kid }))(payload) };
  }
  return registeredPlatform(t, 0);
}

async function registeredPlatform(t: CheckContext, index: 0 | 1): Promise<Platform> {
  const { privateKey, privateKeyPem, publicKeyPem } = await keys(index);
  const { id, privateKeyFile } = await t.state('platform', { publicKey: publicKeyPem });
  if (privateKeyFile) {
    // A STATES_FILE's second platform comes with its own key (the file cannot register the suite's).
    const pem = readBounded(privateKeyFile, MAX_CONFIG_FILE_BYTES, 'the states file\'s second platform key').toString('utf8');
    const own = await importPKCS8(pem, 'RS512');
    return { id, sign: signer(targetKey(t.target), (payload) => signRs512(own, payload)), signRs256: signer(targetKey(t.target), (payload) => signRs256(pem, payload)) , signKid: (kid, payload) => signer(targetKey(t.target), (claims) => signRs512(own, claims, { kid }))(payload) };
  }
  return { id, sign: signer(targetKey(t.target), (payload) => signRs512(privateKey, payload)), signRs256: signer(targetKey(t.target), (payload) => signRs256(privateKeyPem, payload)) , signKid: (kid, payload) => signer(targetKey(t.target), (claims) => signRs512(privateKey, claims, { kid }))(payload) };
}

/** A second platform, registered through the `platform` state with a key of its own (section 4.1: each platform signs with its key). */
export async function otherPlatform(t: CheckContext): Promise<Platform> {
  const other = await registeredPlatform(t, 1);
  // A STATES_FILE names its second platform statically: without a first one configured (its platform entry,
  // JWT_PLATFORM_ID) the suite's platform would be that same one, and a platform's own key is no other's.
  if (t.target.states.kind === 'file' && (t.target.jwtPlatform === undefined || sameId(t.target.jwtPlatform.id, other.id))) {
    t.skip(`STATES_FILE's secondPlatform ${other.id} is the only platform the suite signs with${t.target.jwtPlatform ? ' (JWT_PLATFORM_ID names it too)' : ''}: a second platform needs a first one apart; give the file a platform entry of another platform (or JWT_PLATFORM_ID / JWT_PRIVATE_KEY_FILE)`);
  }
  return other;
}

/** A platform as a filter may name it: its ID (section 4.1) and, where the hook gives them, what its records show as externalPlatform. */
export interface PlatformIdentifiers {
  id: string;
  code?: string;
  name?: string;
  url?: string;
}

/**
 * A platform the target trusts, registered through the `platform` state of a hook with the suite's second key (as
 * otherPlatform), for a check that needs a platform that exists and holds none of a user's records (review-aa: a filter
 * value that resolves, where one that names no platform may be ignored): its ID and the `code`, `name` and `url` the
 * state gives beside it (added later, optional: what records on it show as externalPlatform), each a non-empty string or
 * left out. Undefined, never a skip, where none can be had so: a STATES_FILE (its accounts belong to the platforms it
 * names, its records were arranged before the run) and a hook that does not provide the state; the caller then leaves
 * its check not verified.
 * One such platform per target and worker (review-ab F5: a platform cannot be removed through the interface, and a
 * registration a row left about nine a run on the target): registered at the first call and served to every later row.
 * It holds none of any user's records, those made after it too: the suite makes every record on the user's own platform
 * (its states and its creates), never on this one.
 */
export function platformWithoutRecords(t: CheckContext): Promise<PlatformIdentifiers | undefined> {
  if (t.target.states.kind !== 'hook') return Promise.resolve(undefined);
  const key = targetKey(t.target);
  let platform = platformsWithoutRecords.get(key);
  if (!platform) {
    platform = registerPlatformWithoutRecords();
    // Only what is learnt of the target this worker serves now is kept (an earlier run's late answer is not).
    if (key === currentTargetKey()) platformsWithoutRecords.set(key, platform);
    // A failed registration is not kept: the row fails with it, and a later row asks again.
    platform.catch(() => {
      if (platformsWithoutRecords.get(key) === platform) platformsWithoutRecords.delete(key);
    });
  }
  return platform;
}

/** The platform without records of each target (platformWithoutRecords), forgotten when a worker meets another target. */
const platformsWithoutRecords = new Map<string, Promise<PlatformIdentifiers | undefined>>();
onNewTarget(() => platformsWithoutRecords.clear());

async function registerPlatformWithoutRecords(): Promise<PlatformIdentifiers | undefined> {
  const { publicKeyPem } = await keys(1);
  const outcome = await currentTarget().states.get('platform', { publicKey: publicKeyPem });
  if (!outcome.provided) return undefined;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const { id, code, name, url } = outcome.data as Record<string, unknown>;
  if (text(id) === undefined) return undefined;
  return { id: text(id)!, ...(text(code) === undefined ? {} : { code: text(code) }), ...(text(name) === undefined ? {} : { name: text(name) }), ...(text(url) === undefined ? {} : { url: text(url) }) };
}

/** Unix seconds from now. */
export function secondsFromNow(seconds: number): number {
  return Math.floor(Date.now() / 1000) + seconds;
}

/**
 * A JWT `expire` that is in the future under both readings of section 4.1 ("timestamp, must be now or
 * later", no unit; section 1.4 does not list it among the Unix-second fields): `seconds` from now in
 * milliseconds since the epoch, which read as seconds is far in the future too.
 */
export function futureExpire(seconds = 300): number {
  // Unix seconds once the unit probe learnt that the target reads seconds with an upper bound (expireUnits).
  if (expireUnits.get(currentTargetKey()) === 's') return secondsFromNow(seconds);
  const expire = Date.now() + seconds * 1000;
  if (!expireUnits.has(currentTargetKey()) && routineMs.size < 10_000) routineMs.add(expire);
  return expire;
}

/** A JWT `expire` in the past under both readings: Unix seconds `seconds` ago (read as milliseconds, January 1970). */
export function pastExpire(seconds = 3600): number {
  return secondsFromNow(-seconds);
}

const encodeJson = (value: unknown) => base64url.encode(JSON.stringify(value));

/** Crafted tokens are credentials too: never written out. */
function secret(jwt: string): string {
  learnSecret(jwt, 'token');
  return jwt;
}

/** Crafted tokens that must never authenticate (section 4.1: RS512 by the platform's key). */
export const craftedJwt = {
  /** `alg: none`, no signature. */
  unsigned(payload: JwtPayload): string {
    return secret(`${encodeJson({ alg: 'none', typ: 'JWT' })}.${encodeJson(payload)}.`);
  },
  /** HS512 with the platform's public key as the HMAC secret (algorithm confusion). */
  async hmacWithPublicKey(payload: JwtPayload): Promise<string> {
    const { publicKeyPem } = await keys();
    return secret(await new SignJWT(payload as Record<string, unknown>).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(new TextEncoder().encode(publicKeyPem)));
  },
  /** RS512, but by a key the platform never registered. */
  async foreignKey(payload: JwtPayload): Promise<string> {
    const { privateKey } = await generateKeyPair('RS512', { modulusLength: 2048 });
    return signRs512(privateKey, payload);
  },
  /** A valid token whose payload was changed after signing. */
  tampered(jwt: string, payload: JwtPayload): string {
    const [header, , signature] = jwt.split('.');
    return secret(`${header}.${encodeJson(payload)}.${signature}`);
  },
  /** The platform's own key pair, for tests that sign with it directly. */
  keys,
};
