import { parseArgs } from 'node:util';
import { loadReference, referenceLoadProblem, ReferenceUnavailableError } from './load.js';

/**
 * `npm run reference [-- --db FILE]`: the reference server on its own, for exploring the interface
 * or pointing another tool at it. PORT, HOST and STATES_TOKEN come from the environment.
 */
const { values } = parseArgs({ options: { db: { type: 'string' }, 'no-states': { type: 'boolean' } }, allowPositionals: false });
const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`configuration error: PORT must be a port number from 0 to 65535 (got "${process.env.PORT}")`);
  process.exit(2);
}
try {
  const { startReference } = await loadReference();
  const reference = await startReference({
    host: process.env.HOST ?? '127.0.0.1',
    port,
    states: !values['no-states'],
    ...(process.env.STATES_TOKEN ? { statesToken: process.env.STATES_TOKEN } : {}),
    ...(values.db ? { database: values.db } : {}),
  });
  console.log(`listening on ${reference.baseUrl}`);
  if (reference.statesUrl) console.log(`states on ${reference.statesUrl}`);
  const stop = () => void reference.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // `npm run reference` stopped by its PID: the shell between npm and this process does not pass
  // the signal on, so an orphaned server would keep the port. It stops when its parent is gone.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 500).unref();
} catch (error) {
  const err = error as NodeJS.ErrnoException;
  console.error(err.code === 'EADDRINUSE' ? `port ${port} is in use: set PORT to a free port (or 0 for any)` : error instanceof ReferenceUnavailableError ? err.message : (referenceLoadProblem(err) ?? `the reference could not start: ${err.message}`));
  process.exit(2);
}
