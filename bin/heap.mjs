import { setFlagsFromString } from 'node:v8';

// Memory: the test workers are V8 isolates started after this module runs, and V8 sizes a new
// isolate's heap from these flags (a worker thread cannot be given V8 flags of its own): semi-spaces
// of 2 MB instead of up to 16, and heap growth that favours memory over speed. The suite waits on
// the network, so neither costs it time; together they take some 60-90 MB off a run (bench/memory.md).
for (const flag of ['--max-semi-space-size=2', '--optimize-for-size']) setFlagsFromString(flag);
