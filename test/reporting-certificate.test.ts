import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { algorithmFor, certify, loadPrivateKey, loadPublicKey, verifyCertificate } from '../reporting/certificate.js';
import { certifyCommand, defaultCertificatePath, UsageError, verifyCommand } from '../reporting/commands.js';
import { record, report } from './reporting-fixtures.js';
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
    expect(lines.at(-2)).toMatch(/^HOLDS: /);

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
