import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../reference/app.js';
import { PAYLOAD, RAW_CONTROL, startHostile, type Hostile, type HostileOptions } from './hostile-target.js';
import { ROOT, tempDir } from './support.js';

/**
 * Issue 29: a run through a hostile target leaves no control byte of the target's unescaped and no
 * line beginning with `::` that the suite did not write, on stdout, on stderr or in any report file;
 * a hook streaming without end does not raise the run's peak memory; a redirect to another host is
 * never advised. Each run selects a few tests (--grep), so the whole file takes about half a minute.
 */

const STATES_TOKEN = 'hostile-states-token-0123456789';
const NFT_TESTS = 'holding every NFT|of the requested symbol for each held NFT';
const COIN_TEST = 'of the requested symbol for each held coin';
const HOOK_TEST = 'answers 403 with \\{ message \\} to a create for an inactive account';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  dir: string;
  peakBytes: number;
  stepSummary: string;
}

let reference: RunningReference;
const hostiles: Hostile[] = [];

beforeAll(async () => {
  reference = await startReference({ states: true, statesToken: STATES_TOKEN });
});
afterAll(async () => {
  await Promise.all(hostiles.map((h) => h.close()));
  await reference?.close();
});

async function hostile(options: Omit<HostileOptions, 'upstream' | 'statesUrl'>, behind: RunningReference = reference): Promise<Hostile> {
  const started = await startHostile({ upstream: behind.baseUrl, statesUrl: behind.statesUrl!, ...options });
  hostiles.push(started);
  return started;
}

/** `conformance run` as a CI job runs it (GitHub Actions, a step summary), its peak memory measured by bench/peak-rss.mjs. */
function run(target: Hostile, grep: string, token = STATES_TOKEN): Promise<Run> {
  const dir = tempDir('hostile-');
  const peakFile = join(dir, 'peak');
  const stepFile = join(dir, 'step-summary.md');
  const clean = { ...process.env };
  for (const name of Object.keys(clean)) if (/^(BASE_URL|STATES_|GITHUB_|REPORT_DIR|EXTRA_HEADERS|STRICT|GROUP|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy|FAIL_ON|MAX_)/.test(name)) delete clean[name];
  const env = { ...clean, BASE_URL: target.url, STATES_URL: target.hookUrl, STATES_TOKEN: token, REQUEST_TIMEOUT_MS: '30000', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepFile, CONFORMANCE_BENCH_PEAK_FILE: peakFile };
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', join(ROOT, 'bench', 'peak-rss.mjs'), join(ROOT, 'bin', 'conformance.mjs'), 'run', '--grep', grep, '--report-dir', dir], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) =>
      done({
        code: code ?? -1,
        stdout,
        stderr,
        dir,
        peakBytes: existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) : NaN,
        stepSummary: existsSync(stepFile) ? readFileSync(stepFile, 'utf8') : '',
      }),
    );
  });
}

/** The lines of an output that begin with `::` and that the suite did not write: its stop and resume lines, then its own annotations. */
function foreignCommands(stdout: string): string[] {
  const lines = stdout.split('\n');
  const stop = /^::stop-commands::([0-9a-f]{32})$/.exec(lines[0] ?? '');
  const resumeAt = stop ? lines.indexOf(`::${stop[1]}::`) : -1;
  return lines.filter((line, i) => {
    if (!line.startsWith('::')) return false;
    if (i === 0 && stop) return false;
    if (i === resumeAt) return false;
    return !(resumeAt >= 0 && i > resumeAt && /^::(error|warning|notice) [a-z]+=/.test(line));
  });
}

/** XML that a parser accepts, checked without one: tags, escaped text, no raw control character. */
function wellFormedXml(xml: string): string[] {
  const problems: string[] = [];
  if (RAW_CONTROL.test(xml)) problems.push('a raw control character');
  const text = xml.replace(/^<\?xml[^>]*\?>/, '').replace(/<\/?[A-Za-z][^<>]*>/g, '');
  if (/[<>]/.test(text)) problems.push('a < or > outside a tag');
  if (/&(?!(lt|gt|amp|quot|apos|#\d+);)/.test(text)) problems.push('a bare &');
  const opened: string[] = [];
  for (const [, close, name, selfClosing] of xml.matchAll(/<(\/?)([A-Za-z][\w-]*)[^<>]*?(\/?)>/g)) {
    if (selfClosing) continue;
    if (!close) opened.push(name!);
    else if (opened.pop() !== name) problems.push(`</${name}> closes another element`);
  }
  if (opened.length > 0) problems.push(`unclosed ${opened.join(', ')}`);
  return problems;
}

describe('a hostile target (issue 29)', () => {
  let attacked: Run;
  let control: Run;
  let streamed: Run;
  let endless: Hostile;

  beforeAll(async () => {
    const poisoned = await hostile({ poisonAnswers: true, hookText: ['user.inactive'] });
    const plain = await hostile({});
    endless = await hostile({ hookStream: { states: ['balances'], bytes: 200 * 1024 * 1024 } });
    [attacked, control, streamed] = await Promise.all([run(poisoned, `${NFT_TESTS}|${COIN_TEST}|${HOOK_TEST}`), run(plain, NFT_TESTS), run(endless, NFT_TESTS)]);
  }, 240_000);

  it('the attack reached the suite: the payload is quoted, escaped, in the terminal and the reports', () => {
    expect(attacked.code, attacked.stderr).toBe(1);
    const report = readFileSync(join(attacked.dir, 'report.json'), 'utf8');
    expect(report).toContain('nests deeper than 256 levels');
    // JSON.stringify leaves C1, DEL, U+2028 and the bidi controls raw: report.json writes them as \u escapes, the same JSON.
    expect(report).toContain('\\u009b31m');
    expect(report).not.toMatch(RAW_CONTROL);
    expect(attacked.stdout).toContain('nests deeper than 256 levels');
    expect(attacked.stdout).toContain('\\e]52;c;aGVsbG8=');
    expect(attacked.stdout).not.toContain('Maximum call stack');
  });

  it('leaves no raw control byte and no foreign workflow command on stdout or stderr', () => {
    for (const output of [attacked.stdout, attacked.stderr, streamed.stdout, streamed.stderr]) {
      expect(output).not.toMatch(RAW_CONTROL);
      expect(foreignCommands(output)).toEqual([]);
      expect(output).not.toMatch(/^(::error::planted|::stop-commands::hijack|::add-mask::|Verdict: conformant)/m);
    }
    expect(attacked.stdout.split('\n')[0]).toMatch(/^::stop-commands::[0-9a-f]{32}$/);
  });

  it('writes summary.md, the step summary, junit.xml and report.html with every payload as text', () => {
    const summary = readFileSync(join(attacked.dir, 'summary.md'), 'utf8');
    for (const markdown of [summary, attacked.stepSummary]) {
      expect(markdown).not.toMatch(RAW_CONTROL);
      expect(markdown).not.toMatch(/^::/m);
      expect(markdown).not.toContain('<script>');
    }
    expect(attacked.stepSummary).not.toBe('');
    const junit = readFileSync(join(attacked.dir, 'junit.xml'), 'utf8');
    const html = readFileSync(join(attacked.dir, 'report.html'), 'utf8');
    // A failure quoting the coin's symbol: in every file, the target's line breaks are escapes, so none of its text begins a line.
    for (const file of [summary, attacked.stepSummary, junit, html]) expect(file).not.toMatch(/^\s*(::|Verdict: conformant)/m);
    expect(junit).toContain('::error::planted-by-target');
    expect(wellFormedXml(junit)).toEqual([]);
    expect(junit).not.toMatch(/[\u0080-\u009f]/);
    const controlHtml = readFileSync(join(control.dir, 'report.html'), 'utf8');
    expect(html).not.toMatch(RAW_CONTROL);
    expect(html).not.toContain('<script>alert(1)');
    // The page's own scripts only: as many as in the report of a well-behaved target.
    expect(html.match(/<script/g)?.length).toBe(controlHtml.match(/<script/g)?.length);
  });

  it('says a hook answer is not JSON with the answer quoted, never obeyed', () => {
    const report = JSON.parse(readFileSync(join(attacked.dir, 'report.json'), 'utf8')) as { tests: { name: string; reason: string | null }[] };
    const hookTest = report.tests.find((t) => new RegExp(HOOK_TEST).test(t.name));
    expect(hookTest?.reason).toMatch(/the hook answered 500 .*"nft\\n::error::planted-by-target\\n/);
    expect(PAYLOAD).toContain('\n::error::');
  });

  it('stops a hook streaming 200 MB at MAX_RESPONSE_BYTES: peak memory within 50 MB of a well-behaved run', () => {
    expect(streamed.stdout).toMatch(/answered with a body larger than \d+ bytes \(MAX_RESPONSE_BYTES\); the suite stopped reading it/);
    expect(endless.streamed).toBeLessThan(100 * 1024 * 1024);
    expect(streamed.peakBytes).toBeGreaterThan(0);
    expect(control.peakBytes).toBeGreaterThan(0);
    expect(streamed.peakBytes - control.peakBytes).toBeLessThan(50 * 1024 * 1024);
  });

  it('names a redirect to another host and never advises following it', async () => {
    const moved = await hostile({ redirectTo: 'http://127.0.0.2:9/\u009b2J' });
    const result = await run(moved, NFT_TESTS);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^configuration error: the target redirects to another host \("http:\/\/127\.0\.0\.2:9"; POST \/api\/v1\/user\/logout answered 301\); the suite follows no redirect; if that host is really yours, set BASE_URL to it yourself$/);
    expect(result.stderr).not.toMatch(/use that/);
    expect(result.stderr + result.stdout).not.toMatch(RAW_CONTROL);
  }, 60_000);
});

describe('a one-letter STATES_TOKEN (issue 29)', () => {
  it('is warned about, replaced wherever it stands as a whole token, and the suite\'s own words stay readable', async () => {
    const oneLetter = await startReference({ states: true, statesToken: 't' });
    try {
      const target = await hostile({}, oneLetter);
      const result = await run(target, NFT_TESTS, 't');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/warning: STATES_TOKEN is weak/);
      expect(result.stdout).toMatch(/^Target http:\/\/127\.0\.0\.1:\d+; provider states: hook/m);
      expect(result.stdout).toMatch(/^2 passed, 0 failed, 0 skipped$/m);
      for (const file of ['report.json', 'summary.md', 'junit.xml', 'report.html']) {
        // report.html's own anchors of tests are `#t-<id>`: the page's words, not the token.
        const text = readFileSync(join(result.dir, file), 'utf8').replace(/(#|id=")t-/g, '$1');
        expect(text, file).not.toMatch(/(?<![\p{L}\p{N}])t(?![\p{L}\p{N}])/u);
        expect(text, file).not.toContain('[REDAC[');
      }
      expect(result.stdout.replace(/don't|can't|isn't/g, '')).not.toMatch(/(?<![\p{L}\p{N}])t(?![\p{L}\p{N}])/u);
    } finally {
      await oneLetter.close();
    }
  }, 60_000);
});
