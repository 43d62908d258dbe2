// Loaded with --import into a `conformance run` of the benchmark: at exit, writes the process's peak
// resident memory (getrusage's maxRSS, every thread included, nothing sampled) to the file it is given.
import { writeFileSync } from 'node:fs';

const out = process.env.CONFORMANCE_BENCH_PEAK_FILE;
if (out) process.on('exit', () => writeFileSync(out, String(process.resourceUsage().maxRSS * 1024)));
