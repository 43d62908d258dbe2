import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RUN_OPTIONS } from '../cli/options.js';
import { FLAG_TO_VARIABLE, loadConfig } from '../helpers/net/config.js';
import { ROOT } from './support.js';

/**
 * action.yml, the one-step GitHub Action: every input reaches the suite through a flag of
 * `conformance run` (or the variable of that flag, for secrets), and the CLI itself accepts it.
 */
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
const runStep = action.runs.steps.find((step: { id?: string }) => step.id === 'run');

const NO_DOTENV = join(tmpdir(), 'no-such-dotenv-file');

/** Inputs that configure the action, not the run. */
const ACTION_ONLY: Record<string, string> = { 'artifact-name': 'names the uploaded artefact' };

interface Mapping {
  input: string;
  flag: string;
  takesValue: boolean;
}

function mappings(): Mapping[] {
  const script: string[] = runStep.run.split('\n');
  const env = Object.entries(runStep.env as Record<string, string>);
  return Object.keys(action.inputs)
    .filter((input) => !(input in ACTION_ONLY))
    .map((input) => {
      const variable = env.find(([, value]) => value.replace(/\s/g, '') === `\${{inputs.${input}}}`)?.[0];
      if (!variable) throw new Error(`input ${input} does not reach the run step's environment`);
      // A configuration variable of the CLI itself (a secret, kept off the command line).
      const byVariable = Object.entries(FLAG_TO_VARIABLE).find(([, name]) => name === variable)?.[0];
      if (byVariable) return { input, flag: byVariable, takesValue: true };
      const line = script.find((l) => l.includes(`$${variable}`) && /args\+=\(/.test(l));
      const match = line?.match(/args\+=\((--[\w-]+)(\s+"\$\w+")?\)/);
      if (!line || !match) throw new Error(`input ${input} ($${variable}) is not passed as a flag in the run step`);
      return { input, flag: match[1]!, takesValue: Boolean(match[2]) };
    });
}

describe('action.yml', () => {
  it('declares the inputs of a CI step: target, states hook, states token, headers, strict, report dir', () => {
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['target', 'states', 'states-token', 'headers', 'strict', 'report-dir', 'fail-on-incomplete', 'ca', 'rate', 'timeout', 'group']));
    // The verdict comes from report.json: an exit 0 may be incomplete.
    expect(runStep.run).toMatch(/readFileSync\(process\.argv\[1\], "utf8"\)\)\.verdict\)[^\n]*"\$INPUT_REPORT_DIR\/report\.json"/);
    expect(action.outputs.verdict.value).toBe('${{ steps.run.outputs.verdict }}');
    // Only from a report.json this run wrote: a kept workspace's older one (or an exit 2's leftover) is not its verdict.
    expect(runStep.run).toMatch(/started="\$\(mktemp\)"\n\s*set \+e\n/);
    expect(runStep.run).toMatch(/\[ "\$INPUT_REPORT_DIR\/report\.json" -nt "\$started" \] && verdict=\$\(node -e/);
    expect(action.runs.using).toBe('composite');
    expect(existsSync(join(ROOT, 'bin/conformance.mjs'))).toBe(true);
    expect(runStep.run).toContain('"$GITHUB_ACTION_PATH/bin/conformance.mjs"');
  });

  it('maps every input to a flag of `conformance run` that its parser accepts, with or without a value as the action passes it', () => {
    const found = mappings();
    expect(found.map((m) => m.input).sort()).toEqual(Object.keys(action.inputs).filter((i) => !(i in ACTION_ONLY)).sort());
    for (const m of found) {
      const option = RUN_OPTIONS[m.flag.slice(2) as keyof typeof RUN_OPTIONS];
      expect(option, `input ${m.input}: conformance run has no option ${m.flag}`).toBeDefined();
      expect(option.type === 'string', `input ${m.input}: ${m.flag} ${option.type === 'string' ? 'takes' : 'takes no'} value`).toBe(m.takesValue);
      // The parser `conformance run` uses (strict: an unknown option throws).
      expect(() => parseArgs({ args: [m.takesValue ? `${m.flag}=value` : m.flag], options: RUN_OPTIONS })).not.toThrow();
    }
  });

  it('passes the headers input as EXTRA_HEADERS, never on the command line, in the format the suite reads', () => {
    expect(runStep.env.EXTRA_HEADERS).toMatch(/inputs\.headers/);
    expect(runStep.run).not.toMatch(/--header|INPUT_HEADERS/);
    // The input as a workflow writes it (a YAML block: one `Name: value` a line, a trailing newline).
    const headers = loadConfig({}, { EXTRA_HEADERS: 'X-Gateway-Key: k-123\nX-Tenant: acme\n' }, NO_DOTENV);
    expect(headers.EXTRA_HEADERS).toEqual({ 'x-gateway-key': 'k-123', 'x-tenant': 'acme' });
    expect(loadConfig({}, { EXTRA_HEADERS: '' }, NO_DOTENV).EXTRA_HEADERS).toEqual({});
  });

  it('never puts the states token on the command line, uploads the reports even on failure, and ends with the suite\u2019s exit code', () => {
    expect(runStep.env.STATES_TOKEN).toMatch(/inputs\.states-token/);
    expect(runStep.run).not.toMatch(/--states-token/);
    const upload = action.runs.steps.find((step: { uses?: string }) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload.if).toBe('always()');
    expect(upload.with.path).toBe('${{ inputs.report-dir }}');
    const last = action.runs.steps.at(-1);
    expect(last.if).toBe('always()');
    expect(last.env.EXIT_CODE).toBe('${{ steps.run.outputs.exit-code }}');
    expect(last.run).toMatch(/exit "\$\{EXIT_CODE:-2\}"/);
  });
});

describe('docs/ci.md, the CI examples (issue 22)', () => {
  const ci = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');

  it('call the installed bin, never npx (npx exits at once on SIGTERM and leaves the suite running), and gate on --fail-on-incomplete', () => {
    expect(ci).not.toMatch(/npx conformance run/);
    expect(ci).toMatch(/node_modules\/\.bin\/conformance run/);
    expect(ci).toMatch(/--fail-on-incomplete/);
    expect(ci).toMatch(/FAIL_ON_INCOMPLETE/);
    // Installed from the tarball or a git URL: the package is on no public registry.
    expect(ci).toMatch(/npm install [^\n]*\.\/account-api-conformance-[\d.]+\.tgz/);
    expect(ci).toMatch(/npm install [^\n]*git\+https:\/\//);
    expect(ci).not.toMatch(/npm install [^\n]*--ignore-scripts account-api-conformance\s/);
    // A git URL is built by the package's `prepare` script (dist/), which --ignore-scripts would skip.
    expect(ci).not.toMatch(/npm install [^\n]*--ignore-scripts [^\n]*git\+https:\/\//);
  });

  it('the shell job exits 2 (a configuration error) when its secret is missing, before installing anything', async () => {
    const script = ci.match(/```sh\n(#!\/usr\/bin\/env bash\n[\s\S]*?)```/)?.[1];
    expect(script).toBeDefined();
    expect(script).toMatch(/verdict=\$\(node -p "require\('\.\/conformance-reports\/report\.json'\)\.verdict"/);
    const { spawnSync } = await import('node:child_process');
    const { CONFORMANCE_STATES_TOKEN: _unset, ...env } = process.env;
    const result = spawnSync('bash', ['-c', script!], { cwd: tmpdir(), env: { ...env, PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
    expect([result.status, result.stderr.trim()]).toEqual([2, "configuration error: CONFORMANCE_STATES_TOKEN is not set; add it to the job's secret store"]);
  });
});
