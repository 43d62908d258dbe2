import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

const CONFIG_VARIABLES = ['BASE_URL', 'STATES_URL', 'STATES_TOKEN', 'STATES_FILE', 'JWT_PLATFORM_ID', 'JWT_PRIVATE_KEY_FILE', 'REPORT_DIR', 'REQUEST_TIMEOUT_MS', 'MAX_RESPONSE_BYTES', 'MAX_CONCURRENCY', 'STRICT', 'FAIL_ON_INCOMPLETE', 'EXPECTED_FAILURES', 'GROUP', 'BRUTE_FORCE', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CA_FILE', 'EXTRA_HEADERS', 'MAX_REQUESTS_PER_SECOND', 'HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'];

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a bin/ entry in a fresh working directory (so no developer .env is read), with only the given configuration. */
export function runBin(bin: string, args: string[], env: Record<string, string> = {}, cwd = mkdtempSync(join(tmpdir(), 'cli-'))): Promise<CliResult> {
  const clean = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete clean[name];
  return new Promise((done) => {
    // Self-tests share two cores with each other: a generous request timeout keeps them from flaking.
    const child = spawn(process.execPath, [join(ROOT, 'bin', bin), ...args], { cwd, env: { ...clean, REQUEST_TIMEOUT_MS: '30000', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // 'close', not 'exit': at 'exit' the child's output may still be unread (a long `list --json` cut short).
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

export const conformance = (args: string[], env?: Record<string, string>) => runBin('conformance.mjs', args, env);

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
