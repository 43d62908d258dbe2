import { REFERENCE_PACKAGES } from './packages.js';

/** The reference cannot load or start here (a missing optional package, an unbuilt native module): its message is the one clear line. */
export class ReferenceUnavailableError extends Error {
  override name = 'ReferenceUnavailableError';
}

/** The clear line for an error loading or starting the reference, or undefined when it is another error. */
export function referenceLoadProblem(error: unknown): string | undefined {
  const err = error as { code?: string; message?: string };
  const message = err.message ?? '';
  if (err.code === 'ERR_MODULE_NOT_FOUND' || err.code === 'MODULE_NOT_FOUND') {
    const name = REFERENCE_PACKAGES.find((pkg) => message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`) || message.includes(`/${pkg}/`));
    if (name) {
      return `configuration error: the embedded reference (used when --target/BASE_URL is unset) needs the package ${name}, which is not installed: run \`npm install ${name}\`, or give --target URL`;
    }
  }
  if (/better_sqlite3\.node|Could not locate the bindings file|NODE_MODULE_VERSION|ERR_DLOPEN_FAILED/.test(message) || err.code === 'ERR_DLOPEN_FAILED') {
    return `configuration error: the embedded reference's SQLite module (better-sqlite3) does not load with this Node.js ${process.version}: run \`npm rebuild better-sqlite3\` (it builds with the Node.js that runs it), or give --target URL`;
  }
  return undefined;
}

/** Imports the reference server, turning a missing or unbuilt optional package into a ReferenceUnavailableError. */
export function loadReference(): Promise<typeof import('./app.js')> {
  return startingReference(() => import('./app.js'));
}

/** Runs `start` (which opens the SQLite database), with the same translation of a native module that cannot load. */
export async function startingReference<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const problem = referenceLoadProblem(error);
    throw problem ? new ReferenceUnavailableError(problem) : error;
  }
}
