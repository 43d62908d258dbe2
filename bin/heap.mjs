import { setFlagsFromString } from 'node:v8';

// Memory: V8 sizes a new isolate's heap from its flags, and the test workers are isolates started
// after this module runs (vitest does not pass a worker's own resourceLimits). Semi-spaces of 1 MB
// instead of up to 16 keep each worker's young generation small: about 80 MB less for a run, at no
// measurable cost in time, as the suite waits on the network (bench/memory.md). This process's own
// heap was sized before this line and keeps the default.
setFlagsFromString('--max-semi-space-size=1');
