import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { parseBoundedJson, TooLargeError } from '../helpers/spec/bounded.js';
import { membersInOrder } from '../helpers/spec/normalisation.js';
import { calculateJwkThumbprint, CompactSign, compactVerify, decodeProtectedHeader, errors, exportJWK } from 'jose';
import type { Report, Verdict } from './model.js';

/**
 * The certificate: a compact JWS, signed with a key the certifier provides, over the facts of one
 * report — the SHA-256 of the report file's bytes, the certified verdict, the rule coverage, the
 * target, the suite and specification versions and the date. Anyone with the public key can check
 * that a report is the one certified, that neither was altered, and that the claims are the report's.
 */

export const CERTIFICATE_TYPE = 'account-api-conformance-certificate+jws';
/**
 * 2: the claims carry `rules` and `reportVerdict`, and `verdict` is the certified one (certifiedVerdict).
 * 3: `implementation` (the operator's declared name and version), `rules.failed` apart from `unverified`,
 * and room for `instances`; certify refuses a report whose records contradict its verdict.
 */
export const CERTIFICATE_VERSION = 3;

/** The rule coverage a certificate claims, so that a verifier sees what was not covered. */
export interface RuleClaims {
  /** Observable rules of the specification. */
  observable: number;
  verified: number;
  /** Observable rules no test of the report's suite version checks (the suite's gap): ids. */
  pending: string[];
  /** The other observable rules the run did not verify (skipped, not run; before version 3 failed ones too): ids. */
  unverified: string[];
  /** Since certificate version 3: the observable rules a failed test cites, or the report shows failed: ids. */
  failed?: string[];
}

/** What the operator declared the target to be (`--implementation "NAME VERSION"`); the suite does not check it. */
export interface ImplementationClaim {
  name: string;
  version: string;
  declaredBy: 'operator';
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
  /** Since certificate version 3: the implementation as the operator declared it; null when the run declared none. */
  implementation?: ImplementationClaim | null;
  /**
   * Since certificate version 3, optional: the rule-instance coverage of the report (issue 27). Not claimed yet;
   * `instanceClaims` below is where it is drawn from the report, and verify compares it like every claim.
   */
  instances?: InstanceClaims;
  suite: { name: string; version: string };
  spec: { title: string; version: string };
  /** When the certified run finished (report.finishedAt). */
  date: string;
  summary: Report['summary'];
  /** When the certificate was signed. */
  issuedAt: string;
}

/** A report whose own records contradict its verdict: certify refuses it (exit 1 in the CLI, one line). */
export class ReportContradiction extends Error {
  override name = 'ReportContradiction';
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
    const report = parseBoundedJson(Buffer.from(bytes).toString('utf8'), 'the report') as Report;
    if (!report || typeof report !== 'object' || typeof report.verdict !== 'string' || !report.target || !report.suite || !report.spec) throw new Error('missing verdict, target, suite or spec');
    return report;
  } catch (error) {
    throw new CertificateUsageError(`the report is not a conformance report.json (${(error as Error).message})`);
  }
}

/**
 * The rule coverage of a report as a certificate claims it; null when the report predates rule coverage.
 * Since version 3 a rule a failed test cites (or the report shows failed) is claimed `failed`, not unverified.
 */
export function ruleClaims(report: Pick<Report, 'coverage'> & Partial<Pick<Report, 'tests'>>, version = CERTIFICATE_VERSION): RuleClaims | null {
  const rules = report.coverage?.rules;
  if (!rules) return null;
  const observable = rules.filter((r) => r.observable);
  const tests = Array.isArray(report.tests) ? report.tests : [];
  const citedByFailure = new Set(tests.filter((t) => t.outcome === 'failed').flatMap((t) => t.rules ?? []));
  const isFailed = (r: (typeof rules)[number]) => version >= 3 && (r.outcome === 'failed' || citedByFailure.has(r.id));
  const notPassed = observable.filter((r) => r.outcome !== 'passed' || isFailed(r));
  return {
    observable: observable.length,
    verified: observable.length - notPassed.length,
    pending: notPassed.filter((r) => r.pending === true && !isFailed(r)).map((r) => r.id),
    unverified: notPassed.filter((r) => r.pending !== true && !isFailed(r)).map((r) => r.id),
    ...(version >= 3 ? { failed: notPassed.filter(isFailed).map((r) => r.id) } : {}),
  };
}

/** The implementation a report names (declared by the operator with --implementation), as a certificate claims it. */
export function implementationClaim(report: Pick<Report, 'implementation'>): ImplementationClaim | null {
  const declared = report.implementation;
  return declared && typeof declared.name === 'string' && typeof declared.version === 'string' ? { name: declared.name, version: declared.version, declaredBy: 'operator' } : null;
}

/** The rule-instance coverage a certificate claims (version 3, from report.json 1.4.0): each place a rule applies. */
export interface InstanceClaims {
  observable: number;
  verified: number;
  /** Instances of observable rules that no passed test checked, by id. */
  unverified: string[];
  /** Instances a failed test checked, by id. */
  failed: string[];
}

/**
 * The instance claim of a report: a rule is verified only where it was checked everywhere it applies
 * (issue 27), so a certificate names the instances as it names the rules. Undefined for a report that
 * predates instances (before report.json 1.4.0): such a certificate carries no `instances`, and verify
 * expects none.
 */
export function instanceClaims(report: Pick<Report, 'coverage'>): InstanceClaims | undefined {
  const instances = report.coverage?.instances;
  if (!Array.isArray(instances)) return undefined;
  const observable = instances.filter((i) => i.observable);
  return {
    observable: observable.length,
    verified: observable.filter((i) => i.outcome === 'passed').length,
    unverified: observable.filter((i) => i.outcome !== 'passed' && i.outcome !== 'failed').map((i) => i.id),
    failed: observable.filter((i) => i.outcome === 'failed').map((i) => i.id),
  };
}

/** The instance claim as one line of the terminal. */
export function instanceClaimsLine(instances: InstanceClaims | null | undefined): string {
  if (!instances) return 'rule instances: not claimed (a report from before rule instances)';
  const open = [...instances.failed.map((id) => `${id} failed`), ...instances.unverified];
  return `rule instances: ${instances.verified} of ${instances.observable} verified${open.length ? ` (not: ${open.slice(0, 5).join(', ')}${open.length > 5 ? `, and ${open.length - 5} more` : ''})` : ''}`;
}

/** A value of the report as one short line of a terminal: no control or bidirectional characters. */
function shown(value: unknown): string {
  const text = String(value).replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, '?');
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 119)}\u2026` : text);
}

/**
 * Where the report's own records contradict its verdict (an edited report, or one written by something
 * else): one line naming the contradiction; undefined when they bear it out. A report `run` wrote never
 * contradicts itself; certify refuses one that does rather than sign a verdict of its own choosing.
 */
export function contradiction(report: Pick<Report, 'verdict' | 'coverage' | 'tests' | 'summary' | 'reportVersion'>): string | undefined {
  const tests = Array.isArray(report.tests) ? report.tests : [];
  const says = `the report says ${report.verdict}`;
  const failed = tests.filter((t) => t.outcome === 'failed');
  const findings = tests.filter((t) => (t.security?.length ?? 0) > 0);
  const skipped = tests.filter((t) => t.outcome === 'skipped');
  const summary = report.summary ?? ({} as Report['summary']);
  for (const [what, count] of [['passed', tests.filter((t) => t.outcome === 'passed').length], ['failed', failed.length], ['skipped', skipped.length]] as const) {
    if (summary[what] !== count) return `its summary counts ${Number.isSafeInteger(summary[what]) ? summary[what] : shown(summary[what])} ${what}, but its tests ${count}`;
  }
  if (report.verdict !== 'nonconformant') {
    if (failed[0]) return `${says}, but its test ${shown(failed[0].id)} failed${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`;
    if (findings[0]) return `${says}, but its test ${shown(findings[0].id)} has a security finding`;
  } else if (failed.length === 0 && findings.length === 0) return `${says}, but none of its tests failed or has a security finding`;
  if (report.verdict !== 'conformant') return undefined;
  if (tests.length === 0) return `${says}, but it holds no test`;
  if (skipped[0]) return `${says}, but its test ${shown(skipped[0].id)} was skipped${skipped.length > 1 ? ` (and ${skipped.length - 1} more)` : ''}`;
  const pairs = Array.isArray(report.coverage?.pairs) ? report.coverage.pairs : undefined;
  if (!pairs) return `${says}, but it has no pair coverage`;
  const pair = pairs.find((p) => p.outcome !== 'passed');
  if (pair) return `${says}, but its pair ${shown(`${pair.endpoint} ${pair.status}`)} is ${shown(pair.outcome)}`;
  const rules = report.coverage.rules ?? [];
  const passedCites = new Set(tests.filter((t) => t.outcome === 'passed').flatMap((t) => t.rules ?? []));
  // Before report 1.3.0 a rule no test of the suite version checked carried no `pending` flag, and from 1.2.0 on
  // the verdict ignored it (then PENDING_RULES): such a report's uncited rule is no contradiction.
  const flagsPending = !/^1\.[0-2]\./.test(String(report.reportVersion));
  const left = rules.find((r) => r.observable && r.outcome !== 'passed' && r.pending !== true && (flagsPending || (r.tests?.length ?? 0) > 0));
  if (left) return `${says}, but its rule ${shown(left.id)} is ${shown(left.outcome)} although a test of this suite version checks it`;
  const uncited = rules.find((r) => r.outcome === 'passed' && !passedCites.has(r.id));
  if (uncited) return `${says}, but its rule ${shown(uncited.id)} is shown verified and no passed test cites it`;
  return undefined;
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
  // A rule is verified only where it was checked everywhere it applies: every instance, where the report has them.
  const instances = instanceClaims(report);
  const everyInstance = !instances || instances.verified === instances.observable;
  return everyRule && everyInstance && evidenced(report) ? 'conformant' : 'incomplete';
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
  const contradicted = contradiction(report);
  if (contradicted) throw new ReportContradiction(`certify refuses the report: its records contradict its verdict: ${contradicted} (a report \`conformance run\` wrote never does: was it edited? certify the report as the run wrote it)`);
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
    implementation: implementationClaim(report),
    ...(instanceClaims(report) !== undefined ? { instances: instanceClaims(report) } : {}),
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
    claims = parseBoundedJson(new TextDecoder().decode(payload), 'the signed payload') as CertificateClaims;
  } catch (error) {
    return { holds: false, what: 'certificate', reason: error instanceof TooLargeError ? error.message : 'the signed payload is not JSON' };
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
  const contradicted = contradiction(report);
  if (contradicted) notes.push(`the report's records contradict its verdict (${contradicted}); certificate version ${version} signed it, this suite version refuses to certify such a report`);
  return { holds: true, claims, alg: header.alg ?? expected, reportSha256: actual, notes };
}

/** JSON with its object keys sorted: two values compare alike whatever order their keys came in. */
const canonical = membersInOrder;

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
  const version = claims.certificateVersion ?? 1;
  const rules = ruleClaims(report, version);
  if (canonical(claims.rules ?? null) !== canonical(rules)) return `rules ${canonical(claims.rules ?? null)}, the report ${canonical(rules)}`;
  if (version >= 3) {
    const implementation = implementationClaim(report);
    if (canonical(claims.implementation ?? null) !== canonical(implementation)) return `implementation ${canonical(claims.implementation ?? null)}, the report ${canonical(implementation)}`;
    if (canonical(claims.instances ?? null) !== canonical(instanceClaims(report) ?? null)) return `instances ${canonical(claims.instances ?? null)}, the report ${canonical(instanceClaims(report) ?? null)}`;
  }
  if (claims.reportVerdict !== report.verdict) return `report verdict ${claims.reportVerdict ?? 'absent'}, the report ${report.verdict}`;
  const verdict = certifiedVerdict(report);
  if (claims.verdict !== verdict) return `verdict ${claims.verdict}, where the report certifies ${verdict}`;
  return undefined;
}

/** "rules: 318 of 335 observable verified; 17 checked by no test of this suite version (S26, ...); 2 not verified in the run (S5, S9)". */
export function ruleClaimsLine(rules: RuleClaims | null | undefined): string {
  if (!rules) return 'rules: not claimed (the report predates rule coverage, or the certificate predates rule claims)';
  const ids = (list: string[]) => (list.length > 12 ? `${list.slice(0, 12).join(', ')} and ${list.length - 12} more` : list.join(', '));
  const failed = rules.failed ?? [];
  return `rules: ${rules.verified} of ${rules.observable} observable verified${failed.length ? `; ${failed.length} failed (${ids(failed)})` : ''}${rules.pending.length ? `; ${rules.pending.length} checked by no test of this suite version (${ids(rules.pending)})` : ''}${rules.unverified.length ? `; ${rules.unverified.length} not verified in the run (${ids(rules.unverified)})` : ''}`;
}

/** "implementation: Acme Accounts 2.3.1 (declared by the operator)", or that none was declared. */
export function implementationLine(implementation: ImplementationClaim | null | undefined): string {
  if (!implementation) return 'implementation: not declared (the run was given no --implementation)';
  return `implementation: ${shown(`${implementation.name} ${implementation.version}`).slice(1, -1)} (declared by the operator, not checked by the suite)`;
}
