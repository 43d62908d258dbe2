import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { algorithmFor, certify, loadPrivateKey, loadPublicKey, verifyCertificate } from '../reporting/certificate.js';
import { certifyCommand, defaultCertificatePath, UsageError, verifyCommand } from '../reporting/commands.js';
import { CompactSign } from 'jose';
import { passingEverything, record, report } from './reporting-fixtures.js';
import { conformantScope } from '../reporting/facts.js';
import { toMarkdown } from '../reporting/markdown.js';
import { summaryLines } from '../reporting/terminal.js';
import { CERTIFICATE_TYPE, keyId } from '../reporting/certificate.js';
import { tempDir } from './support.js';

const pem = { type: 'pkcs8', format: 'pem' } as const;
const spki = { type: 'spki', format: 'pem' } as const;
const KEYS = {
  RS256: generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: pem, publicKeyEncoding: spki }),
  ES256: generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: pem, publicKeyEncoding: spki }),
  EdDSA: generateKeyPairSync('ed25519', { privateKeyEncoding: pem, publicKeyEncoding: spki }),
};

const reportBytes = Buffer.from(`${JSON.stringify(report([record('answers 200 with the list')]), null, 2)}\n`);

/** The certificate with one character of its payload changed (still base64url). */
function tamper(jws: string): string {
  const [header, payload, signature] = jws.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
  claims.verdict = 'conformant';
  claims.target.baseUrl = 'http://elsewhere.test';
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

describe('certificate', () => {
  for (const [alg, pair] of Object.entries(KEYS)) {
    test(`signs with ${alg} and verifies; a tampered report or certificate does not hold`, async () => {
      const privateKey = loadPrivateKey(pair.privateKey);
      const publicKey = loadPublicKey(pair.publicKey);
      expect(algorithmFor(privateKey)).toBe(alg);
      const { jws, claims } = await certify(reportBytes, privateKey, new Date('2026-01-02T00:00:00Z'));
      expect(jws.split('.')).toHaveLength(3);
      expect(claims).toMatchObject({ verdict: 'incomplete', target: { baseUrl: 'http://127.0.0.1:9' }, suite: { version: '0.0.0-test' }, spec: { version: 'v1' }, date: '2026-01-01T00:00:02.500Z' });
      expect(claims.report.sha256).toMatch(/^[0-9a-f]{64}$/);

      expect(await verifyCertificate(jws, publicKey, reportBytes)).toMatchObject({ holds: true, alg });
      const altered = Buffer.from(reportBytes.toString('utf8').replace('"incomplete"', '"conformant"'));
      expect(await verifyCertificate(jws, publicKey, altered)).toMatchObject({ holds: false, what: 'report' });
      expect(await verifyCertificate(tamper(jws), publicKey, reportBytes)).toMatchObject({ holds: false, what: 'certificate', reason: expect.stringContaining('signature does not match') });
      expect(await verifyCertificate('not a certificate', publicKey, reportBytes)).toMatchObject({ holds: false, what: 'certificate' });
    });
  }

  test('a certificate does not hold for another key', async () => {
    const { jws } = await certify(reportBytes, loadPrivateKey(KEYS.ES256.privateKey));
    const otherEc = generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding: spki, privateKeyEncoding: pem });
    expect(await verifyCertificate(jws, loadPublicKey(otherEc.publicKey), reportBytes)).toMatchObject({ holds: false, what: 'certificate' });
    expect(await verifyCertificate(jws, loadPublicKey(KEYS.RS256.publicKey), reportBytes)).toMatchObject({ holds: false, what: 'key', reason: expect.stringContaining('signed with ES256') });
  });

  test('the commands: certify writes next to the report; verify exits 0 when it holds, 1 when not, and usage errors are thrown', async () => {
    const dir = tempDir('cert-');
    const reportPath = join(dir, 'report.json');
    writeFileSync(reportPath, reportBytes);
    writeFileSync(join(dir, 'private.pem'), KEYS.EdDSA.privateKey);
    writeFileSync(join(dir, 'public.pem'), KEYS.EdDSA.publicKey);
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };

    expect(await certifyCommand(reportPath, join(dir, 'private.pem'), undefined, io)).toBe(0);
    const certificate = defaultCertificatePath(reportPath);
    expect(certificate).toBe(join(dir, 'report.certificate.jws'));
    expect(lines.join('\n')).toContain('note: the certificate records the verdict "incomplete"');

    expect(await verifyCommand(certificate, join(dir, 'public.pem'), reportPath, io)).toBe(0);
    expect(lines.at(-3)).toMatch(/^HOLDS: /);

    writeFileSync(join(dir, 'tampered.json'), `${reportBytes.toString('utf8')} `);
    expect(await verifyCommand(certificate, join(dir, 'public.pem'), join(dir, 'tampered.json'), io)).toBe(1);
    expect(lines.at(-1)).toMatch(/^DOES NOT HOLD: report .*tampered\.json: the report was altered/);

    writeFileSync(join(dir, 'tampered.jws'), tamper(readFileSync(certificate, 'utf8').trim()));
    expect(await verifyCommand(join(dir, 'tampered.jws'), join(dir, 'public.pem'), reportPath, io)).toBe(1);
    expect(lines.at(-1)).toMatch(/^DOES NOT HOLD: certificate .*tampered\.jws: the signature does not match/);

    await expect(certifyCommand(reportPath, join(dir, 'public.pem'), undefined, io)).rejects.toThrow(UsageError);
    await expect(verifyCommand(certificate, join(dir, 'missing.pem'), reportPath, io)).rejects.toThrow(/cannot read key .*missing\.pem: no such file/);
    await expect(verifyCommand(certificate, reportPath, reportPath, io)).rejects.toThrow(/is not a PEM public key/);
  });
});

/** The bytes of a report as `run` writes them. */
const bytesOf = (built: ReturnType<typeof report>) => Buffer.from(`${JSON.stringify(built, null, 2)}\n`);

describe('a certificate and the rules no test of the suite version checks (pending)', () => {
  // The pending list is injected: these tests hold whatever PENDING_RULES holds today, empty included.
  const PENDING = ['S26'];
  const privateKey = loadPrivateKey(KEYS.EdDSA.privateKey);
  const publicKey = loadPublicKey(KEYS.EdDSA.publicKey);

  test('every pair passed and one rule pending: the run is conformant on the rules it checks and says so; certify signs incomplete, naming the rule', async () => {
    const built = report(passingEverything(PENDING), {}, PENDING);
    expect(built.coverage.pairs.every((p) => p.outcome === 'passed')).toBe(true);
    expect(built.coverage.rules!.filter((r) => r.pending)).toEqual([expect.objectContaining({ id: 'S26', outcome: 'not verified', pending: true })]);
    expect(built.coverage.ruleSummary).toMatchObject({ pending: 1, notVerified: 1 });
    expect(built.verdict).toBe('conformant');
    const scope = conformantScope(built)!;
    expect(scope).toMatch(/^conformant on the \d+ observable rules this suite version checks; 1 rule is checked by no test yet \(S26\), so a certificate says incomplete$/);
    expect(summaryLines(built, {})).toContain(`  ${scope}`);
    expect(toMarkdown(built)).toContain(scope);

    const bytes = bytesOf(built);
    const { claims, jws } = await certify(bytes, privateKey);
    expect(claims.verdict).toBe('incomplete');
    expect(claims.reportVerdict).toBe('conformant');
    expect(claims.rules).toEqual({ observable: built.coverage.ruleSummary!.observable, verified: built.coverage.ruleSummary!.observable - 1, pending: ['S26'], unverified: [] });
    expect(await verifyCertificate(jws, publicKey, bytes)).toMatchObject({ holds: true, claims: { verdict: 'incomplete' }, notes: [] });

    const dir = tempDir('cert-pending-');
    writeFileSync(join(dir, 'report.json'), bytes);
    writeFileSync(join(dir, 'private.pem'), KEYS.EdDSA.privateKey);
    writeFileSync(join(dir, 'public.pem'), KEYS.EdDSA.publicKey);
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(await certifyCommand(join(dir, 'report.json'), join(dir, 'private.pem'), undefined, io)).toBe(0);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}verdict incomplete for /));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}rules: \d+ of \d+ observable verified; 1 checked by no test of this suite version \(S26\)$/));
    expect(lines).toContainEqual('  note: the run is conformant on the rules its suite version checks, but a certification requires every observable rule verified: certified "incomplete"; checked by no test of suite 0.0.0-test: S26');
    expect(lines.join('\n')).not.toMatch(/verdict conformant/);
    expect(await verifyCommand(defaultCertificatePath(join(dir, 'report.json')), join(dir, 'public.pem'), join(dir, 'report.json'), io)).toBe(0);
    expect(lines.at(-1)).toMatch(/^ {2}rules: .*1 checked by no test of this suite version \(S26\)$/);
  });

  test('every pair passed and every observable rule verified: certify signs conformant', async () => {
    const built = report(passingEverything(), {}, []);
    expect(built.verdict).toBe('conformant');
    expect(conformantScope(built)).toBeUndefined();
    const bytes = bytesOf(built);
    const { claims, jws } = await certify(bytes, privateKey);
    expect(claims).toMatchObject({ verdict: 'conformant', reportVerdict: 'conformant', rules: { pending: [], unverified: [] } });
    expect(claims.rules!.verified).toBe(claims.rules!.observable);
    expect(await verifyCertificate(jws, publicKey, bytes)).toMatchObject({ holds: true, claims: { verdict: 'conformant' } });
  });

  test('a rule a test checks left unverified (its test skipped) keeps the run incomplete, and the certificate names it apart from pending ones', async () => {
    const tests = [...passingEverything(['S26', 'S57']), record('checks S57', { outcome: 'skipped', rules: ['S57'] })];
    const built = report(tests, {}, PENDING);
    expect(built.verdict).toBe('incomplete');
    const { claims } = await certify(bytesOf(built), privateKey);
    expect(claims).toMatchObject({ verdict: 'incomplete', reportVerdict: 'incomplete', rules: { pending: ['S26'], unverified: ['S57'] } });
  });

  test('a report edited to say conformant over what its own records show (a skipped test, a rule no passed test cites, a pair not passed) is certified incomplete', async () => {
    const honest = report(passingEverything(), {}, []);
    expect((await certify(bytesOf(honest), privateKey)).claims.verdict).toBe('conformant');
    const skipped = { ...honest, tests: honest.tests.map((t, i) => (i === 0 ? { ...t, outcome: 'skipped' as const, reason: 'not run' } : t)) };
    const uncited = { ...honest, tests: honest.tests.map((t) => ({ ...t, rules: (t.rules ?? []).filter((id) => id !== 'S57') })) };
    const pairLeft = { ...honest, coverage: { ...honest.coverage, pairs: honest.coverage.pairs.map((p, i) => (i === 0 ? { ...p, outcome: 'not verified' as const } : p)) } };
    for (const [what, edited] of [['a skipped test', skipped], ['a rule no passed test cites', uncited], ['a pair not passed', pairLeft]] as const) {
      expect(edited.verdict).toBe('conformant');
      const bytes = bytesOf(edited);
      const { claims, jws } = await certify(bytes, privateKey);
      expect(claims.verdict, what).toBe('incomplete');
      expect(await verifyCertificate(jws, publicKey, bytes), what).toMatchObject({ holds: true, claims: { verdict: 'incomplete' } });
    }
    const dir = tempDir('cert-edited-');
    writeFileSync(join(dir, 'report.json'), bytesOf(skipped));
    writeFileSync(join(dir, 'private.pem'), KEYS.EdDSA.privateKey);
    const lines: string[] = [];
    expect(await certifyCommand(join(dir, 'report.json'), join(dir, 'private.pem'), undefined, { out: (line) => lines.push(line), err: (line) => lines.push(line) })).toBe(0);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}note: the report says conformant, but its own records do not bear it out .*: certified "incomplete"$/));
  });

  /** A certificate signed with the right key over claims of the certifier's choosing. */
  async function signed(claims: object): Promise<string> {
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: 'EdDSA', typ: CERTIFICATE_TYPE, kid: await keyId(privateKey) }).sign(privateKey);
  }

  test('verify: a signed certificate whose claims are not its report\'s does not hold; one of version 1 holds if its claims are its report\'s, with a note that it carries no rule claims, or what this version certifies where it says conformant', async () => {
    const bytes = bytesOf(report(passingEverything(PENDING), {}, PENDING));
    const { claims } = await certify(bytes, privateKey);
    const conformant = await signed({ ...claims, verdict: 'conformant' });
    expect(await verifyCertificate(conformant, publicKey, bytes)).toMatchObject({ holds: false, what: 'certificate', reason: "the certificate's claims are not the report's: verdict conformant, where the report certifies incomplete" });
    const hidden = await signed({ ...claims, verdict: 'conformant', rules: { ...claims.rules, pending: [], verified: claims.rules!.observable } });
    expect(await verifyCertificate(hidden, publicKey, bytes)).toMatchObject({ holds: false, what: 'certificate', reason: expect.stringMatching(/^the certificate's claims are not the report's: rules /) });
    const { rules: _rules, reportVerdict: _verdict, ...version1 } = { ...claims, certificateVersion: 1, verdict: 'conformant' };
    // Version 1 signed the report's own verdict: conformant here, while a rule is pending. It holds, and says what it certifies today.
    expect(await verifyCertificate(await signed(version1), publicKey, bytes)).toMatchObject({
      holds: true,
      notes: [expect.stringMatching(/^certificate version 1 says conformant without requiring every observable rule verified: this suite version certifies the report incomplete \(rules: \d+ of \d+ observable verified; 1 checked by no test of this suite version \(S26\)\)$/)],
    });
    expect(await verifyCertificate(await signed({ ...version1, verdict: 'incomplete' }), publicKey, bytes)).toMatchObject({ holds: false, what: 'certificate', reason: "the certificate's claims are not the report's: verdict incomplete, the report conformant" });
    const incomplete = bytesOf(report([record('answers 200 with the list')], {}, PENDING));
    const { claims: claimsOfIncomplete } = await certify(incomplete, privateKey);
    const { rules: _r, reportVerdict: _v, ...incomplete1 } = { ...claimsOfIncomplete, certificateVersion: 1 };
    expect(await verifyCertificate(await signed(incomplete1), publicKey, incomplete)).toMatchObject({ holds: true, notes: [expect.stringMatching(/^certificate version 1 carries no rule claims/)] });
  });

  test('verify: every claim it prints is the report\'s (target, suite, spec, date, summary, report format), whatever the version', async () => {
    const bytes = bytesOf(report(passingEverything(PENDING), {}, PENDING));
    const { claims } = await certify(bytes, privateKey);
    const altered: [string, object, RegExp][] = [
      ['target', { target: { ...claims.target, baseUrl: 'http://127.0.0.1:8080' } }, /: target \{"baseUrl":"http:\/\/127\.0\.0\.1:8080"/],
      ['suite', { suite: { ...claims.suite, version: '9.9.9' } }, /: suite /],
      ['spec', { spec: { ...claims.spec, version: '2' } }, /: spec /],
      ['date', { date: '2030-01-01T00:00:00.000Z' }, /: date "2030-01-01/],
      ['summary', { summary: { ...claims.summary, failed: 0, passed: claims.summary.passed + 1 } }, /: summary /],
      ['report format', { report: { ...claims.report, reportVersion: '1.2.0' } }, /: report format 1\.2\.0, the report 1\.4\.0/],
    ];
    for (const [what, change, reason] of altered) {
      for (const version of [1, 2]) {
        const result = await verifyCertificate(await signed({ ...claims, ...change, certificateVersion: version }), publicKey, bytes);
        expect(result, `${what}, version ${version}`).toMatchObject({ holds: false, what: 'certificate', reason: expect.stringMatching(reason) });
      }
    }
    // The same claims with their keys in another order are the same claims.
    const reordered = Object.fromEntries(Object.entries(claims).reverse().map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v]));
    expect(await verifyCertificate(await signed(reordered), publicKey, bytes)).toMatchObject({ holds: true, notes: [] });
  });
});
