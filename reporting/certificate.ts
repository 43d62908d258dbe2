import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, CompactSign, compactVerify, decodeProtectedHeader, errors, exportJWK } from 'jose';
import type { Report, Verdict } from './model.js';

/**
 * The certificate: a compact JWS, signed with a key the certifier provides, over the facts of one
 * report — the SHA-256 of the report file's bytes, the certified verdict, the rule coverage, the
 * target, the suite and specification versions and the date. Anyone with the public key can check
 * that a report is the one certified, that neither was altered, and that the claims are the report's.
 */

export const CERTIFICATE_TYPE = 'account-api-conformance-certificate+jws';
/** 2: the claims carry `rules` and `reportVerdict`, and `verdict` is the certified one (certifiedVerdict). */
export const CERTIFICATE_VERSION = 2;

/** The rule coverage a certificate claims, so that a verifier sees what was not covered. */
export interface RuleClaims {
  /** Observable rules of the specification. */
  observable: number;
  verified: number;
  /** Observable rules no test of the report's suite version checks (the suite's gap): ids. */
  pending: string[];
  /** The other observable rules the run did not verify (failed, skipped, not run): ids. */
  unverified: string[];
}

export interface CertificateClaims {
  certificate: 'account-api-conformance';
  certificateVersion: number;
  report: { sha256: string; reportVersion: string };
  /**
   * The certified verdict: the report's, except that it is never conformant while an observable rule is
   * not verified, pending ones included (a report before 1.2 shows no rules: never conformant either).
   */
  verdict: Verdict;
  /** Since certificate version 2: the report's own verdict (a CI gate's, which pending rules do not hold back). */
  reportVerdict?: Verdict;
  /** Since certificate version 2: the report's rule coverage; null for a report that predates it (before 1.2.0). */
  rules?: RuleClaims | null;
  target: { baseUrl: string; embedded: boolean };
  suite: { name: string; version: string };
  spec: { title: string; version: string };
  /** When the certified run finished (report.finishedAt). */
  date: string;
  summary: Report['summary'];
  /** When the certificate was signed. */
  issuedAt: string;
}

/** A key that cannot be used, or input that is not what it should be: exit 2 in the CLI. */
export class CertificateUsageError extends Error {
  override name = 'CertificateUsageError';
}

export type SigningAlgorithm = 'RS256' | 'PS256' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA';

const CURVES: Record<string, SigningAlgorithm> = { prime256v1: 'ES256', 'P-256': 'ES256', secp384r1: 'ES384', 'P-384': 'ES384', secp521r1: 'ES512', 'P-521': 'ES512' };

/** The JWS algorithm for a key: RSA -> RS256, RSA-PSS -> PS256, EC P-256/384/521 -> ES256/384/512, Ed25519 -> EdDSA. */
export function algorithmFor(key: KeyObject): SigningAlgorithm {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'RS256';
    case 'rsa-pss':
      return 'PS256';
    case 'ed25519':
      return 'EdDSA';
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve ?? 'unknown';
      const alg = CURVES[curve];
      if (!alg) throw new CertificateUsageError(`the EC key uses curve ${curve}; use P-256, P-384 or P-521`);
      return alg;
    }
    default:
      throw new CertificateUsageError(`keys of type ${key.asymmetricKeyType ?? 'unknown'} cannot sign certificates; use an RSA, EC (P-256) or Ed25519 key`);
  }
}

export function loadPrivateKey(pem: string | Buffer, file = 'the key'): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch (error) {
    const message = (error as Error).message;
    if (/passphrase/i.test(message) || /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(String(pem))) throw new CertificateUsageError(`${file} is encrypted; decrypt it once with \`openssl pkey -in ${file} -out decrypted-key.pem\` (it asks for the passphrase) and pass that file`);
    throw new CertificateUsageError(`${file} is not a PEM private key (${message})`);
  }
}

export function loadPublicKey(pem: string | Buffer, file = 'the key'): KeyObject {
  try {
    return createPublicKey(pem);
  } catch (error) {
    throw new CertificateUsageError(`${file} is not a PEM public key, private key or X.509 certificate (${(error as Error).message})`);
  }
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** RFC 7638 thumbprint of the public key: names the key in the JWS header (`kid`). */
export async function keyId(key: KeyObject): Promise<string> {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return calculateJwkThumbprint(await exportJWK(publicKey), 'sha256');
}

function reportOf(bytes: Uint8Array): Report {
  try {
    const report = JSON.parse(Buffer.from(bytes).toString('utf8')) as Report;
    if (!report || typeof report !== 'object' || typeof report.verdict !== 'string' || !report.target || !report.suite || !report.spec) throw new Error('missing verdict, target, suite or spec');
    return report;
  } catch (error) {
    throw new CertificateUsageError(`the report is not a conformance report.json (${(error as Error).message})`);
  }
}

/** The rule coverage of a report as a certificate claims it; null when the report predates rule coverage. */
export function ruleClaims(report: Pick<Report, 'coverage'>): RuleClaims | null {
  const rules = report.coverage?.rules;
  if (!rules) return null;
  const observable = rules.filter((r) => r.observable);
  return {
    observable: observable.length,
    verified: observable.filter((r) => r.outcome === 'passed').length,
    pending: observable.filter((r) => r.outcome !== 'passed' && r.pending === true).map((r) => r.id),
    unverified: observable.filter((r) => r.outcome !== 'passed' && r.pending !== true).map((r) => r.id),
  };
}

/**
 * The verdict a certificate states. A certification requires every observable rule verified, as it
 * requires every documented pair: a report whose run was conformant on the rules its suite version
 * checks, while some are checked by no test (pending), is certified incomplete, with those rules named
 * in the claims. Refusing would leave the best run the suite can judge without a certificate while an
 * incomplete one gets one; signing incomplete records what was established, as for any other verdict.
 */
export function certifiedVerdict(report: Pick<Report, 'verdict' | 'coverage' | 'tests'>): Verdict {
  if (report.verdict !== 'conformant') return report.verdict;
  const rules = ruleClaims(report);
  const everyRule = rules && rules.pending.length === 0 && rules.unverified.length === 0 && rules.verified === rules.observable;
  return everyRule && evidenced(report) ? 'conformant' : 'incomplete';
}

/**
 * Whether the report's own records bear out a conformant verdict: every test passed without a security
 * finding, every documented pair passed, and every rule shown verified is cited by a passed test. A
 * report `run` wrote always does; one edited to say conformant over a skipped or failed test does not,
 * and is certified incomplete at best (verify, which recomputes the certified verdict, agrees).
 */
function evidenced(report: Pick<Report, 'coverage' | 'tests'>): boolean {
  const tests = Array.isArray(report.tests) ? report.tests : [];
  // An expected failure (--expected-failures) is a failure: never signed conformant over, whatever the outcome says.
  if (tests.length === 0 || tests.some((t) => t.outcome !== 'passed' || (t.security?.length ?? 0) > 0 || t.expectedFailure !== undefined)) return false;
  if (!Array.isArray(report.coverage?.pairs) || report.coverage.pairs.some((p) => p.outcome !== 'passed')) return false;
  const cited = new Set(tests.flatMap((t) => t.rules ?? []));
  return (report.coverage.rules ?? []).every((r) => r.outcome !== 'passed' || cited.has(r.id));
}

/** The claims every certificate version draws from its report as it stands: checked again by verify. */
function reportFacts(report: Report): Pick<CertificateClaims, 'target' | 'suite' | 'spec' | 'date' | 'summary'> {
  return {
    target: { baseUrl: report.target.baseUrl, embedded: report.target.embedded },
    suite: { name: report.suite.name, version: report.suite.version },
    spec: { title: report.spec.title, version: report.spec.version },
    date: report.finishedAt,
    summary: report.summary,
  };
}

/** Signs the facts of a report; `reportBytes` are the report file exactly as written. */
export async function certify(reportBytes: Uint8Array, privateKey: KeyObject, now = new Date()): Promise<{ jws: string; claims: CertificateClaims; alg: SigningAlgorithm; kid: string }> {
  if (privateKey.type !== 'private') throw new CertificateUsageError('certify needs the private key (the public key only verifies)');
  const report = reportOf(reportBytes);
  if (report.selection) throw new CertificateUsageError(`the report is of a run that selected tests (${report.selection.text}); certify the report of a whole \`conformance run\``);
  if (report.proxy) throw new CertificateUsageError('the report is of `conformance proxy` (it judged the traffic that passed, not the whole interface); certify the report of a whole `conformance run`');
  const alg = algorithmFor(privateKey);
  const kid = await keyId(privateKey);
  const claims: CertificateClaims = {
    certificate: 'account-api-conformance',
    certificateVersion: CERTIFICATE_VERSION,
    report: { sha256: sha256Hex(reportBytes), reportVersion: report.reportVersion },
    verdict: certifiedVerdict(report),
    reportVerdict: report.verdict,
    rules: ruleClaims(report),
    ...reportFacts(report),
    issuedAt: now.toISOString(),
  };
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg, typ: CERTIFICATE_TYPE, kid }).sign(privateKey);
  return { jws, claims, alg, kid };
}

export type Verification =
  /** `notes`: what a verifier should know of a certificate that holds (one of version 1 carries no rule claims, and its conformant may not be this version's). */
  | { holds: true; claims: CertificateClaims; alg: string; reportSha256: string; notes: string[] }
  | { holds: false; what: 'certificate' | 'report' | 'key'; reason: string; claims?: CertificateClaims };

/** Checks the certificate's signature with the public key, the report's digest against the certified one, then that every claim is the report's. */
export async function verifyCertificate(certificate: string, publicKey: KeyObject, reportBytes: Uint8Array): Promise<Verification> {
  const jws = certificate.trim();
  const expected = algorithmFor(publicKey);
  let header: { alg?: string; typ?: string };
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    return { holds: false, what: 'certificate', reason: 'the certificate is not a compact JWS (it was altered or is not a certificate file)' };
  }
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(jws, publicKey, { algorithms: [expected] }));
  } catch (error) {
    if (error instanceof errors.JOSEAlgNotAllowed) {
      return { holds: false, what: 'key', reason: `the certificate is signed with ${header.alg ?? 'an unknown algorithm'}, but this ${publicKey.asymmetricKeyType} key verifies ${expected}: it was not signed with this key` };
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      return { holds: false, what: 'certificate', reason: 'the signature does not match: the certificate was altered, or it was signed with another key' };
    }
    return { holds: false, what: 'certificate', reason: `the certificate is not a valid JWS (${(error as Error).message})` };
  }
  if (header.typ !== CERTIFICATE_TYPE) return { holds: false, what: 'certificate', reason: `the JWS is not a conformance certificate (typ ${header.typ ?? 'absent'})` };
  let claims: CertificateClaims;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload)) as CertificateClaims;
  } catch {
    return { holds: false, what: 'certificate', reason: 'the signed payload is not JSON' };
  }
  if (claims.certificate !== 'account-api-conformance' || typeof claims.report?.sha256 !== 'string') {
    return { holds: false, what: 'certificate', reason: 'the signed payload is not a conformance certificate' };
  }
  const actual = sha256Hex(reportBytes);
  if (actual !== claims.report.sha256) {
    return { holds: false, what: 'report', reason: `the report was altered or is another report: its sha256 is ${actual}, the certificate is for ${claims.report.sha256}`, claims };
  }
  // The signature and the digest hold; the claims must also be the report's own (what verify prints is the claims).
  let report: Report;
  try {
    report = reportOf(reportBytes);
  } catch (error) {
    return { holds: false, what: 'report', reason: (error as Error).message, claims };
  }
  const mismatch = claimsMismatch(claims, report);
  if (mismatch) return { holds: false, what: 'certificate', reason: `the certificate's claims are not the report's: ${mismatch}`, claims };
  const version = claims.certificateVersion ?? 1;
  const notes: string[] = [];
  if (version < 2) {
    const today = certifiedVerdict(report);
    notes.push(
      claims.verdict === 'conformant' && today !== 'conformant'
        ? `certificate version ${version} says conformant without requiring every observable rule verified: this suite version certifies the report ${today} (${ruleClaimsLine(ruleClaims(report))})`
        : `certificate version ${version} carries no rule claims: its verdict did not require every observable rule verified`,
    );
  }
  return { holds: true, claims, alg: header.alg ?? expected, reportSha256: actual, notes };
}

/** JSON with its object keys sorted: two values compare alike whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/**
 * What a certificate claims that its report does not say; undefined when every claim is the report's.
 * Every version: the report's format, target, suite, spec, date and summary. Version 1 signed the
 * report's own verdict; since version 2 the verdict is the certified one, beside the report's and the rules.
 */
function claimsMismatch(claims: CertificateClaims, report: Report): string | undefined {
  if (claims.report.reportVersion !== report.reportVersion) return `report format ${String(claims.report.reportVersion)}, the report ${report.reportVersion}`;
  const facts = reportFacts(report);
  for (const key of ['target', 'suite', 'spec', 'date', 'summary'] as const) {
    if (canonical(claims[key] ?? null) !== canonical(facts[key])) return `${key} ${canonical(claims[key] ?? null)}, the report ${canonical(facts[key])}`;
  }
  if ((claims.certificateVersion ?? 1) < 2) return claims.verdict === report.verdict ? undefined : `verdict ${claims.verdict}, the report ${report.verdict}`;
  const rules = ruleClaims(report);
  if (canonical(claims.rules ?? null) !== canonical(rules)) return `rules ${canonical(claims.rules ?? null)}, the report ${canonical(rules)}`;
  if (claims.reportVerdict !== report.verdict) return `report verdict ${claims.reportVerdict ?? 'absent'}, the report ${report.verdict}`;
  const verdict = certifiedVerdict(report);
  if (claims.verdict !== verdict) return `verdict ${claims.verdict}, where the report certifies ${verdict}`;
  return undefined;
}

/** "rules: 318 of 335 observable verified; 17 checked by no test of this suite version (S26, ...); 2 not verified in the run (S5, S9)". */
export function ruleClaimsLine(rules: RuleClaims | null | undefined): string {
  if (!rules) return 'rules: not claimed (the report predates rule coverage, or the certificate predates rule claims)';
  const ids = (list: string[]) => (list.length > 12 ? `${list.slice(0, 12).join(', ')} and ${list.length - 12} more` : list.join(', '));
  return `rules: ${rules.verified} of ${rules.observable} observable verified${rules.pending.length ? `; ${rules.pending.length} checked by no test of this suite version (${ids(rules.pending)})` : ''}${rules.unverified.length ? `; ${rules.unverified.length} not verified in the run (${ids(rules.unverified)})` : ''}`;
}
