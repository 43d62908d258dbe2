import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, checkCommand, commandsOf, DOC_FILES, fencedBlocks, isExample, isShellBlock, slug, testedByProblem, type Block } from './doc-commands.js';
import { ROOT, runBin } from './support.js';

/**
 * Issue 26: every relative link of the README, CONTRIBUTING.md and docs/ resolves, anchors included,
 * and every shell command they show is marked as an example for a real deployment (```sh example),
 * run by the self-test its block names, or checked here: the quick ones (help, version, list,
 * openapi, states template, openssl) run; the others (run, explore, diff, certify, verify, render,
 * npm scripts, vitest, tsc) are checked against the CLI's own option parsers and help, the package's
 * scripts, the mutants and the files they name, not run.
 */

const files = DOC_FILES(ROOT);
const blocks: Block[] = files.flatMap((file) => fencedBlocks(file, readFileSync(join(ROOT, file), 'utf8'))).filter(isShellBlock);

describe('the documentation: links', () => {
  it('reads the README, CONTRIBUTING.md and every page of docs/', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/ci.md', 'docs/provider-states.md', 'docs/judging.md', 'docs/certification.md', 'docs/reports.md', 'docs/implementers.md', 'docs/explore.md', 'docs/deployments.md']));
  });

  it('has no relative link to a missing file or a missing heading', () => {
    expect(files.flatMap((file) => brokenLinks(ROOT, file))).toEqual([]);
  });

  it('computes anchors as GitHub does, and finds a broken link or anchor', () => {
    expect(slug("The implementer's loop: select, list, rerun, and a validating proxy")).toBe('the-implementers-loop-select-list-rerun-and-a-validating-proxy');
    expect(slug('`conformance proxy`: judge a client\'s own traffic')).toBe('conformance-proxy-judge-a-clients-own-traffic');
    expect(slug('Transport 1: the HTTP hook (`STATES_URL`)')).toBe('transport-1-the-http-hook-states_url');
    expect(slug('What a [certificate](x.md) claims')).toBe('what-a-certificate-claims');
    expect([...anchorsOf('# A\n## Notes\n## Notes\n```sh\n# not a heading\n```\n<a id="kept-anchor"></a>')]).toEqual(['a', 'notes', 'notes-1', 'kept-anchor']);
    // A heading's code spans are part of its anchor, as on GitHub.
    expect([...anchorsOf("## `conformance proxy`: judge a client's own traffic\n# Exploring: `conformance explore`")]).toEqual(['conformance-proxy-judge-a-clients-own-traffic', 'exploring-conformance-explore']);
    expect(brokenLinks(ROOT, 'README.md', 'See [the proxy][proxy].\n\n[proxy]: docs/implementers.md#conformance-proxy-judge-a-clients-own-traffic\n[gone]: docs/none.md\n')).toEqual(['README.md: link docs/none.md names no file (docs/none.md)']);
    const page = '# Page\n\n[ok](#page) [ok too](docs/ci.md#installing-the-suite) [gone](docs/none.md) [bad anchor](docs/ci.md#no-such-heading) [anchor on code](cli/main.ts#L1) `[not a link](nowhere.md)` [web](https://example.com/x.md)';
    expect(brokenLinks(ROOT, 'README.md', page)).toEqual([
      'README.md: link docs/none.md names no file (docs/none.md)',
      'README.md: link docs/ci.md#no-such-heading: docs/ci.md has no heading with the anchor #no-such-heading',
      'README.md: link cli/main.ts#L1: an anchor on a file that is not Markdown',
    ]);
  });

  it('keeps the README a front door: at most 150 lines, the three uses and their commands in the first 60', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
    expect(readme.length).toBeLessThanOrEqual(150);
    const first = readme.slice(0, 60).join('\n');
    expect(first).toMatch(/conformance run --target/);
    expect(first).toMatch(/--fail-on-incomplete/);
    expect(first).toMatch(/conformance certify --report/);
    expect(first).toMatch(/conformance verify --certificate/);
    expect(first).toMatch(/conformance diff reports\/report\.previous\.json reports\/report\.json/);
    // The two set-up commands, exactly.
    expect(first).toContain('npm ci && npm start');
    expect(first).toContain('npm ci && npm test');
  });
});

/** `node bin/conformance.mjs ARGS` in a fresh folder: only quick commands come here. */
function conformance(argv: string[], cwd: string) {
  return runBin('conformance.mjs', argv, {}, cwd);
}

function openssl(argv: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('openssl', argv, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => done({ code: -1, stderr: error.message }));
    child.on('close', (code) => done({ code: code ?? -1, stderr }));
  });
}

describe('the documentation: every shell command it shows', () => {
  it('marks an example as `sh example` and a block run elsewhere with the self-test that runs it', () => {
    const marked = blocks.filter((block) => block.testedBy);
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.map((block) => testedByProblem(ROOT, block)).filter(Boolean)).toEqual([]);
    expect(blocks.filter(isExample).length).toBeGreaterThan(0);
    // Most commands are checked, not waved through.
    expect(blocks.filter((block) => !isExample(block) && !block.testedBy).length).toBeGreaterThan(10);
  });

  it('runs the quick ones and checks the others against the CLI\u2019s own option parsers', async () => {
    const unmarked = blocks.filter((block) => !isExample(block) && !block.testedBy);
    const commands = unmarked.flatMap((block) => commandsOf(block).map((command) => ({ block, command })));
    // The help of each command whose options are not exported: its flags must be there.
    // One `conformance --help` holds the usage of every command: each command's lines are its help.
    const usage = (await conformance(['--help'], tmpdir())).stdout;
    const helpOf = (sub: string): string => {
      const lines = usage.split('\n');
      const start = lines.findIndex((line) => line.startsWith(`  ${sub} `));
      if (start < 0) return `unknown command ${sub}`;
      const end = lines.findIndex((line, i) => i > start && /^\S|^  \S/.test(line));
      return `usage: conformance ${lines.slice(start, end < 0 ? undefined : end).join('\n').trim()}`;
    };
    expect(helpOf('certify')).toMatch(/--report FILE --key PRIVATE_KEY_PEM/);
    const problems: string[] = [];
    const runs: Promise<void>[] = [];
    // The openssl lines make the keys later lines would use: they run one after the other, in order.
    let opensslChain: Promise<void> = Promise.resolve();
    const folder = mkdtempSync(join(tmpdir(), 'docs-commands-'));
    const ranFor = new Set<string>();
    for (const { block, command } of commands) {
      const verdict = checkCommand(ROOT, command, helpOf);
      const where = `${block.file}:${block.line}`;
      if (verdict.kind === 'problem') problems.push(`${where}: ${verdict.message}`);
      if (verdict.kind !== 'run') continue;
      const key = `${verdict.program} ${verdict.argv.join(' ')}`;
      if (ranFor.has(key)) continue;
      ranFor.add(key);
      const judge = (result: { code: number; stderr: string }) => {
        if (result.code !== 0) problems.push(`${where}: ${command.join(' ')} exits ${result.code}: ${result.stderr.trim().split('\n')[0]}`);
      };
      if (verdict.program === 'openssl') opensslChain = opensslChain.then(() => openssl(verdict.argv, folder).then(judge));
      else runs.push(conformance(verdict.argv, folder).then(judge));
    }
    await Promise.all([...runs, opensslChain]);
    expect(problems).toEqual([]);
    expect(ranFor.size).toBeGreaterThan(3);
  });

  it('fails a flag the CLI does not know, a command it cannot check, and a missing script or mutant', () => {
    const check = (line: string) => {
      const [command] = commandsOf({ file: 'x.md', line: 1, info: 'sh', text: line });
      return checkCommand(ROOT, command!, (sub) => (sub === 'diff' ? 'usage: conformance diff BASE.json HEAD.json [--out DIR]' : 'unknown'));
    };
    expect(check('npx conformance run --target $URL --no-such-flag')).toMatchObject({ kind: 'problem', message: expect.stringMatching(/no-such-flag/) });
    expect(check('npx conformance run --group bankz')).toMatchObject({ kind: 'problem', message: expect.stringMatching(/no group named bankz/) });
    expect(check("npx conformance run --clause 99.9")).toMatchObject({ kind: 'problem' });
    expect(check('npx conformance diff a.json b.json --html')).toMatchObject({ kind: 'problem', message: expect.stringMatching(/no option --html/) });
    expect(check('curl -s https://example.com')).toMatchObject({ kind: 'problem', message: expect.stringMatching(/sh example/) });
    expect(check('npm run no-such-script')).toMatchObject({ kind: 'problem' });
    const checkStates = (line: string) => checkCommand(ROOT, commandsOf({ file: 'x.md', line: 1, info: 'sh', text: line })[0]!, () => 'usage: conformance states template [--minimum]\n       conformance states export --target URL --states HOOK --out FILE');
    expect(checkStates('npx conformance states exprt --target u')).toMatchObject({ kind: 'problem', message: expect.stringMatching(/no subcommand "exprt"/) });
    expect(checkStates('npx conformance states export --target u --states h --out f')).toEqual({ kind: 'parsed' });
    expect(check('npm run mutants -- --mutant no-such-mutant --shards 1')).toMatchObject({ kind: 'problem', message: expect.stringMatching(/no mutant named no-such-mutant/) });
    expect(check('HTTPS_PROXY=http://p:3128 npx conformance run --target https://x.example --rate 20 # a comment')).toEqual({ kind: 'parsed' });
    expect(check('npx conformance list --json --clause 8 | jq -r ".[].constraint"')).toEqual({ kind: 'run', program: 'conformance', argv: ['list', '--json', '--clause', '8'] });
  });
});
