import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../reporting/model.js';
import { conformance, tempDir } from './support.js';

/**
 * `conformance explore` is fair to the allowed readings the suites pass (issue 28, review-an F5 and F7): each reading
 * below once failed a property of explore, on a point the text leaves open. Explored with a small budget and a fixed
 * seed, group by group, each must give no failure, and the advisory that shows the reading was met, not missed (the
 * properties try the inputs that meet them first: their examples).
 */
const READINGS: { mutant: string; groups: string[]; met: RegExp }[] = [
  { mutant: 'allowed-reset-password-strength-policy', groups: ['password'], met: /refused with 422 keyed by password: a strength policy/ },
  { mutant: 'allowed-bonus-pending-settled-when-listed', groups: ['bonuses'], met: /a transition between the reads/ },
  { mutant: 'allowed-r7-texts-stored-nfkc', groups: ['banks', 'cards'], met: /bankName is stored trimmed, normalised \(NFC, NFD, NFKC\)/ },
  { mutant: 'allowed-review-an-texts-stored-nfkc', groups: ['banks', 'cards'], met: /holderName is stored trimmed, normalised \(NFC, NFD, NFKC\)/ },
  { mutant: 'allowed-r10-texts-invisible-characters-removed', groups: ['banks', 'cards'], met: /alias is stored trimmed, normalised \(NFC, NFD, NFKC\), without invisible format characters/ },
  { mutant: 'allowed-r17-balance-lists-link-header-pages', groups: ['balances'], met: /answered its list in 2 pages/ },
  { mutant: 'allowed-r23-assets-filter-duplicates-refused', groups: ['balances'], met: /\(a symbol named twice\) is answered 422 keyed by assets\.3/ },
  { mutant: 'allowed-review-an-login-email-dns-checked-before-credentials', groups: ['authentication'], met: /and so is a short address of its domain/ },
  // review-at F4: the suites' 400 of a typed query binder (review-as F1) judged alike by explore's filter property.
  { mutant: 'allowed-review-as-bank-currency-filter-typed-400', groups: ['banks'], met: /is refused with 400 \(a typed query binder\)/ },
  { mutant: 'allowed-review-as-card-status-filter-enum-400', groups: ['cards'], met: /is refused with 400 \(a typed query binder\)/ },
  // review-at F1 and F6.
  { mutant: 'allowed-review-at-card-holder-embossed-ascii', groups: ['cards'], met: /holderName is stored .*transliterated to Latin letters/ },
  { mutant: 'allowed-review-at-login-2fa-format-after-credentials', groups: ['authentication'], met: /is answered 403 \(wrong credentials first\)/ },
];

describe.concurrent('conformance explore passes the allowed readings it once failed (review-an F5, F7; review-at F1, F4, F6)', () => {
  for (const { mutant, groups, met } of READINGS) {
    it(`${mutant}: no failure, the reading met and advised on`, async () => {
      const dir = tempDir('explore-reading-');
      const result = await conformance(['explore', '--seed', '1', '--runs', '4', '--mutant', mutant, ...groups.flatMap((group) => ['--group', group]), '--report-dir', dir]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
      expect(report.summary.failed).toBe(0);
      expect(report.summary.skipped, result.stdout).toBe(0);
      expect(report.summary.passed).toBeGreaterThan(0);
      const advisories = report.tests.flatMap((test) => test.advisories ?? []);
      expect(advisories.some((advisory) => met.test(advisory)), advisories.join('\n')).toBe(true);
    }, 90_000);
  }
});
