/**
 * The one list of credential field names (security findings and redaction both read it), compared
 * on the normalised name: without case, `_`, `-` or any other separator, so `password_hash`,
 * `password-hash` and `PasswordHash` are one name.
 */

/** Names an answer of the interface must never carry (section 2.6 masks even the e-mail): a security finding. */
const CREDENTIAL_NAMES = new Set([
  'password',
  'passwordhash',
  'hashedpassword',
  'passworddigest',
  'encryptedpassword',
  'remembertoken',
  'resettoken',
  'passwordresettoken',
  // LDAP's password attribute (RFC 4519 userPassword; RFC 2307 {SCHEME} hashes), synced into a user's meta by directory-backed services.
  'userpassword',
  // Vendor names of a password hash on a user row (round wb28): `pwhash`, `passhash`, and Keycloak's credential
  // `secretData` (a JSON text of the hash and salt). Not `pass`, `pwd` or `passwd`: an NFT's membership pass, a
  // discount status (review-az F1, F2); under those a known password or a hash format is found by value, as anywhere.
  'pwhash',
  'passhash',
  'secretdata',
  // The one-time-password (2FA) secrets and backup codes real backends keep on the user and ship when it is serialised
  // whole: Laravel Fortify (two_factor_secret, two_factor_recovery_codes), pragmarx/google2fa (google2fa_secret),
  // active_model_otp (otp_secret_key), devise-two-factor (otp_secret, encrypted_otp_secret,
  // otp_backup_codes), django-otp and others (totp_secret, mfa_secret, authenticator_secret).
  'twofactorsecret',
  'twofactorsecretkey',
  'twofactorrecoverycodes',
  'twofactorbackupcodes',
  'recoverycodes',
  'backupcodes',
  'otpbackupcodes',
  'totpsecret',
  'totpsecretkey',
  'totpkey',
  'otpsecret',
  'otpsecretkey',
  'encryptedotpsecret',
  'mfasecret',
  'mfasecretkey',
  'google2fasecret',
  'google2fasecretkey',
  'authenticatorsecret',
  '2fasecret',
  '2fasecretkey',
]);

/** Names the suite itself sends or holds (request bodies, states, JWTs): redacted wherever they appear, never a finding on their own. */
const HELD_SECRET_NAMES = new Set(['passwordconfirmation', 'currentpassword', 'newpassword', 'token', 'accesstoken', 'refreshtoken', 'secret', '2fa', 'privatekey', 'jwt']);

export const normalizedKey = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * A header (`--header`, EXTRA_HEADERS) whose name names a credential: its value is a secret of the run, and an answer that
 * carries it is a security finding. Other headers' values (X-Api-Version, X-Tenant) are redacted alike but only advised
 * on when an answer carries them (review-an F1).
 */
export function isCredentialHeaderName(name: string): boolean {
  return /auth|key|token|secret|session|cookie|pass|signature|credential|jwt|bearer|sid/.test(normalizedKey(name));
}

/** A field an answer must never carry: its string value (or list of strings) is a credential. */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_NAMES.has(normalizedKey(key));
}

/** A field whose string value is written out as [REDACTED]: every credential name, and the ones the suite sends. */
export function isSecretKey(key: string): boolean {
  const name = normalizedKey(key);
  return CREDENTIAL_NAMES.has(name) || HELD_SECRET_NAMES.has(name);
}

/**
 * Whether the value under secret name `key` is a credential: a non-empty string, or for a list of
 * codes (`two_factor_recovery_codes`) a list of strings. Other lists are not: `errors.password` is a
 * list of messages, `{ "2fa": false }` a setting.
 */
export function isCredentialValue(key: string, value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  return normalizedKey(key).endsWith('codes') && Array.isArray(value) && value.some((item) => typeof item === 'string' && item !== '') && value.every((item) => typeof item === 'string');
}

/**
 * The routes whose answers issue credentials to the caller: authentication (4.1, 4.2) and the end of a
 * password reset (4.4), which may also sign the user in. A session, an access token or a refresh
 * token in their answers is the caller's own, not a leak. `path` may carry a prefix and a query.
 */
export function issuesCredentials(method: string, path: string): boolean {
  return method.toUpperCase() === 'POST' && /\/api\/v1\/(?:authenticate|authenticate-jwt\/[^/?#]+|user\/reset-password)\/?(?:[?#].*)?$/.test(path);
}
