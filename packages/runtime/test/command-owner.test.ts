import { describe, expect, it } from 'vitest';
import type { Actor } from '@fray/engine';
import { MemoryStore, Runtime } from '../src/index.js';
import { rulesets } from '../src/testing.js';

/**
 * "A `commandId` belongs to its sender": idempotency is keyed on (encounter, sender); another
 * sender reusing a commandId gets a typed `COMMAND_ID_TAKEN` and its command is not applied, while
 * the original sender's retry still gets its first ack (issue 29).
 */

const gm = { role: 'gm' } as const;
const p1 = { role: 'player', playerId: 'p1' } as const;
const p2 = { role: 'player', playerId: 'p2' } as const;

function newRuntime(store: MemoryStore) {
  return new Runtime({ store, rulesets, options: { ownerId: `test-${Math.random()}` } });
}

async function setup(rt: Runtime) {
  const rec = await rt.create({ accountId: 'acc', name: 'Owners', ruleset: 'skirmish', options: {}, seed: 3 });
  const host = await rt.open(rec.id);
  let n = 0;
  const gmCmd = (command: Record<string, unknown>) => host.submit({ commandId: `g${++n}`, command, by: gm }, gm);
  await gmCmd({ type: 'combatant.add', combatant: { id: 'hero', name: 'Hero', side: 'pcs', controller: 'p1', stats: { hp: 10 } } });
  await gmCmd({ type: 'combatant.add', combatant: { id: 'sage', name: 'Sage', side: 'pcs', controller: 'p2', stats: { hp: 10 } } });
  return { host, gmCmd };
}

type Host = Awaited<ReturnType<typeof setup>>['host'];
const roll = (host: Host, commandId: string, by: Actor, combatantId?: string) =>
  host.submit(
    {
      commandId,
      command: { type: 'dice.roll', formula: '1d20', purpose: `${by.role} rolls`, ...(combatantId ? { combatantId } : {}) },
      by,
    },
    by.role === 'system' ? gm : by,
  );

describe('"A commandId belongs to its sender"', () => {
  it("another sender reusing an accepted commandId gets COMMAND_ID_TAKEN and nothing is applied; the first sender's retry gets its first ack", async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host } = await setup(rt);
    const first = await roll(host, 'shared-id', p1, 'hero');
    expect(first.ok).toBe(true);
    const version = host.version;
    const taken = await roll(host, 'shared-id', p2, 'sage');
    expect(taken).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
    expect((taken as { error: { message: string } }).error.message).toMatch(/new command id/);
    const byGm = await roll(host, 'shared-id', gm);
    expect(byGm).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
    expect(host.version).toBe(version);
    expect(store.logs.get(host.id)!.filter((e) => e.commandId === 'shared-id')).toHaveLength(1);
    // the owner's retry: the first ack, whatever the retry carries
    expect(await roll(host, 'shared-id', p1, 'hero')).toEqual(first);
    await rt.shutdown();
  });

  it('holds for a commandId sent by two senders at once', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host } = await setup(rt);
    const [a, b] = await Promise.all([roll(host, 'race', p1, 'hero'), roll(host, 'race', p2, 'sage')]);
    expect(a.ok).toBe(true);
    expect(b).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
    expect(store.logs.get(host.id)!.filter((e) => e.commandId === 'race')).toHaveLength(1);
    await rt.shutdown();
  });

  it('holds beyond the ids a host remembers (the log decides), and after a restart on another runtime', async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host, gmCmd } = await setup(rt);
    const first = await roll(host, 'old-id', p1, 'hero');
    for (let i = 0; i < 300; i++) expect((await gmCmd({ type: 'dice.roll', formula: '1d6', purpose: 'filler' })).ok).toBe(true);
    const version = host.version;
    expect(await roll(host, 'old-id', p2, 'sage')).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
    expect(host.version).toBe(version);
    expect(await roll(host, 'old-id', p1, 'hero')).toEqual(first);
    // another process takes over after a crash (the lease simply expires)
    store.leases.get(host.id)!.expiresAt = new Date(0);
    const rt2 = newRuntime(store);
    const resumed = await rt2.open(host.id);
    expect(await roll(resumed, 'old-id', p2, 'sage')).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
    expect(await roll(resumed, 'g1', p1, 'hero')).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
    expect(resumed.version).toBe(version);
    expect(await roll(resumed, 'old-id', p1, 'hero')).toEqual(first);
    expect(store.logs.get(host.id)!.filter((e) => e.commandId === 'old-id')).toHaveLength(1);
    await rt2.shutdown();
    await rt.shutdown();
  });

  it("a refused command's id stays its sender's: another sender's command with it is judged on its own", async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host } = await setup(rt);
    const refused = await host.submit(
      { commandId: 'maybe', command: { type: 'dice.roll', formula: '1d20', purpose: 'not mine', combatantId: 'sage' }, by: p1 },
      p1,
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_AUTHORIZED' } });
    const other = await roll(host, 'maybe', p2, 'sage');
    expect(other.ok).toBe(true);
    // from now on the id is p2's: p1's retry is told so, and p2's retry gets its ack
    expect(await roll(host, 'maybe', p1, 'hero')).toMatchObject({ ok: false, error: { code: 'COMMAND_ID_TAKEN' } });
    expect(await roll(host, 'maybe', p2, 'sage')).toEqual(other);
    await rt.shutdown();
  });

  it("no client may take the ids of the runtime's own deadline commands", async () => {
    const store = new MemoryStore();
    const rt = newRuntime(store);
    const { host } = await setup(rt);
    const version = host.version;
    for (const by of [p1, gm] as const)
      expect(await roll(host, 'deadline:turn:9:hero', by, by === p1 ? 'hero' : undefined)).toMatchObject({
        ok: false,
        error: { code: 'COMMAND_ID_TAKEN' },
      });
    expect(host.version).toBe(version);
    await rt.shutdown();
  });
});
