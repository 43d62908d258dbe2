// Issue 29: peak memory of `conformance run` against the reference behind a proxy that pads every JSON object
// answer of the target (not of the hook) to PAD_BYTES. Usage (after npm run build):
//   node bench/padded-target.mjs PAD_BYTES [run flags, e.g. --group bonuses]     (PAD_BYTES 0: the control run)
// Prints the run's verdict lines and its peak RSS (bench/peak-rss.mjs).
import { spawn } from 'node:child_process';
import { createServer, request as forward } from 'node:http';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { startReference } = await import(`${ROOT}/dist/reference/app.js`);
const pad = Number(process.argv[2]);
const PAD = Buffer.from(`"pad":"${'p'.repeat(Math.max(0, pad - 16))}"}`);
const runArgs = process.argv.slice(3);
const TOKEN = 'measure-states-token-0123456789';
const ref = await startReference({ states: true, statesToken: TOKEN });
const up = new URL(ref.baseUrl);
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const p = forward({ host: '127.0.0.1', port: up.port, method: req.method, path: req.url, headers: { ...req.headers, 'accept-encoding': 'identity' } }, (a) => {
      const out = [];
      a.on('data', (c) => out.push(c));
      a.on('end', () => {
        let body = Buffer.concat(out);
        const h = { ...a.headers };
        if (pad > 0 && /json/.test(h['content-type'] ?? '') && !req.url.startsWith('/__provider-states')) {
          // The padding spliced in before the closing brace of a JSON object: no parse, one prepared buffer.
          const text = body.toString('utf8').trimEnd();
          if (text.startsWith('{') && text.endsWith('}')) body = Buffer.concat([Buffer.from(text.slice(0, -1) + (text === '{}' ? '' : ',')), PAD]);
        }
        delete h['content-length'];
        delete h['transfer-encoding'];
        h['content-length'] = String(body.length);
        res.writeHead(a.statusCode, h).end(body);
      });
    });
    p.on('error', () => res.destroy());
    p.end(Buffer.concat(chunks));
  });
});
server.keepAliveTimeout = 120000;
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}`;
const dir = mkdtempSync(join(tmpdir(), 'i29-measure-'));
const env = { ...process.env, BASE_URL: url, STATES_URL: `${url}/__provider-states`, STATES_TOKEN: TOKEN, CONFORMANCE_BENCH_PEAK_FILE: join(dir, 'peak'), REQUEST_TIMEOUT_MS: '60000' };
for (const k of Object.keys(env)) if (/^(GITHUB_|REPORT_DIR|GROUP|MAX_|STRICT)/.test(k)) delete env[k];
const t0 = performance.now();
const code = await new Promise((done) => {
  const c = spawn(process.execPath, ['--import', `${ROOT}/bench/peak-rss.mjs`, `${ROOT}/bin/conformance.mjs`, 'run', ...runArgs, '--report-dir', dir], { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  c.stdout.on('data', (d) => (out += d));
  c.on('close', (code) => { console.log(out.split('\n').filter((l) => /passed|Verdict|failed/.test(l)).slice(-3).join('\n')); done(code); });
});
const peak = existsSync(join(dir, 'peak')) ? Math.round(Number(readFileSync(join(dir, 'peak'), 'utf8')) / 1048576) : NaN;
console.log(`pad=${pad} exit=${code} peak=${peak} MB secs=${((performance.now() - t0) / 1000).toFixed(1)} dir=${dir}`);
server.closeAllConnections(); server.close(); await ref.close();
