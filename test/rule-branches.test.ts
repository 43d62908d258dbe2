import { describe, expect, it } from 'vitest';
import { hasSeveralBranches } from '../helpers/check/check.js';
import type { ManifestEntry } from '../cli/list.js';
import { conformance } from './support.js';

/**
 * A rule is verified when a test citing it passed (reporting/coverage.ts). A test that accepts several
 * answers (a flow, status null; or several statuses, 201 or 422, 403 or 412, but for section 5.6's one
 * answer "403 or 409") and passes on any of them verifies nothing about a rule it cannot fail on, yet
 * shows that rule verified. So a test with
 * several branches cites rules only when it declares, in `rulesOnEveryBranch`, why it judges them on
 * every branch (helpers/check/check.ts CheckMeta).
 *
 * (The 43 tests that broke this when the guard came, in issue 19, were all mended: none is excepted.)
 */

/** The tests that cite rules from several branches without declaring that they judge them on every one. */
function offenders(entries: Pick<ManifestEntry, 'id' | 'status' | 'rules' | 'rulesOnEveryBranch'>[]): string[] {
  return entries.filter((e) => e.rules.length > 0 && hasSeveralBranches(e.status) && !e.rulesOnEveryBranch).map((e) => e.id);
}

describe('rules cited from several branches (a flow, or several statuses other than 403 or 409)', () => {
  it('counts a flow and a list of several statuses as several branches, but for 403 or 409 (one answer of section 5.6)', () => {
    expect([null, [200, 422], [201, 403, 409], [200, 401], [422, 403], [403, 412], [403, 404, 409], [403, 404], [401, 403, 423, 425], [200, 201]].map(hasSeveralBranches)).toEqual(Array(10).fill(true));
    expect([200, 422, [403, 409], [409, 403], [403, 403]].map(hasSeveralBranches)).toEqual([false, false, false, false, false]);
    const entries = [
      { id: 'flow-citing', status: null, rules: ['S1'], rulesOnEveryBranch: null },
      { id: 'flow-declared', status: null, rules: ['S1'], rulesOnEveryBranch: 'each step asserts its status' },
      { id: 'flow-citing-nothing', status: null, rules: [], rulesOnEveryBranch: null },
      { id: 'mixed-citing', status: [201, 422], rules: ['S1'], rulesOnEveryBranch: null },
      { id: 'alternatives', status: [403, 409], rules: ['S1'], rulesOnEveryBranch: null },
      { id: 'errors-citing', status: [403, 412], rules: ['S1'], rulesOnEveryBranch: null },
    ];
    expect(offenders(entries)).toEqual(['flow-citing', 'mixed-citing', 'errors-citing']);
  });

  it('no suite test cites a rule from several branches unless it declares rulesOnEveryBranch', async () => {
    const listed = await conformance(['list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const entries = JSON.parse(listed.stdout) as ManifestEntry[];
    expect(entries.length).toBeGreaterThan(100);
    for (const entry of entries) expect(Array.isArray(entry.rules), `${entry.id}: the manifest lists its rules`).toBe(true);
    const found = offenders(entries);
    const where = new Map(entries.map((e) => [e.id, `${e.file}:${e.line} status ${JSON.stringify(e.status)} rules ${e.rules.join(',')}`]));
    const problems = found.map((id) => `${id} (${where.get(id)}): cites only the rules it can fail on whichever answer came, or declares rulesOnEveryBranch`);
    expect(problems, 'tests citing rules they cannot fail on on every branch').toEqual([]);
  });
});
