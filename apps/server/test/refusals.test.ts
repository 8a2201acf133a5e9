import { describe, expect, it } from 'vitest';
import { RefusalCounter } from '../src/refusals.js';

function recorder() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj: obj as Record<string, unknown>, msg });
  const log = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log };
  return { log, lines };
}

// "Bad input of every kind (malformed messages, wrong role, stale versions, floods) gets a clear,
// typed error": every refusal is counted; the log gets one line per code per window, not one per message
describe('refusal counter', () => {
  it('logs the first refusal of each code in a window at its level, the rest at debug, then one line with how many were left out', () => {
    let now = 1_000;
    const counter = new RefusalCounter(10_000, () => now);
    const { log, lines } = recorder();
    const sock = counter.forSocket(log);
    for (let i = 0; i < 5; i++) sock.note('warn', 'INVALID_JSON', { reason: 'not JSON' }, 'socket message refused');
    sock.note('info', 'NOT_AUTHORIZED', { rule: 'r' }, 'command refused');
    expect(counter.totals).toEqual({ INVALID_JSON: 5, NOT_AUTHORIZED: 1 });
    expect(lines.filter((l) => l.level === 'warn')).toEqual([{ level: 'warn', obj: { code: 'INVALID_JSON', reason: 'not JSON' }, msg: 'socket message refused' }]);
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'debug')).toHaveLength(4);

    // the window is not over: still debug
    now += 9_999;
    sock.note('warn', 'INVALID_JSON', {}, 'socket message refused');
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);

    // a new window: the summary of the old one (5 left out), then this one's first line
    now += 1;
    sock.note('warn', 'INVALID_JSON', { reason: 'again' }, 'socket message refused');
    const warns = lines.filter((l) => l.level === 'warn');
    expect(warns).toHaveLength(3);
    expect(warns[1]!.obj).toMatchObject({ code: 'INVALID_JSON', leftOut: 5, windowSeconds: 10 });
    expect(warns[2]!.obj).toEqual({ code: 'INVALID_JSON', reason: 'again' });
    // NOT_AUTHORIZED had nothing left out: no summary line for it
    expect(lines.filter((l) => l.level === 'info')).toHaveLength(1);
    expect(counter.totals.INVALID_JSON).toBe(7);
  });

  it('sockets have windows of their own; flush (on disconnect) sums up what was left out', () => {
    const counter = new RefusalCounter(10_000, () => 0);
    const a = recorder();
    const b = recorder();
    const sa = counter.forSocket(a.log);
    const sb = counter.forSocket(b.log);
    sa.note('warn', 'RATE_LIMITED', {}, 'socket message refused');
    sa.note('warn', 'RATE_LIMITED', {}, 'socket message refused');
    sb.note('warn', 'RATE_LIMITED', {}, 'socket message refused');
    expect(a.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(b.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    sa.flush();
    sb.flush();
    expect(a.lines.filter((l) => l.level === 'warn').at(-1)!.obj).toMatchObject({ code: 'RATE_LIMITED', leftOut: 1 });
    expect(b.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(counter.totals).toEqual({ RATE_LIMITED: 3 });
  });
});
