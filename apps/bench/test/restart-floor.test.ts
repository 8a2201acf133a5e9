import { describe, expect, it } from 'vitest';
import { runFloorRestart } from '../src/restart-floor.js';

describe('the restart floor (a bare socket.io server killed and started again)', () => {
  it('every client sees the drop, connects again, rejoins and is served once, each stage after the one before', async () => {
    const lines: string[] = [];
    const f = await runFloorRestart(4, 5, (...a) => lines.push(a.join(' ')));
    expect(f.clients).toBe(20);
    expect(f.servedCount).toBe(20);
    for (const k of ['connected', 'joined', 'served'] as const) expect(f[k].count).toBe(20);
    expect(f.connected.p50).toBeLessThanOrEqual(f.joined.p50);
    expect(f.joined.p50).toBeLessThanOrEqual(f.served.p50);
    expect(f.readyMs).toBeGreaterThan(0);
    expect(f.cpu.server).toBeGreaterThanOrEqual(0);
    expect(lines.join('\n')).toContain('20 socket.io clients connected');
  }, 60_000);
});
