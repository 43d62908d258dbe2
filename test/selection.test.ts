import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clauseWithin, selectionProblem, selects, testId } from '../helpers/check/selection.js';
import { schemaProblems } from '../helpers/spec/schemas.js';
import { collectionProblems, collectWhole, type Collected, type ManifestEntry } from '../cli/list.js';
import type { Report } from '../reporting/model.js';
import { declarationsOf } from '../cli/needs.js';
import { conformance, ROOT, tempDir } from './support.js';

const bankCreate = { name: 'POST /api/v1/user/{user}/bank answers 422 for a bankName of 192 characters', endpoint: 'POST /api/v1/user/{user}/bank', clauses: ['4.10', '8', '7'] };
const login = { name: 'POST /api/v1/authenticate answers 200 with a Session', endpoint: 'POST /api/v1/authenticate', clauses: ['4.2', '2.1'] };

describe('a selection (pure)', () => {
  it('takes a clause itself and its sub-clauses, never a sibling that shares its digits', () => {
    expect(clauseWithin('4.10', '4.10')).toBe(true);
    expect(clauseWithin('4.10.2', '4.10')).toBe(true);
    expect(clauseWithin('4.1', '4')).toBe(true);
    expect(clauseWithin('4.6a', '4')).toBe(true);
    expect(clauseWithin('4.10', '4.1')).toBe(false);
    expect(clauseWithin('4.6a', '4.6')).toBe(false);
  });

  it('combines its criteria as AND: grep, every clause given, any endpoint given, ids', () => {
    expect(selects(undefined, login)).toBe(true);
    expect(selects({ clauses: ['4.10'] }, bankCreate)).toBe(true);
    expect(selects({ clauses: ['4.10', '8'] }, bankCreate)).toBe(true);
    expect(selects({ clauses: ['4.10', '5'] }, bankCreate)).toBe(false);
    expect(selects({ clauses: ['4'] }, login)).toBe(true);
    expect(selects({ endpoints: ['post /api/v1/user/{user}/bank'] }, bankCreate)).toBe(true);
    expect(selects({ endpoints: ['POST /api/v1/authenticate', 'POST /api/v1/user/{user}/bank'] }, bankCreate)).toBe(true);
    expect(selects({ grep: 'BANKNAME of 19[12]' }, bankCreate)).toBe(true);
    expect(selects({ grep: 'bankName', clauses: ['4.2'] }, bankCreate)).toBe(false);
    expect(selects({ ids: [testId(login.name)] }, login)).toBe(true);
    expect(selects({ ids: [testId(login.name)] }, bankCreate)).toBe(false);
    expect(selects({ ids: [] }, login)).toBe(false);
  });

  it('takes a numbered item of sections 1 and 5 as reports cite it (5.6, 1.4): the tests checking one of its rules', () => {
    const otherUser = { name: 'GET /api/v1/user/{user}/balances/nft answers 403 for another user', endpoint: 'GET /api/v1/user/{user}/balances/nft', clauses: ['4.6', '5'], rules: ['S201'] };
    expect(selects({ clauses: ['5.6'] }, otherUser)).toBe(true);
    expect(selects({ clauses: ['5.5'] }, otherUser)).toBe(false);
    expect(selects({ clauses: ['5.6'] }, { ...otherUser, rules: [] })).toBe(false);
    expect(selectionProblem({ clauses: ['5.6'] })).toBeUndefined();
    expect(selectionProblem({ clauses: ['1.4'] })).toBeUndefined();
    expect(selectionProblem({ clauses: ['5.9'] })).toMatch(/^--clause: the specification has no section "5.9"; .* 5, 5.1, .* 5.6, 7/);
  });

  it('names what is wrong with a selection in one line', () => {
    expect(selectionProblem({ grep: '(' })).toMatch(/^--grep: not a regular expression/);
    expect(selectionProblem({ clauses: ['4.99'] })).toMatch(/^--clause: the specification has no section "4.99"; the sections are 1, 1.1, /);
    expect(selectionProblem({ endpoints: ['POST /user/{user}/bank'] })).toMatch(/^--endpoint: no endpoint .*'POST \/api\/v1\/user\/\{user\}\/bank'/);
    expect(selectionProblem({ clauses: ['4'], endpoints: ['get /api/v1/user/{user}/bank'] })).toBeUndefined();
  });

  it('finds the top-level functions of a source file (the states list reads them)', () => {
    const source = ["import x from 'y';", 'export async function userWithBank(t) {', "  await t.state('bank.used');", '}', 'const helper = (t) => userWithBank(t);', 'list.describe(() => {', '});'].join('\n');
    const declarations = declarationsOf(source);
    expect([...declarations.keys()]).toEqual(['userWithBank', 'helper']);
    expect(declarations.get('userWithBank')).toContain("t.state('bank.used')");
  });
});

describe('conformance list collects the whole suite or says why not', () => {
  const files = [join(ROOT, 'suites/banks.test.ts'), join(ROOT, 'suites/cards.test.ts')];
  const whole: Collected = { modules: files.map((moduleId) => ({ moduleId, state: 'pending', errors: [] })), unhandled: [] };

  it('takes a collection only when every expected file was collected, none broken, nothing went wrong around it', () => {
    expect(collectionProblems(whole, files)).toEqual([]);
    // A worker that timed out leaves a file out without an error of its own: never a silently shorter manifest.
    expect(collectionProblems({ modules: whole.modules.slice(0, 1), unhandled: [] }, files)).toEqual(['suites/cards.test.ts was not collected']);
    expect(collectionProblems({ modules: [whole.modules[0]!, { moduleId: files[1]!, state: 'failed', errors: ['SyntaxError: x'] }], unhandled: [] }, files)).toEqual(['suites/cards.test.ts: SyntaxError: x']);
    expect(collectionProblems({ modules: [whole.modules[0]!, { moduleId: files[1]!, state: 'queued', errors: [] }], unhandled: [] }, files)).toEqual(['suites/cards.test.ts was queued but never collected']);
    expect(collectionProblems({ ...whole, unhandled: ['[vitest-worker]: Timeout calling "onCollected"'] }, files)).toEqual(['[vitest-worker]: Timeout calling "onCollected"']);
  });

  it('collects again after a broken collection, and gives up after the last attempt with the problems in one line', async () => {
    const broken: Collected = { modules: whole.modules.slice(0, 1), unhandled: ['[vitest-pool]: Timeout starting threads runner.\n    at x'] };
    const answers = [broken, whole];
    let calls = 0;
    const warned: string[] = [];
    await expect(collectWhole(async () => ({ collected: answers[calls++]!, value: calls }), files, 3, (line) => warned.push(line))).resolves.toBe(2);
    expect(warned).toEqual([expect.stringMatching(/^warning: collecting the suite files again \(attempt 2 of 3\): suites\/cards\.test\.ts was not collected; /)]);
    calls = 0;
    const failing = collectWhole(async () => {
      calls++;
      if (calls === 1) throw new Error('worker exited');
      return { collected: broken, value: 0 };
    }, files, 3, () => {});
    await expect(failing).rejects.toThrow(/^the suite files could not be collected \(3 attempts\): suites\/cards\.test\.ts was not collected; \[vitest-pool\]: Timeout starting threads runner\. at x$/);
    expect(calls).toBe(3);
  });
});

const json = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

describe('selection through the CLI, over the embedded reference', { timeout: 300_000 }, () => {
  it('run --clause --endpoint --grep: only the tests every flag takes run; the verdict is incomplete and every report names the selection', async () => {
    const dir = tempDir('select-');
    const result = await conformance(['run', '--clause', '4.10', '--endpoint', 'delete /api/v1/user/{user}/bank/{bank}', '--grep', 'inactive|another user', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const report = json<Report>(join(dir, 'report.json'));
    expect(schemaProblems('report', report)).toEqual([]);
    expect(report.tests.length).toBeGreaterThan(0);
    expect(report.tests.every((t) => t.endpoint === 'DELETE /api/v1/user/{user}/bank/{bank}' && /inactive|another user/i.test(t.name) && t.outcome === 'passed')).toBe(true);
    expect(report.verdict).toBe('incomplete');
    expect(report.selection).toMatchObject({ clauses: ['4.10'], endpoints: ['DELETE /api/v1/user/{user}/bank/{bank}'], grep: 'inactive|another user' });
    expect(report.groups).toEqual(['banks']);
    const said = `--clause 4.10 --endpoint 'DELETE /api/v1/user/{user}/bank/{bank}'`;
    for (const file of ['summary.md', 'report.html', 'junit.xml']) expect(readFileSync(join(dir, file), 'utf8'), file).toContain('--clause 4.10 --endpoint');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<property name="selection" value="--grep');
    expect(result.stdout).toContain(`only the tests selected by --grep 'inactive|another user' ${said}`);
    expect(result.stdout).not.toMatch(/suites\/(authentication|cards)\.test\.ts/);
    // A selected run is never certified.
    const certify = await conformance(['certify', '--report', join(dir, 'report.json'), '--key', privateKeyFile(dir)]);
    expect(certify.code).toBe(2);
    expect(certify.stderr).toMatch(/the report is of a run that selected tests \(--grep/);
  });

  it('explore takes the same selection: only the properties of the selected endpoint run', async () => {
    const dir = tempDir('select-explore-');
    const result = await conformance(['explore', '--seed', '7', '--runs', '2', '--endpoint', 'GET /api/v1/user/{user}/bank/{bank}', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const report = json<Report>(join(dir, 'report.json'));
    expect(report.tests.length).toBeGreaterThan(0);
    expect(report.tests.every((t) => t.endpoint === 'GET /api/v1/user/{user}/bank/{bank}')).toBe(true);
    expect(report).toMatchObject({ verdict: 'incomplete', groups: ['banks'], selection: { endpoints: ['GET /api/v1/user/{user}/bank/{bank}'] } });
  });

  it('exits 2 with one line for a selection that takes no test or names nothing known', async () => {
    const none = await conformance(['run', '--grep', 'no test has this name', '--group', 'password', '--report-dir', tempDir('select-')]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^selection: --grep 'no test has this name' selects no test of the groups password; `conformance list`/)]);
    const unknown = await conformance(['run', '--endpoint', 'POST /api/v1/nowhere']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^run --endpoint: no endpoint "POST \/api\/v1\/nowhere"/)]);
    const disjoint = await conformance(['run', '--endpoint', 'POST /api/v1/authenticate', '--group', 'banks']);
    expect(disjoint.code).toBe(2);
    expect(disjoint.stderr).toMatch(/^run: --endpoint 'POST \/api\/v1\/authenticate' --group banks selects no test/);
  });

  it('run --failed reruns exactly the tests that failed or were not verified, by id; then exits 2 when nothing is left', async () => {
    const dir = tempDir('failed-');
    const missing = await conformance(['run', '--failed', '--report-dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^run --failed: no previous report at .*report\.json; run `conformance run` first/)]);

    const mutant = ['--mutant', 'banks-currency-filter-ignored'];
    const first = await conformance(['run', '--endpoint', 'GET /api/v1/user/{user}/bank', ...mutant, '--report-dir', dir]);
    expect(first.code, first.stdout + first.stderr).toBe(1);
    const failedIds = json<Report>(join(dir, 'report.json')).tests.filter((t) => t.outcome !== 'passed').map((t) => t.id).sort();
    expect(failedIds.length).toBeGreaterThan(0);

    const again = await conformance(['run', '--failed', ...mutant, '--report-dir', dir]);
    expect(again.code).toBe(1);
    const rerun = json<Report>(join(dir, 'report.json'));
    expect(rerun.tests.map((t) => t.id).sort()).toEqual(failedIds);
    expect(rerun.selection?.ids?.sort()).toEqual(failedIds);
    expect(rerun.selection?.text).toMatch(/^--failed \(\d+ test\(s\) of .*report\.json\)$/);

    const fixed = await conformance(['run', '--failed', '--report-dir', dir]);
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(json<Report>(join(dir, 'report.json')).tests.map((t) => t.id).sort()).toEqual(failedIds);

    const nothing = await conformance(['run', '--failed', '--report-dir', dir]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^run --failed: nothing to rerun: every one of the \d+ test\(s\) of .*report\.json passed$/)]);
  });

  it('list --json: the manifest of the tests a selection takes, with the ids runs report and the states each test asks for', async () => {
    const listed = await conformance(['list', '--json', '--endpoint', 'DELETE /api/v1/user/{user}/bank/{bank}']);
    expect(listed.code, listed.stderr).toBe(0);
    const entries = JSON.parse(listed.stdout) as ManifestEntry[];
    expect(entries.length).toBeGreaterThan(3);
    for (const entry of entries) {
      expect(entry).toMatchObject({ group: 'banks', endpoint: 'DELETE /api/v1/user/{user}/bank/{bank}', file: 'suites/banks.test.ts' });
      expect(entry.id).toBe(testId(entry.name));
      expect(entry.clauses).toContain('4.10');
      expect(typeof entry.line).toBe('number');
    }
    const usedBank = entries.find((e) => /used in earlier actions/.test(e.name));
    expect(usedBank?.states).toEqual(expect.arrayContaining(['user', 'bank.used']));
    const inactive = entries.find((e) => /inactive account/.test(e.name));
    expect(inactive?.states).toEqual(expect.arrayContaining(['user.inactive', 'bank.used']));

    const lines = await conformance(['list', '--clause', '4.4', '--grep', '422']);
    expect(lines.code, lines.stderr).toBe(0);
    const out = lines.stdout.trim().split('\n');
    expect(out.at(-1)).toMatch(/^\d+ test\(s\)$/);
    expect(out[0]).toMatch(/^post-user-reset-password-\S+  422  §4\.4/);
    expect(out[1]).toMatch(/^ {4}POST \/api\/v1\/user\/reset-password .*422/);
  });
});

/** An Ed25519 private key in a PEM file of `dir` (certify would sign with it). */
function privateKeyFile(dir: string): string {
  const file = join(dir, 'private.pem');
  writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return file;
}
