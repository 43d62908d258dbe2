import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient, RECORDED_JSON_CHARS, type Exchange } from '../helpers/net/http.js';
import { REDACTED, registerSecret } from '../helpers/net/redact.js';

import { HookStates } from '../helpers/states/transport.js';
import { loadStatesFile } from '../helpers/states/file.js';
import { jsonNesting, quote, escapeControls } from '../helpers/spec/quote.js';
import { escapeData, stopCommands } from '../reporting/github.js';
import { escapeXml } from '../reporting/junit.js';
import { escapeHtml } from '../reporting/html.js';
import { md, code } from '../reporting/markdown.js';
import { renderCommand } from '../reporting/commands.js';
import { exchange, record, report } from './reporting-fixtures.js';
import { readFileSync } from 'node:fs';

/** Issue 29: every byte stream from outside has a limit, and JSON of any depth is refused plainly, never a stack overflow. */

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

describe('limits on what the target and the hook send (issue 29)', () => {
  it('says the answer nests too deep, not "Maximum call stack size exceeded"', async () => {
    const url = await serve((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(DEEP));
    const http = new HttpClient(url, { timeoutMs: 5000, maxResponseBytes: 5 * 1024 * 1024, maxConcurrency: 1 });
    await expect(http.send({ method: 'GET', path: '/api/v1/user' })).rejects.toThrowError(/answered 200, but the answer nests deeper than 256 levels/);
    await http.close();
  });

  it('stops a hook that streams without end at the limit, and refuses a deep hook answer', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/deep') return void res.writeHead(200, { 'content-type': 'application/json' }).end(DEEP);
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (res.write(chunk)) if (res.destroyed) return;
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      pump();
    });
    const hook = new HookStates(`${url}/endless`, 'hook-token-for-limits-0123', 5000, { maxResponseBytes: 1024 * 1024 });
    await expect(hook.get('user', {})).rejects.toThrowError(/answered with a body larger than 1048576 bytes \(MAX_RESPONSE_BYTES\); the suite stopped reading it/);
    await hook.close();
    const deep = new HookStates(`${url}/deep`, 'hook-token-for-limits-0123', 5000);
    await expect(deep.get('user', {})).rejects.toThrowError(/state user, but the answer nests deeper than 256 levels/);
    await deep.close();
  });

  it('keeps a padded JSON answer as its start, and cuts a body only after redacting it (no secret half-written)', async () => {
    const token = '42|HalfWrittenSecretAcrossTheCut0123456789';
    registerSecret(token);
    const url = await serve((req, res) => {
      if (req.url === '/padded') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: {}, pad: 'p'.repeat(RECORDED_JSON_CHARS) }));
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${'x'.repeat(1990)}${token}`);
    });
    const http = new HttpClient(url, { timeoutMs: 5000, maxResponseBytes: 5 * 1024 * 1024, maxConcurrency: 1 });
    const seen: Exchange[] = [];
    await http.send({ method: 'GET', path: '/padded' }, (e) => seen.push(e));
    await http.send({ method: 'GET', path: '/cut' }, (e) => seen.push(e));
    await http.close();
    expect(seen[0]!.response!.body).toBeUndefined();
    expect(seen[0]!.response!.bodyText).toMatch(/^\{"data":\{\},"pad":"p+\u2026 \(\d+ characters, sha256 [0-9a-f]{64}; the report keeps the first 2000\)$/);
    expect(seen[1]!.response!.bodyText).toContain(`${'x'.repeat(1990)}${REDACTED}`);
    expect(seen[1]!.response!.bodyText).not.toContain('42|Half');
  });

  it('refuses a states file nested too deep with one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
    writeFileSync(join(dir, 'states.json'), DEEP);
    expect(() => loadStatesFile(join(dir, 'states.json'))).toThrowError(/^configuration error: STATES_FILE .*the states file nests deeper than 256 levels/);
  });
});

describe('quoting target text (issue 29)', () => {
  it('escapes C0, DEL, C1, line separators and bidi controls, so no target text begins a line', () => {
    const hostile = 'a\n::error::x\r\u001b]52;c;aGk=\u0007\u009b2J\u007f\u2028\u202e\u2066\u061c\u200f';
    const out = escapeControls(hostile);
    expect(out).toBe('a\\n::error::x\\r\\e]52;c;aGk=\\x07\\x9b2J\\x7f\\u2028\\u202e\\u2066\\u061c\\u200f');
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(quote('say "hi"\\\n')).toBe('"say \\"hi\\"\\\\\\n"');
  });

  it('measures nesting without recursion, skipping brackets inside strings', () => {
    expect(jsonNesting(DEEP)).toBe(100_000);
    expect(jsonNesting('{"a":"[[[[\\"[[","b":[1]}')).toBe(2);
  });
});

describe('every channel escapes what the target sent (issue 29)', () => {
  const hostile = 'x\n::error::planted\r\u001b]52;c;aGk=\u0007\u009b2J\u202e<b>';
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  it('GitHub annotations: line breaks encoded, every other control escaped; commands fenced by a random token', () => {
    expect(escapeData(hostile)).toBe('x%0A::error::planted%0D\\e]52;c;aGk=\\x07\\x9b2J\\u202e<b>');
    const a = stopCommands();
    const b = stopCommands();
    expect(a.stop).toMatch(/^::stop-commands::[0-9a-f]{32}$/);
    expect(a.resume).toBe(`::${a.stop.slice('::stop-commands::'.length)}::`);
    expect(a.stop).not.toBe(b.stop);
  });

  it('summary.md, junit.xml and report.html carry no raw control character and no markup of the target', () => {
    for (const out of [md(hostile), code(hostile), escapeXml(hostile), escapeHtml(hostile)]) {
      expect(out).not.toMatch(RAW);
      expect(out).not.toContain('<b>');
    }
    expect(escapeXml('a\u0085b\u009bc')).toBe('a\\x85b\\x9bc');
    expect(escapeXml('line\nnext\tcell')).toBe('line\nnext\tcell');
  });
});

describe('conformance render of a hand-edited report.json (issue 29)', () => {
  it('escapes every string it prints, line breaks included, whatever the JSON contains', () => {
    const planted = 'x\n::error::planted\r\u001b[2J\u009b31m\u202eevil\nVerdict: conformant\u2028<planted-tag>';
    const failed = record(`lists banks ${planted}`, {
      outcome: 'failed',
      reason: `reason ${planted}`,
      failure: { message: `first ${planted}\nsecond ${planted}`, schemaProblems: [] },
      advisories: [`advisory ${planted}`],
      notes: [`note ${planted}`],
      security: [`finding ${planted}`],
      exchanges: [
        exchange({ url: `http://127.0.0.1:9/api/v1/user/u-1/bank?q=${planted}`, headers: { 'x-planted': planted } }, { status: 500, headers: { 'x-answer': planted }, bodyText: `text ${planted}` }),
        // A JSON body that is one string (a target may answer `"..."`; a hand-edited report may put one anywhere): its line breaks too.
        exchange({ url: 'http://127.0.0.1:9/api/v1/user/u-1/bank', headers: {}, body: `sent ${planted}` }, { status: 200, headers: {}, body: `json ${planted}` }),
      ],
    });
    const edited = report([failed, record('passes')], { warnings: [`warning ${planted}`], target: { baseUrl: `http://127.0.0.1:9/${planted}`, embedded: false, states: 'hook' } });
    const dir = mkdtempSync(join(tmpdir(), 'render-'));
    writeFileSync(join(dir, 'report.json'), JSON.stringify(edited));
    const said: string[] = [];
    expect(renderCommand(join(dir, 'report.json'), join(dir, 'out'), { out: (line) => said.push(line), err: (line) => said.push(line) })).toBe(0);
    const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
    for (const file of ['junit.xml', 'summary.md', 'report.html']) {
      const text = readFileSync(join(dir, 'out', file), 'utf8');
      expect(text, file).toContain('::error::planted');
      expect(text, file).not.toMatch(RAW);
      // No planted text begins a line: the line breaks it carried are escapes (or an indented line of a failure's message).
      expect(text, file).not.toMatch(/^(::|Verdict: conformant)/m);
      // Markup of the target is text: escaped, or inside a Markdown code span (which shows it literally).
      expect(text.replace(/`[^`\n]*`/g, ''), file).not.toContain('<planted-tag>');
    }
    expect(said.join('\n')).not.toMatch(RAW);
  });
});

describe('an answer over the suite\u2019s own limit (principles 1, 7)', () => {
  it('leaves the test that met it not verified, with the limit and the fix, never failed', async () => {
    const { conformance } = await import('./support.js');
    // The bonus records (a bonus list of several kilobytes, a show of more than 2 KB) and hook answers well below the
    // limit (round wb23's balances state, whose optional assets weigh about 2 KB, is over it: a hook's answer over the
    // limit is the hook's, not an answer of the interface).
    const result = await conformance(['run', '--group', 'bonuses', '--grep', 'full record'], { MAX_RESPONSE_BYTES: '2048' });
    expect(result.stdout).toMatch(/not verified: GET \S+ answered \d{3} with a body of \d+ bytes \(Content-Length\), over 2048 bytes \(MAX_RESPONSE_BYTES\); the suite did not read it; raise MAX_RESPONSE_BYTES/);
    expect(result.stdout).toMatch(/ 0 failed, [1-9]\d* skipped/);
  }, 120_000);
});
