// `npm run build`: the package's TypeScript compiled to dist/ (tsconfig.build.json), kept whole and
// free of leftovers, two things incremental tsc does not do by itself:
// - a compiled file deleted from dist/ is not written again while dist/.tsbuildinfo says all is built
//   (a missing dist/suites/x.test.js made `conformance run` find no test file): then tsc builds all;
// - tsc never deletes, so a suite renamed or removed in the TypeScript (a branch switched, a file
//   moved) would still run from its old compiled file (`conformance run` takes every
//   dist/suites/*.test.js) and be packed: compiled files whose source is gone are removed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const project = join(root, 'tsconfig.build.json');
const compiledOf = (source) => join(dist, relative(root, source).replace(/\.ts$/, '.js'));

function* filesUnder(dir, pattern) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path, pattern);
    else if (pattern.test(entry.name)) yield path;
  }
}

// The project's sources: its `include`, folders and files (not TypeScript's own parser, which would
// load the compiler twice: this runs before every `npm start`).
const { include } = JSON.parse(readFileSync(project, 'utf8').replace(/^\s*\/\/.*$/gm, ''));
const sources = include.flatMap((entry) => {
  const path = join(root, entry);
  if (!existsSync(path)) return [];
  return statSync(path).isDirectory() ? [...filesUnder(path, /(?<!\.d)\.ts$/)] : [path];
});
if (sources.some((source) => !existsSync(compiledOf(source)))) rmSync(join(dist, '.tsbuildinfo'), { force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

for (const file of filesUnder(dist, /\.js(\.map)?$/)) {
  const source = join(root, relative(dist, file).replace(/\.js(\.map)?$/, '.ts'));
  if (!existsSync(source)) {
    rmSync(file);
    console.log(`removed ${relative(root, file)} (no ${relative(root, source)})`);
  }
}

// The schemas' validators as ajv's standalone code (helpers/spec/schemas.ts STANDALONE_FILE), so that no worker
// compiles them again; a schema that does not compile fails the build here. (Not in a project without that module:
// test/build.test.ts builds a small one with this script.)
const schemasModule = join(dist, 'helpers', 'spec', 'schemas.js');
if (existsSync(schemasModule)) {
  const schemas = await import(pathToFileURL(schemasModule).href);
  const current = existsSync(schemas.STANDALONE_FILE) && readFileSync(schemas.STANDALONE_FILE, 'utf8').endsWith(`\n${schemas.standaloneDigestLine()}`);
  if (!current) writeFileSync(schemas.STANDALONE_FILE, schemas.standaloneModule());
}
