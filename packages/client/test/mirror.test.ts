import { describe, expect, it } from 'vitest';
import { EncounterMirror, type FrayClient } from '../src/index.js';

const deadlines = { reaction: null, turn: null };

function fakeClient(reply: unknown) {
  const calls: unknown[] = [];
  const client = {
    request: async (event: string, payload: unknown) => {
      calls.push({ event, payload });
      return reply;
    },
  } as unknown as FrayClient;
  return { client, calls };
}

describe('EncounterMirror', () => {
  it('applies RFC 6902 patches in order', () => {
    const { client } = fakeClient(null);
    const m = new EncounterMirror(client, 'e', {
      ok: true,
      encounterId: 'e',
      version: 1,
      state: { version: 1, a: [1] },
      role: 'gm',
      playerId: null,
      deadlines,
    });
    m.receive({
      encounterId: 'e',
      from: 1,
      to: 2,
      ops: [
        { op: 'replace', path: '/version', value: 2 },
        { op: 'add', path: '/a/1', value: 2 },
      ],
      events: [],
      deadlines,
    });
    expect(m.state).toEqual({ version: 2, a: [1, 2] });
    // an old patch is ignored
    m.receive({ encounterId: 'e', from: 1, to: 2, ops: [{ op: 'add', path: '/a/-', value: 9 }], events: [], deadlines });
    expect(m.version).toBe(2);
  });

  it('asks for a sync when a patch does not follow its version, and takes the snapshot', async () => {
    const { client, calls } = fakeClient({ ok: true, kind: 'snapshot', version: 5, state: { version: 5 }, deadlines });
    const m = new EncounterMirror(client, 'e', {
      ok: true,
      encounterId: 'e',
      version: 1,
      state: { version: 1 },
      role: 'spectator',
      playerId: null,
      deadlines,
    });
    m.receive({ encounterId: 'e', from: 3, to: 4, ops: [], events: [], deadlines });
    await m.sync();
    expect(calls[0]).toEqual({ event: 'sync', payload: { encounterId: 'e', since: 1 } });
    expect(m.version).toBe(5);
    expect(m.state).toEqual({ version: 5 });
  });
});
