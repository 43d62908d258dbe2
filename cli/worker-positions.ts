import module from 'node:module';

/**
 * The setup file of every test worker (vitest.suite.config.ts). Vitest turns on Node's source-map
 * support in its workers, which makes a stack frame of a compiled suite name its TypeScript file; vitest
 * then finds no frame of the test file it runs (dist/suites/x.test.js) and gives its tests no line.
 * Turned off again here, a test's location is its position in the compiled file, which the reporter
 * takes back to the TypeScript line through the file's source map (reporting/source-lines.ts).
 */
const setSupport = (module as { setSourceMapsSupport?: (enabled: boolean) => void }).setSourceMapsSupport;
if (setSupport) setSupport(false);
else process.setSourceMapsEnabled(false);
