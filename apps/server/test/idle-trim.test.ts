import { describe, expect, it } from 'vitest';
import { trimWhenIdle } from '../src/idle-trim.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * "Idle RSS on Postgres ≤ 150 MB" with V8's memory reducer off: one memory-reducing GC once the
 * process is quiet, never while activity goes on, and again only after a new spell of activity.
 */
describe('trimWhenIdle', () => {
  it('never trims while the process is busy (encounters live, clients connected), however quiet', async () => {
    const trims: unknown[] = [];
    const stop = trimWhenIdle({
      activity: () => 0,
      busy: () => true,
      firstQuietMs: 20,
      quietMs: 20,
      checkMs: 5,
      onTrim: (t) => trims.push(t),
    });
    await sleep(200);
    stop();
    expect(trims).toEqual([]);
  });

  it('trims once after the quiet spell, not while activity moves, again after new activity', async () => {
    let activity = 0;
    const trims: Array<{ rssBefore: number; rssAfter: number }> = [];
    const stop = trimWhenIdle({ activity: () => activity, firstQuietMs: 50, quietMs: 150, checkMs: 10, onTrim: (t) => trims.push(t) });
    try {
      // busy: the counter moves at every check
      for (let i = 0; i < 20; i++) {
        activity += 1;
        await sleep(10);
      }
      expect(trims).toHaveLength(0);
      await expect.poll(() => trims.length, { timeout: 5_000, interval: 10 }).toBe(1);
      expect(trims[0]!.rssAfter).toBeGreaterThan(0);
      // still quiet: no second trim
      await sleep(300);
      expect(trims).toHaveLength(1);
      // a new spell of activity, then quiet again (the longer quietMs): trimmed once more
      activity += 1;
      await expect.poll(() => trims.length, { timeout: 5_000, interval: 10 }).toBe(2);
    } finally {
      stop();
    }
  });
});
