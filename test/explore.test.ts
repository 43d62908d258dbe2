import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSkip, NotVerified, roadBlock, search, type Probe } from '../explore/engine.js';
import { expectRefusedForAny, expectStoredAsSent, judgeRule, judgeType } from '../explore/judge.js';
import { digitsVerdict, emailOfLength, lengthReadings, lengthVerdict, nonString, plainEmail, REWRITTEN_TEXT, textBetween, textChar } from '../explore/values.js';
import { ApiResponse } from '../helpers/net/http.js';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { storedForm } from '../helpers/spec/normalisation.js';
import { twoByteText } from '../helpers/arrange/text.js';
import { RESTRICTED_REASON } from '../helpers/spec/logins.js';
import type { Report } from '../reporting/model.js';
import { conformance, tempDir } from './support.js';

describe('explore: judging a value when the specification can be read several ways', () => {
  it('counts characters, never bytes: two-byte letters inside a limit are inside under every reading', () => {
    expect(lengthVerdict(twoByteText(191), 1, 191)).toBe('inside');
    expect(lengthVerdict(twoByteText(192), 1, 191)).toBe('outside');
    expect(lengthVerdict(twoByteText(4), 8, 191)).toBe('outside');
  });

  it('calls a value ambiguous when characters outside the BMP, trimmed ends or normalisation change its side of the limit', () => {
    expect(lengthVerdict(`${'a'.repeat(190)}\u{1F600}`, 1, 191)).toBe('ambiguous'); // 191 code points, 192 UTF-16 units
    expect(lengthVerdict(` ${'a'.repeat(191)}`, 1, 191)).toBe('ambiguous'); // 192, or 191 once trimmed
    expect(lengthVerdict(`${'a'.repeat(190)}e\u0301`, 1, 191)).toBe('ambiguous'); // 192, or 191 after NFC
    expect(lengthReadings('\u00e9')).toEqual([1, 1, 1, 2, 1, 1, 1]);
  });

  it('counts grapheme clusters too (Elixir String.length, Swift count): letters with loose combining marks are ambiguous, not outside', () => {
    const marked = 'a\u0308\u0323'.repeat(64); // 192 code points, none composable to one, 64 graphemes
    expect(lengthReadings(marked)[5]).toBe(64);
    expect(lengthVerdict(marked, 0, 191)).toBe('ambiguous');
  });

  it('reads "exactly n digits" as ASCII digits, ambiguous for other decimal digits and trimmed ends', () => {
    expect(digitsVerdict('123456', 6)).toBe('inside');
    expect(digitsVerdict('12a456', 6)).toBe('outside');
    expect(digitsVerdict('\u0661\u0662\u0663\u0664\u0665\u0666', 6)).toBe('ambiguous');
    expect(digitsVerdict(' 123456', 6)).toBe('ambiguous');
  });
});

/** A probe that only records advisories: judge.ts's functions touch nothing else. */
function recordingProbe(advisories: string[]): Probe {
  return { advise: (message: string) => advisories.push(message) } as unknown as Probe;
}
const json = (status: number, body: unknown) => new ApiResponse(status, {}, JSON.stringify(body), { ok: true, value: body });
const refusedPassword = json(422, { message: 'The password field is invalid.', errors: { password: ['invalid'] } });
/** The value and the forms a report could carry it in: as is, JSON-escaped, \\u-escaped. */
const forms = (secret: string) => [secret, JSON.stringify(secret).slice(1, -1), secret.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)];

describe('explore: a password never reaches an advisory or a failure message', () => {
  it('judges a password by its shape only, in advisories and in failures, for generated passwords', () => {
    fc.assert(
      fc.property(textBetween(8, 40, textChar), (password) => {
        const messages: string[] = [];
        // Ambiguous and refused, where the plainest reading keeps the rule: an advisory.
        judgeRule(recordingProbe(messages), refusedPassword, 'password', 'at least 8, at most 191 characters', 'ambiguous', password, true, true);
        // Outside but not refused: a failure.
        try {
          judgeRule(recordingProbe(messages), json(403, { message: 'no' }), 'password', 'at least 8, at most 191 characters', 'outside', password, false, true);
        } catch (error) {
          messages.push((error as Error).message);
        }
        expect(messages).toHaveLength(2);
        for (const message of messages) for (const form of forms(password)) expect(message).not.toContain(form);
        expect(messages[0]).toMatch(/its value is not shown/);
      }),
      { seed: 13, numRuns: 50 },
    );
  });

  it('names only the JSON type of a non-string password, in a failure and an advisory', () => {
    fc.assert(
      fc.property(nonString.filter((v) => v !== null && JSON.stringify(v).length > 2), (value) => {
        const messages: string[] = [];
        try {
          judgeType(recordingProbe(messages), json(200, { data: {} }), 'password', value, false, false, true);
        } catch (error) {
          messages.push((error as Error).message);
        }
        judgeType(recordingProbe(messages), json(403, { message: 'no' }), 'password', value, false, false, true);
        expect(messages).toHaveLength(2);
        for (const message of messages) expect(message).not.toContain(JSON.stringify(value));
      }),
      { seed: 13, numRuns: 30 },
    );
  });

  it('every password judgement of explore/ passes the secret flag', () => {
    const dir = join(import.meta.dirname, '..', 'explore');
    const calls = readdirSync(dir)
      .filter((f) => f.endsWith('.explore.ts'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').match(/judge(Rule|Type)\(probe, [^;]*'password'[^;]*\);/g) ?? []);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const call of calls) expect(call).toMatch(/, true\);$|field === 'password'\);$/);
  });
});

describe('explore: a request that breaks the rules of several fields, or a rule without a status', () => {
  it('takes a 422 keyed by any of the fields concerned, advising when it is not the first, and fails one keyed by none', () => {
    const advisories: string[] = [];
    const probe = recordingProbe(advisories);
    const invalid = (errors: Record<string, string[]>) => json(422, { message: 'The given data was invalid.', errors });
    expectRefusedForAny(probe, invalid({ email: ['bad'] }), ['email', 'token'], 'a valid e-mail');
    expect(advisories).toEqual([]);
    expectRefusedForAny(probe, invalid({ token: ['invalid'] }), ['email', 'token'], 'a valid e-mail');
    expect(advisories).toHaveLength(1);
    expect(advisories[0]).toMatch(/keyed by token, not email/);
    expect(() => expectRefusedForAny(probe, invalid({ password: ['short'] }), ['email', 'token'], 'a valid e-mail')).toThrow(/422 keyed by email/);
    expect(() => expectRefusedForAny(probe, json(200, { data: {} }), ['email', 'token'], 'a valid e-mail')).toThrow(/422 keyed by email/);
  });

  it('judges a forgot-password type of another JSON type as docs/explore.md says: a success fails, another refusal is advised on', () => {
    const advisories: string[] = [];
    judgeType(recordingProbe(advisories), json(400, { message: 'The type must be a string.' }), 'type', true, false, true);
    expect(advisories).toHaveLength(1);
    expect(() => judgeType(recordingProbe(advisories), json(200, { data: { message: 'sent' } }), 'type', true, false, true)).toThrow(/must be 422 keyed by type/);
    // A JSON number may be taken as its digits: advised on whatever it is answered, a 5xx excepted (review-an F5).
    judgeType(recordingProbe(advisories), json(200, { data: { message: 'sent' } }), 'type', 42, false, true);
    judgeType(recordingProbe(advisories), json(201, { data: {} }), 'currency', 978, true);
    expect(advisories).toHaveLength(3);
    expect(() => judgeType(recordingProbe(advisories), json(500, { message: 'Server Error' }), 'currency', 978, true)).toThrow();
    const explore = readFileSync(join(import.meta.dirname, '..', 'explore', 'password.explore.ts'), 'utf8');
    expect(explore).toContain("judgeType(probe, response, field, value, field === 'email', field === 'type')");
  });
});

describe('explore: a stored text', () => {
  it('stored upper-cased, lower-cased, NFD or trimmed is an advisory; another text fails', () => {
    const advisories: string[] = [];
    const probe = recordingProbe(advisories);
    expectStoredAsSent(probe, 'iban', 'ZXABCDEF12', 'ZXabcDEF12');
    expectStoredAsSent(probe, 'holderName', 'Zo\u0065\u0308', 'Zo\u00eb');
    expectStoredAsSent(probe, 'holderName', 'Zo\u00eb', ' Zo\u00eb ');
    expect(advisories).toHaveLength(3);
    expect(() => expectStoredAsSent(probe, 'iban', 'ZXABCDEF13', 'ZXabcDEF12')).toThrow(/must be stored as sent/);
  });
});

describe('equivalent forms of a field (helpers/spec/normalisation.ts EQUIVALENT_FORMS)', () => {
  it('an IBAN in ISO 13616 print format and an 8-character swift as BIC11 with XXX are the value sent, for their field only', () => {
    expect(storedForm('DE89 3704 0044 0532 0130 00', 'DE89370400440532013000', 'iban')).toBe('equivalent');
    expect(storedForm('de89 3704 0044 0532 0130 00', 'DE89370400440532013000', 'iban')).toBe('equivalent');
    expect(storedForm('DEUTDEFFXXX', 'DEUTDEFF', 'swift')).toBe('equivalent');
    expect(storedForm('DEUTDEFF', 'DEUTDEFFXXX', 'swift')).toBe('equivalent');
    expect(storedForm('deutdeffXXX', 'deutdeff', 'swift')).toBe('equivalent');
    // Named per field: another field, or no field, knows no such form.
    expect(storedForm('DEUTDEFFXXX', 'DEUTDEFF', 'bankName')).toBe('different');
    expect(storedForm('DE89 3704 0044 0532 0130 00', 'DE89370400440532013000')).toBe('different');
    expect(storedForm('DEUTDEFFXXX', 'DEUTDEFF', 'toString')).toBe('different');
  });

  it('a near text that is another value is still different: truncated, another branch, spaces elsewhere, changed characters', () => {
    expect(storedForm('DE89 3704 0044 0532 0130', 'DE89370400440532013000', 'iban')).toBe('different');
    expect(storedForm('DE8 9370 4004 4053 2013 000', 'DE89370400440532013000', 'iban')).toBe('different');
    expect(storedForm('DE89  3704 0044 0532 0130 00', 'DE89370400440532013000', 'iban')).toBe('different');
    expect(storedForm('DE89 3704 0044 0532 0130 01', 'DE89370400440532013000', 'iban')).toBe('different');
    expect(storedForm('DEUTDEFF001', 'DEUTDEFF', 'swift')).toBe('different');
    expect(storedForm('DEUTDEFF', 'DEUTDEFF500', 'swift')).toBe('different');
    expect(storedForm('DEUTDEFFXX', 'DEUTDEFF', 'swift')).toBe('different');
    expect(storedForm('DEUTDEFGXXX', 'DEUTDEFF', 'swift')).toBe('different');
  });

  it('explore advises on an equivalent form; a near value still fails', () => {
    const advisories: string[] = [];
    expectStoredAsSent(recordingProbe(advisories), 'swift', 'DEUTDEFFXXX', 'DEUTDEFF');
    expect(advisories).toHaveLength(1);
    expect(advisories[0]).toMatch(/equivalent form/);
    expect(() => expectStoredAsSent(recordingProbe(advisories), 'swift', 'DEUTDEFF001', 'DEUTDEFF')).toThrow(/must be stored as sent/);
  });
});

describe('explore: a stored text rewritten on input (review-an F5)', () => {
  it('the text sent in NFKC, or without its invisible format characters, is a normalised form (advised on); a character added or changed is not', () => {
    expect(storedForm(' \u0308 ', '\u00a8 ', 'bankName')).toBe('normalised'); // NFKC of U+00A8 begins with a space
    expect(storedForm('Muller finance', '\uff2d\uff55\uff4c\uff4c\uff45\uff52 \ufb01nance', 'alias')).toBe('normalised');
    expect(storedForm('MULLER', '\uff2d\uff55\uff4c\uff4c\uff45\uff52', 'holderName')).toBe('normalised');
    expect(storedForm(REWRITTEN_TEXT.normalize('NFKC'), REWRITTEN_TEXT, 'bankName')).toBe('normalised');
    // Invisible characters taken out, some or all (allowed-r10-texts-invisible-characters-removed keeps the emoji joiner U+200D).
    expect(storedForm('ab\u200dc', 'a\u200bb\u200dc\u00ad', 'holderName')).toBe('normalised');
    expect(storedForm('abc', 'a\u200bb\u200dc\u00ad', 'holderName')).toBe('normalised');
    expect(storedForm('ABC', 'a\u200bbc', 'holderName')).toBe('normalised');
    // One way only: an invisible character added, another one, or a letter changed, is another text.
    expect(storedForm('a\u200bbc', 'abc', 'holderName')).toBe('different');
    expect(storedForm('a\u200cbc', 'a\u200bbc', 'holderName')).toBe('different');
    expect(storedForm('\u00bd', '1\u20442', 'alias')).toBe('different'); // NFKC folds \u00bd to 1\u20442, not back
    expect(storedForm('Muller finanze', '\uff2d\uff55\uff4c\uff4c\uff45\uff52 \ufb01nance', 'alias')).toBe('different');
  });

  it('counts a length in NFKC too: a text normalised before it is validated (allowed-review-an-texts-stored-nfkc)', () => {
    expect(lengthVerdict(`${'a'.repeat(180)}\ufdfa`, 1, 191)).toBe('ambiguous'); // 181 code points, 198 in NFKC
    expect(lengthVerdict(REWRITTEN_TEXT, 1, 191)).toBe('inside');
  });
});

describe('explore: e-mail addresses at example.com (review-an F7)', () => {
  it('builds addresses of every length asked for at example.com, or in labels under it, valid per RFC 5321', () => {
    for (const [min, max] of [[13, 191], [192, 254], [256, 320]] as const) {
      for (const email of fc.sample(plainEmail(min, max), { seed: 5, numRuns: 300 })) {
        expect(email.length).toBeGreaterThanOrEqual(min);
        expect(email.length).toBeLessThanOrEqual(max);
        expect(email).toMatch(/^[a-z0-9]{1,64}@(?:[a-z0-9]{1,63}\.)*example\.com$/);
      }
    }
    for (const length of [13, 76, 77, 78, 140, 141, 191]) expect(emailOfLength(length)).toHaveLength(length);
  });
});

describe('explore: a run that cannot be judged (review-an)', () => {
  const exchange = (method: string, url: string, status: number, rateLimited?: number) => ({ request: { method, url, headers: {} }, response: { status, headers: {} }, durationMs: 1, ...(rateLimited ? { rateLimited } : {}) });

  it('takes a 425 to a login, and a rate limiter left after every retry, for the road, not the target', () => {
    expect(roadBlock([exchange('POST', 'http://t/api/v1/authenticate', 425)])).toBe(RESTRICTED_REASON);
    expect(roadBlock([exchange('GET', 'http://t/api/v1/user/x/bank', 429, 9)])).toMatch(/^not verified: rate limited/);
    expect(roadBlock([exchange('GET', 'http://t/api/v1/user/x/bank', 425), exchange('POST', 'http://t/api/v1/authenticate', 403)])).toBeUndefined();
  });

  it('a run not verified before any failure ends the search as skipped, unshrunk', async () => {
    const outcome = await search(fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (n >= 0) throw new NotVerified('not verified: 425');
    }, { seed: 1, numRuns: 10, shrink: true });
    expect(outcome.skipped).toBeInstanceOf(NotVerified);
    expect(outcome.details.failed).toBe(false);
  });

  it('a failure found stays a failure when a step of its shrinking cannot be judged: the shrinking stops there', async () => {
    let skipsHeard = 0;
    const outcome = await search(fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (n < 500) return;
      // While shrinking: a value below 900 meets the restriction (a 425), as a login would after the failures so far.
      if (n < 900) throw Object.assign(new Error('test is skipped; abort execution'), { code: 'VITEST_PENDING', note: 'not verified: 425' });
      throw new Error(`fails at ${n}`);
    }, { seed: 1, numRuns: 50, shrink: true, examples: [950], onSkipWhileShrinking: () => skipsHeard++ });
    expect(outcome.skipped).toBeUndefined();
    expect(outcome.details.failed).toBe(true);
    expect(outcome.details.counterexample![0]).toBeGreaterThanOrEqual(900);
    expect(outcome.shrinkStopped).toBe('not verified: 425');
    expect(skipsHeard).toBe(1);
  });
});

describe('explore: a skip inside a property stays a skip (never a counterexample)', () => {
  it("recognises vitest's skip error, whose code the runner still sets", () => {
    const runner = readFileSync(join(import.meta.dirname, '..', 'node_modules', '@vitest', 'runner', 'dist', 'chunk-artifact.js'), 'utf8');
    expect(runner).toMatch(/class PendingError extends Error \{\s*code = "VITEST_PENDING"/);
    expect(isSkip(Object.assign(new Error('test is skipped; abort execution'), { code: 'VITEST_PENDING' }))).toBe(true);
    expect(isSkip(new Error('precondition: forgot-password must answer 200'))).toBe(false);
  });
});

describe('explore: generation', () => {
  it('is deterministic: the same seed generates the same inputs', () => {
    const sample = () => fc.sample(textBetween(1, 191), { seed: 42, numRuns: 20 });
    expect(sample()).toEqual(sample());
  });

  it('shrinks a failing text to the smallest of its branch that still fails (no chain)', () => {
    const shrunk = (seed: number) => {
      const details = fc.check(fc.property(textBetween(1, 191, fc.constant('\u00e9')), (text) => Buffer.byteLength(text) <= 191), { seed, numRuns: 100 });
      expect(details.failed).toBe(true);
      expect(details.numShrinks).toBeGreaterThan(0);
      return [...(details.counterexample![0] as string)].length;
    };
    expect(shrunk(3)).toBe(96); // the whole range shrinks to the fewest two-byte letters over 191 bytes
    expect(shrunk(1)).toBe(189); // the branch of lengths near the maximum shrinks to its own floor
  });

  it('shrinks an example too: the boundary tried first is read back into the arbitrary', () => {
    const details = fc.check(fc.property(textBetween(1, 191), (text) => Buffer.byteLength(text) <= 191), { seed: 1, numRuns: 1, examples: [[twoByteText(191)]] });
    expect(details.numShrinks).toBeGreaterThan(0);
    expect([...(details.counterexample![0] as string)]).toHaveLength(96);
  });
});

describe.concurrent('conformance explore against the embedded reference', () => {
  it('explores every group with a small budget: 0 failures, the seed printed and recorded, the cards it created counted', async () => {
    const dir = tempDir('explore-');
    const result = await conformance(['explore', '--seed', '1', '--runs', '4', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Exploring with seed 1, 4 runs per property/m);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(schemaProblems('report', report)).toEqual([]);
    expect(report.summary.failed).toBe(0);
    expect(report.tests.length).toBeGreaterThanOrEqual(30);
    expect(report.tests.every((t) => t.name.includes(' property: '))).toBe(true);
    expect(new Set(report.tests.map((t) => t.group)).size).toBe(6);
    expect(report.exploration).toMatchObject({ seed: 1, runs: 4, properties: report.tests.length });
    expect(report.exploration!.cardsCreated).toBe(2);
    expect(result.stdout).toMatch(/cards created: 2 \(cards cannot be deleted\); seed 1$/m);
  }, 180_000);

  it('fails a target that counts a limit in bytes, with a counterexample shrunk below the limit and a curl that replays it', async () => {
    const dir = tempDir('explore-mutant-');
    const result = await conformance(['explore', '--seed', '1', '--runs', '4', '--group', 'banks', '--mutant', 'banks-bank-name-max-in-bytes', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/property: bank fields inside the rules/);
    expect(result.stdout).toMatch(/\$ curl .* -X POST .*\/bank /);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    const failed = report.tests.filter((t) => t.outcome === 'failed');
    expect(failed).toHaveLength(1);
    const message = failed[0]!.failure!.message;
    const [, characters, bytes, shrinks] = /counterexample bankName of (\d+) characters \((\d+) UTF-8 bytes\).*shrunk (\d+) time\(s\)/s.exec(message) ?? [];
    expect(Number(shrinks), message).toBeGreaterThan(0);
    expect(Number(characters)).toBe(96); // the example of 191 two-byte letters, shrunk to the fewest over 191 bytes
    expect(Number(bytes)).toBeGreaterThan(191);
    expect(failed[0]!.failure!.message).toMatch(/replay: conformance explore --seed 1 --runs 4 --group banks/);
    expect(failed[0]!.exchanges.at(-1)!.request.method).toBe('POST');
  }, 180_000);

  it('scans every answer for credentials, as run does (review-an): a reset answer echoing the reset token fails; one that signs the user in does not', async () => {
    const [echoes, signsIn] = await Promise.all(['reset-answer-echoes-reset-token', 'allowed-reset-answer-signs-in'].map(async (mutant) => {
      const dir = tempDir('explore-security-');
      const result = await conformance(['explore', '--seed', '1', '--runs', '4', '--group', 'password', '--mutant', mutant, '--report-dir', dir]);
      return { result, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
    }));
    expect(echoes!.result.code, echoes!.result.stdout).toBe(1);
    expect(echoes!.report.summary.security).toBeGreaterThan(0);
    expect(echoes!.result.stdout).toMatch(/carries the password reset token/);
    expect(signsIn!.result.code, signsIn!.result.stdout + signsIn!.result.stderr).toBe(0);
    expect(signsIn!.report.summary.failed).toBe(0);
  }, 180_000);

  it('exits 2 with one line for a seed that is not a whole number', async () => {
    const result = await conformance(['explore', '--seed', 'soon']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^configuration error: --seed must be a whole number/);
  });
});
