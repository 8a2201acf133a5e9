import { describe, expect, it } from 'vitest';
import { areaOf, summarizeProfile } from '../src/profile.js';
import { fmt, fmtRatio, markdownTable, percentile, ratio, replaceBetween, scriptShortfall, selectParts, summarize } from '../src/stats.js';

describe('percentiles', () => {
  it('nearest rank: p50 of 1..100 is 50, p99 is 99, p100 is the max', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
  it('summarize sorts its samples and gives count, mean and max', () => {
    const s = summarize([5, 1, 4, 2, 3]);
    expect(s).toMatchObject({ count: 5, p50: 3, max: 5, mean: 3 });
  });
});

describe('ratios and formatting', () => {
  it('a ratio with a missing or zero side is NaN, shown as a dash', () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(3, 0)).toBeNaN();
    expect(ratio(undefined, 2)).toBeNaN();
    expect(fmtRatio(NaN)).toBe('–');
    expect(fmtRatio(1.5)).toBe('1.50×');
    expect(fmt(12345.6)).toBe('12,346');
    expect(fmt(undefined)).toBe('–');
  });
  it('markdownTable pads columns and right-aligns all but the first', () => {
    const t = markdownTable(
      ['a', 'bb'],
      [
        ['x', '1'],
        ['yyyy', '22'],
      ],
    ).split('\n');
    expect(t).toHaveLength(4);
    expect(t[1]).toBe('|:-----|----:|');
    expect(t[3]).toBe('| yyyy |  22 |');
  });
});

describe('the generated part of docs/performance.md', () => {
  const B = '<!-- bench:begin -->';
  const E = '<!-- bench:end -->';
  it('replaces only what lies between the markers', () => {
    const doc = `# P\nhand text\n${B}\nold\n${E}\nmore hand text\n`;
    expect(replaceBetween(doc, B, E, 'new table')).toBe(`# P\nhand text\n${B}\nnew table\n${E}\nmore hand text\n`);
  });
  it('appends the markers when the document has none', () => {
    expect(replaceBetween('# P\n', B, E, 'x')).toBe(`# P\n\n${B}\nx\n${E}\n`);
  });
});

describe('BENCH_ONLY', () => {
  const all = ['engine', 'e2e', 'profile'];
  it('defaults when unset, a subset when set, and refuses an unknown part', () => {
    expect([...selectParts(undefined, all, ['engine', 'e2e'])]).toEqual(['engine', 'e2e']);
    expect([...selectParts('profile', all, ['engine'])]).toEqual(['profile']);
    expect(() => selectParts('engin', all, [])).toThrow(/unknown part/);
  });
});

describe('profile summary', () => {
  it('attributes self time to packages and leaves idle out', () => {
    expect(areaOf('file:///w/node_modules/socket.io/dist/x.js', 'f')).toBe('socket.io');
    expect(areaOf('file:///w/node_modules/@prisma/client/x.js', 'f')).toBe('@prisma/client');
    expect(areaOf('file:///w/packages/runtime/dist/host.js', 'f')).toBe('@fray/runtime');
    expect(areaOf('node:net', 'f')).toMatch(/Node internals/);
    const s = summarizeProfile({
      startTime: 0,
      endTime: 4000,
      nodes: [
        { id: 1, callFrame: { functionName: '(idle)', url: '', lineNumber: 0 } },
        { id: 2, callFrame: { functionName: 'apply', url: 'file:///w/packages/engine/dist/apply.js', lineNumber: 9 } },
        { id: 3, callFrame: { functionName: 'emit', url: 'file:///w/node_modules/socket.io/dist/s.js', lineNumber: 0 } },
      ],
      samples: [1, 1, 2, 2, 2, 3],
    });
    expect(s.areas).toEqual([
      { name: '@fray/engine', percent: 75 },
      { name: 'socket.io', percent: 25 },
    ]);
    expect(s.functions[0]!.name).toBe('apply (engine/dist/apply.js:10)');
  });
});

describe('scripted fights that ran out', () => {
  it('a run is good when no encounter reached the end of its script', () => {
    expect(
      scriptShortfall(
        [
          { name: 'clean', scriptExhausted: 0 },
          { name: 'think 100 ms', scriptExhausted: 0 },
        ],
        10_000,
      ),
    ).toBeNull();
  });
  it('names every phase in which encounters ran out, and how many', () => {
    const why = scriptShortfall(
      [
        { name: 'clean', scriptExhausted: 0 },
        { name: 'clean (3)', scriptExhausted: 12 },
        { name: 'think 100 ms', scriptExhausted: 200 },
      ],
      2000,
    );
    expect(why).toContain('2000 commands each');
    expect(why).toContain('"clean (3)" (12 encounters), "think 100 ms" (200 encounters)');
    expect(why).not.toContain('"clean" (');
  });
});
