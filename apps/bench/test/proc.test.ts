import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkpointNow, checkpointsBegun, runQueueWaitSeconds } from '../src/proc.js';

// The bench measures against a real Postgres; these run where one is given (CI's Postgres pass).
const url = process.env.DATABASE_URL;

describe.skipIf(!url)('Postgres checkpoints around the bench phases', () => {
  it('a checkpoint before a part is counted by the server statistics each phase reads', async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const before = await checkpointsBegun(c);
      expect(before).not.toBeNull();
      expect(await checkpointNow(url!)).toBe(true);
      const after = await checkpointsBegun(c);
      expect(after! - before!).toBeGreaterThanOrEqual(1);
    } finally {
      await c.end();
    }
  });
});

describe('a database that cannot checkpoint', () => {
  it('checkpointNow says false instead of throwing (the run goes on and logs it)', async () => {
    expect(await checkpointNow('postgresql://postgres@127.0.0.1:1/none')).toBe(false);
  });
});

describe('run-queue wait of a main thread', () => {
  it('reads a finite, non-decreasing count for a live process and NaN for one that does not exist', async () => {
    const w = runQueueWaitSeconds(process.pid);
    expect(Number.isFinite(w)).toBe(true);
    expect(w).toBeGreaterThanOrEqual(0);
    // the counter only grows: read it again after some work
    let x = 0;
    for (let i = 0; i < 2e6; i++) x += i;
    expect(x).toBeGreaterThan(0);
    expect(runQueueWaitSeconds(process.pid)).toBeGreaterThanOrEqual(w);
    expect(runQueueWaitSeconds(2 ** 22 + 12345)).toBeNaN();
  });
});
