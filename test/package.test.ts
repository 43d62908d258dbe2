import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceLoadProblem } from '../reference/load.js';
import { ROOT, tempDir } from './support.js';

interface PackFile {
  path: string;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
let packed: string[] | undefined;
function packedFiles(): string[] {
  packed ??= (JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))[0].files as PackFile[]).map((f) => f.path);
  return packed;
}

describe('the npm package', () => {
  it('ships what a user runs, compiled, and no test, bench, mutation-runner or CI file', () => {
    const files = packedFiles();
    // The suites' TypeScript is shipped too: reports, JUnit and annotations point at its lines.
    for (const needed of ['bin/conformance.mjs', 'bin/reference.mjs', 'dist/cli/main.js', 'dist/vitest.suite.config.js', 'dist/vitest.run.config.js', 'dist/suites/cards.test.js', 'dist/suites/cards.test.js.map', 'suites/cards.test.ts', 'schemas/card.json', 'dist/reference/app.js', 'dist/reporting/junit.js', 'dist/helpers/spec/openapi.js', 'dist/helpers/spec/schemas.standalone.cjs', 'docs/provider-states.md', 'README.md', 'LICENSE', 'package.json']) {
      expect(files, needed).toContain(needed);
    }
    // Every page of docs/ the README sends a reader to (issue 26).
    for (const page of readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'))) expect(files, `docs/${page}`).toContain(`docs/${page}`);
    expect(files.filter((f) => /^(dist\/)?(test|bench|mutation|tools|\.ci|\.github|reports)\//.test(f) || f === 'vitest.self.config.ts' || f.startsWith('tsconfig') || f === 'bin/mutants.mjs')).toEqual([]);
    // Only the suites' and properties' sources: the rest of the TypeScript is compiled, never loaded.
    expect(files.filter((f) => f.endsWith('.ts') && !/^(suites|explore)\//.test(f))).toEqual([]);
  });

  it('never imports, from a shipped file, a file that is not shipped', () => {
    const files = new Set(packedFiles());
    const missing: string[] = [];
    for (const file of files) {
      // What runs: the compiled JavaScript and bin/ (the shipped TypeScript of suites/ is for reading);
      // bin/ imports dist/ through importBuilt (bin/dist.mjs).
      if (!/\.(js|mjs)$/.test(file)) continue;
      for (const [, specifier] of readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:from|import|importBuilt)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = normalize(join(dirname(file), specifier!)).replace(/\\/g, '/');
        if (!files.has(target)) missing.push(`${file} -> ${specifier}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is publishable, with build tools as dev dependencies and the reference\u2019s native module optional', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin.conformance).toBe('bin/conformance.mjs');
    for (const name of Object.keys(manifest.dependencies)) expect(name, 'a runtime dependency').not.toMatch(/^(typescript|@types\/)/);
    expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['typescript', '@types/node']));
    // The package ships JavaScript (built by `prepare`, which runs after `npm ci` and before `npm pack`): no TypeScript loader at run time.
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['vitest', 'fastify', '@fastify/multipart']));
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(manifest.scripts.prepare).toBe('npm run build');
    expect(manifest.scripts.build).toBe('node tools/build.mjs');
    expect(Object.keys(manifest.optionalDependencies)).toEqual(['better-sqlite3']);
    expect(existsSync(join(ROOT, manifest.bin['conformance-reference']))).toBe(true);
  });

  it('turns a missing or unbuilt reference module into one line naming the command that fixes it', () => {
    const missing = Object.assign(new Error("Cannot find package 'better-sqlite3' imported from /x/reference/app.ts"), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(referenceLoadProblem(missing)).toMatch(/^configuration error: .*needs the package better-sqlite3.*`npm install better-sqlite3`, or give --target URL$/);
    const unbuilt = new Error('Could not locate the bindings file. Tried: build/Release/better_sqlite3.node');
    expect(referenceLoadProblem(unbuilt)).toMatch(/`npm rebuild better-sqlite3`.*or give --target URL$/);
    expect(referenceLoadProblem(Object.assign(new Error("Cannot find package 'left-pad'"), { code: 'ERR_MODULE_NOT_FOUND' }))).toBeUndefined();
    expect(referenceLoadProblem(new Error('EADDRINUSE'))).toBeUndefined();
  });

  it('says in one line, with exit 2, that a checkout or an installed package has no build (dist/), and what builds it', () => {
    const unbuilt = tempDir('unbuilt-');
    mkdirSync(join(unbuilt, 'bin'));
    for (const file of ['conformance.mjs', 'reference.mjs', 'mutants.mjs', 'dist.mjs', 'heap.mjs']) copyFileSync(join(ROOT, 'bin', file), join(unbuilt, 'bin', file));
    for (const args of [['bin/conformance.mjs', '--version'], ['bin/conformance.mjs', 'run'], ['bin/reference.mjs'], ['bin/mutants.mjs']]) {
      const result = spawnSync(process.execPath, args, { cwd: unbuilt, encoding: 'utf8', timeout: 30_000 });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toEqual([expect.stringMatching(/^conformance: .*dist.* is missing: .*install the package from its tarball, or from a git URL without --ignore-scripts/)]);
    }
    // A checkout (its build configuration is there) is told to build.
    copyFileSync(join(ROOT, 'tsconfig.build.json'), join(unbuilt, 'tsconfig.build.json'));
    const checkout = spawnSync(process.execPath, ['bin/conformance.mjs', 'run'], { cwd: unbuilt, encoding: 'utf8', timeout: 30_000 });
    expect(checkout.status).toBe(2);
    expect(checkout.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^conformance: .*dist.* is missing: .*run `npm run build` in /)]);
  });

  it('prints its version', async () => {
    const { conformance } = await import('./support.js');
    const result = await conformance(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(manifest.version);
  });
});

describe('an embedded reference that cannot load', () => {
  const hide = join(ROOT, 'test', 'hide-better-sqlite3.mjs');
  for (const [command, args] of [
    ['conformance run', ['bin/conformance.mjs', 'run', '--report-dir', 'reports/no-sqlite']],
    ['conformance-reference', ['bin/reference.mjs']],
  ] as const) {
    it(`${command} says what to install in one line and exits 2`, () => {
      const result = spawnSync(process.execPath, ['--import', hide, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, BASE_URL: '', PORT: '0' }, timeout: 60_000 });
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^configuration error: the embedded reference .* needs the package better-sqlite3.*`npm install better-sqlite3`, or give --target URL$/)]);
    });
  }
});
