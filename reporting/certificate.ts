import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, CompactSign, compactVerify, decodeProtectedHeader, errors, exportJWK } from 'jose';
import type { Report, Verdict } from './model.js';

/**
 * The certificate: a compact JWS, signed with a key the certifier provides, over the facts of one
 * report — the SHA-256 of the report file's bytes, the verdict, the target, the suite and
 * specification versions and the date. Anyone with the public key can check that a report is the
 * one certified and that neither was altered.
 */

export const CERTIFICATE_TYPE = 'account-api-conformance-certificate+jws';
export const CERTIFICATE_VERSION = 1;

export interface CertificateClaims {
  certificate: 'account-api-conformance';
  certificateVersion: number;
  report: { sha256: string; reportVersion: string };
  verdict: Verdict;
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
    verdict: report.verdict,
    target: { baseUrl: report.target.baseUrl, embedded: report.target.embedded },
    suite: { name: report.suite.name, version: report.suite.version },
    spec: { title: report.spec.title, version: report.spec.version },
    date: report.finishedAt,
    summary: report.summary,
    issuedAt: now.toISOString(),
  };
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg, typ: CERTIFICATE_TYPE, kid }).sign(privateKey);
  return { jws, claims, alg, kid };
}

export type Verification =
  | { holds: true; claims: CertificateClaims; alg: string; reportSha256: string }
  | { holds: false; what: 'certificate' | 'report' | 'key'; reason: string; claims?: CertificateClaims };

/** Checks the certificate's signature with the public key, then the report's digest against the certified one. */
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
  return { holds: true, claims, alg: header.alg ?? expected, reportSha256: actual };
}
