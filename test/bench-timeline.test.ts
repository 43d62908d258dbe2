import { describe, expect, it } from 'vitest';
import { splitOf, type Exchange } from '../bench/timeline.js';

const MB = 1024 * 1024;
const at = (path: string, start: number, end: number, bytesIn = 0): Exchange => ({ path, start, end, bytesIn });

describe('the split of a remote run\u2019s wall time (npm run bench)', () => {
  it('takes the preflight up to its hook probe, then worker boot, tests (idle and uploads) and wrap-up', () => {
    const split = splitOf(0, 10_000, [
      at('/api/v1/logout', 1_000, 1_100),
      at('/__provider-states', 1_200, 1_500),
      at('/__provider-states', 3_000, 3_200),
      at('/api/v1/cards', 3_100, 5_000, 10 * MB),
      at('/api/v1/cards', 4_000, 6_000, 10 * MB),
      at('/api/v1/banks', 7_000, 8_000),
    ], '/__provider-states');
    expect(split).toEqual({ startUp: 1.5, workerBoot: 1.5, tests: 5, idle: 1, uploads: 2.9, wrapUp: 2 });
  });

  it('has no split for a run that sent no test request after its preflight', () => {
    expect(splitOf(0, 5_000, [at('/api/v1/logout', 100, 200), at('/__provider-states', 300, 400)], '/__provider-states')).toBeUndefined();
    expect(splitOf(0, 5_000, [at('/api/v1/logout', 100, 200)], '/__provider-states')).toBeUndefined();
  });
});
