import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EncounterState, Viewer } from '@fray/engine';
import type { PatchMessage, SyncAck } from '@fray/protocol';
import { registry } from '@fray/rulesets';
import { MAX_SYNC_HISTORY, MemoryStore, Runtime, type EncounterHost } from '../src/index.js';
import { rulesets } from '../src/testing.js';

/**
 * `sync`: "returns the patches after `since` when this viewer's recent history still has them and
 * nothing was taken out of the view since" (docs/protocol.md). The host keeps no sent patches; it
 * replays the recent log (the engine is deterministic). These tests hold the replayed patches to
 * the ones each viewer was sent live: the same `from`, `to`, `ops` and `events`, message for
 * message (only `deadlines` are today's), for every `since` the host still covers.
 */

const gm = { role: 'gm' } as const;
const viewers: Viewer[] = [gm, { role: 'player', playerId: 'p1' }, { role: 'player', playerId: 'p2' }, { role: 'spectator' }];

/** Every message each viewer was sent, as it went over the wire (JSON). */
function watch(host: EncounterHost): PatchMessage[][] {
  return viewers.map((v) => {
    const got: PatchMessage[] = [];
    host.subscribe(v, (m) => got.push(JSON.parse(JSON.stringify(m)) as PatchMessage));
    return got;
  });
}

const wire = (m: PatchMessage) => JSON.parse(JSON.stringify({ from: m.from, to: m.to, ops: m.ops, events: m.events })) as unknown;

/**
 * For every viewer and every `since` from before the kept window up to now: patches equal to the
 * live ones, or a snapshot; patches always within the last `keep` versions unless something was
 * taken out of the view since.
 */
function checkSync(host: EncounterHost, sent: PatchMessage[][], keep: number, start: number): number {
  let replayed = 0;
  const version = host.version;
  viewers.forEach((v, i) => {
    const live = sent[i]!;
    for (let since = Math.max(start, version - 2 * keep - 2); since < version; since++) {
      const r: SyncAck = host.sync(v, since);
      expect(r.ok).toBe(true);
      const missed = live.filter((m) => m.from >= since);
      const narrowed = missed.some((m) => m.ops.some((o) => o.op === 'remove'));
      if (r.ok && r.kind === 'patches') {
        expect(narrowed, `patches across a narrowing for ${JSON.stringify(v)} since ${since}`).toBe(false);
        expect(r.patches.map(wire), `${JSON.stringify(v)} since ${since}`).toEqual(missed.map(wire));
        expect(r.version).toBe(version);
        replayed += 1;
      } else {
        expect(r).toMatchObject({ kind: 'snapshot', version });
        // "the last N patches": within the window a snapshot comes only after a narrowing
        if (since >= version - keep) expect(narrowed, `snapshot without a narrowing for ${JSON.stringify(v)} since ${since}`).toBe(true);
      }
    }
  });
  return replayed;
}

type Step = {
  op:
    'hide' | 'reveal' | 'lore' | 'unsecret' | 'roll' | 'secretRoll' | 'effect' | 'start' | 'attack' | 'parry' | 'pass' | 'resolve' | 'end';
  who: number;
  target: number;
  as: 'gm' | 'p1' | 'p2';
};
const stepArb: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom(
    'hide',
    'reveal',
    'lore',
    'unsecret',
    'roll',
    'secretRoll',
    'effect',
    'start',
    'attack',
    'parry',
    'pass',
    'resolve',
    'end',
  ),
  who: fc.nat(4),
  target: fc.nat(4),
  as: fc.constantFrom('gm', 'p1', 'p2'),
});

describe('sync replays the recent log: the same patches the viewer was sent', () => {
  it('for random encounters, command streams and history sizes (test ruleset, hidden and secret combatants)', async () => {
    let replayedTotal = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 1e6 }),
        async (steps, keep, seed) => {
          const rt = new Runtime({
            store: new MemoryStore(),
            rulesets,
            options: { ownerId: 'sync-prop', reactionSeconds: 0, syncHistory: keep },
          });
          try {
            const host = await rt.open((await rt.create({ accountId: 'a', name: 'Sync', ruleset: 'skirmish', seed })).id);
            const sent = watch(host);
            const start = host.version;
            let n = 0;
            const ids = ['k0', 'k1', 'k2', 'k3', 'k4'];
            const run = (command: Record<string, unknown>, as: 'gm' | 'p1' | 'p2' = 'gm') => {
              const by = as === 'gm' ? gm : ({ role: 'player', playerId: as } as const);
              return host.submit({ commandId: `c${++n}`, command, by }, by);
            };
            for (const [i, id] of ids.entries()) {
              await run({
                type: 'combatant.add',
                combatant: {
                  id,
                  name: `N${i}`,
                  side: i % 2 ? 'npcs' : 'pcs',
                  controller: i === 0 ? 'p1' : i === 1 ? 'p2' : null,
                  hidden: i === 4,
                  secretStats: i === 3 ? ['lore'] : [],
                  stats: { hp: 10, init: i, lore: `L${i}` },
                },
              });
            }
            for (const [k, s] of steps.entries()) {
              const id = ids[s.target]!;
              const who = ids[s.who]!;
              const cmd: Record<Step['op'], Record<string, unknown>> = {
                hide: { type: 'combatant.update', combatantId: id, changes: { hidden: true } },
                reveal: { type: 'combatant.update', combatantId: id, changes: { hidden: false } },
                lore: { type: 'combatant.setStat', combatantId: id, stat: 'lore', value: `L${k}` },
                unsecret: { type: 'combatant.update', combatantId: id, changes: { secretStats: [] } },
                roll: { type: 'dice.roll', formula: '1d6', purpose: 'flavour', combatantId: who },
                secretRoll: { type: 'dice.roll', formula: '1d20', purpose: 'secret', secret: true },
                effect: { type: 'effect.apply', targetId: id, name: 'Dazed' },
                start: { type: 'combat.start' },
                attack: { type: 'attack', combatantId: who, targetId: id },
                parry: { type: 'parry', combatantId: who },
                pass: { type: 'reaction.pass', combatantId: who },
                resolve: { type: 'reaction.resolve' },
                end: { type: 'turn.end', combatantId: host.state.clock.current ?? who },
              };
              await run(
                cmd[s.op],
                ['hide', 'reveal', 'lore', 'unsecret', 'secretRoll', 'effect', 'start', 'resolve'].includes(s.op) ? 'gm' : s.as,
              );
              if (k % 7 === 6) replayedTotal += checkSync(host, sent, keep, start);
            }
            replayedTotal += checkSync(host, sent, keep, start);
          } finally {
            await rt.shutdown();
          }
        },
      ),
      { numRuns: 60 },
    );
    // the property would hold vacuously if every answer were a snapshot
    expect(replayedTotal).toBeGreaterThan(500);
  }, 60_000);

  /** A combatant's ruleset-specific fields (as in the rulesets' own bench), and a stat to keep secret. */
  const fighters: Record<string, { stats: (i: number) => Record<string, unknown>; secret: string }> = {
    legends: { stats: (i) => ({ stats: { DEX: 10 + (i % 3), SPD: 9 + (i % 4), STR: 8 + (i % 5) } }), secret: 'STR' },
    'ocv-phases': {
      stats: (i) => ({
        stats: { combatValue: 4 + (i % 5), lightningReflexes: i % 3, move: 4, recovery: 4, stun: 30, endurance: 30, combatReflexes: false },
        position: { q: i, r: 0 },
      }),
      secret: 'combatValue',
    },
    'action-round': {
      stats: (i) => ({
        stats: {
          naturalWeapons: true,
          initiative: i % 5,
          toughness: 40,
          defense: 2,
          attack: { close: 3 },
          damage: { close: 2 },
          range: 10,
          skills: { athletics: 2 },
        },
        position: { x: i * 2, y: 0 },
      }),
      secret: 'toughness',
    },
    'action-points': {
      stats: (i) => ({
        stats: {
          dexterity: 8 + i,
          hp: 100,
          ac: 14,
          attackBonus: 4,
          weapons: [{ id: 'sword', name: 'Sword', kind: 'melee', category: 'one-handed', damage: '1d8' }],
        },
        position: { x: i, y: 0 },
      }),
      secret: 'hp',
    },
    freeform: {
      stats: (i) => ({ stats: { hp: 10 + i, initiativeBonus: i % 3, vitals: { Mana: 5 } }, position: i % 2 ? 'by the door' : null }),
      secret: 'hp',
    },
  };

  it.each(['legends', 'ocv-phases', 'action-round', 'action-points', 'freeform'])(
    'for a %s fight with a hidden combatant and secret stats, from every version of the last 16',
    async (name) => {
      const ruleset = (registry as Record<string, unknown>)[name];
      expect(ruleset).toBeDefined();
      const rt = new Runtime({
        store: new MemoryStore(),
        rulesets: registry as never,
        options: { ownerId: `sync-${name}`, reactionSeconds: 0 },
      });
      try {
        const host = await rt.open((await rt.create({ accountId: 'a', name: 'Sync', ruleset: name, seed: 11 })).id);
        const sent = watch(host);
        const start = host.version;
        let n = 0;
        const refused = new Map<string, number>();
        const run = async (command: Record<string, unknown>, by: { role: 'gm' } | { role: 'player'; playerId: string } = gm) => {
          const ack = await host.submit({ commandId: `c${++n}`, command, by }, by);
          if (!ack.ok)
            refused.set(
              `${String(command.type)}: ${ack.error.message}`,
              (refused.get(`${String(command.type)}: ${ack.error.message}`) ?? 0) + 1,
            );
          return ack;
        };
        const { stats, secret } = fighters[name]!;
        for (let i = 0; i < 6; i++) {
          const ack = await run({
            type: 'combatant.add',
            combatant: {
              id: `c${i}`,
              name: `Fighter ${i}`,
              side: i < 3 ? 'heroes' : 'raiders',
              controller: i < 2 ? `p${i + 1}` : null,
              hidden: i === 5,
              secretStats: i === 4 ? [secret] : [],
              ...stats(i),
            },
          });
          expect(ack.ok, JSON.stringify(ack)).toBe(true);
        }
        expect((await run({ type: 'combat.start' })).ok).toBe(true);
        let replayed = 0;
        // rolls by the players and the GM (some secret), effects applied and removed, turns ended (a
        // turn.end out of a ruleset's phase is refused: nothing kept)
        for (let i = 0; i < 48; i++) {
          const s: EncounterState = host.state;
          const k = i % 6;
          if (k === 0)
            await run({ type: 'dice.roll', formula: '3d6', purpose: 'check', combatantId: 'c0' }, { role: 'player', playerId: 'p1' });
          else if (k === 1) await run({ type: 'dice.roll', formula: '1d20', purpose: 'secret', secret: true });
          else if (k === 2)
            await run({ type: 'effect.apply', targetId: `c${i % 6}`, name: 'Dazed', duration: { unit: 'round', count: 1 } });
          else if (k === 3 && s.effects[0]) await run({ type: 'effect.remove', effectId: s.effects[0].id });
          else if (k === 4)
            await run({ type: 'dice.roll', formula: '2d6', purpose: 'check', combatantId: 'c1' }, { role: 'player', playerId: 'p2' });
          else if (s.clock.current) await run({ type: 'turn.end', combatantId: s.clock.current });
          if (i % 8 === 7) replayed += checkSync(host, sent, 16, start);
        }
        expect(host.version - start, JSON.stringify([...refused])).toBeGreaterThan(40);
        replayed += checkSync(host, sent, 16, start);
        // (effects removed and old rolls dropped from the recent list are removals: a snapshot after them)
        expect(replayed).toBeGreaterThan(15);
      } finally {
        await rt.shutdown();
      }
    },
  );

  it('a replay that does not reach the live state is not sent: a snapshot, and an error logged', async () => {
    const errors: Array<Record<string, unknown>> = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (o: object) => void errors.push(o as Record<string, unknown>),
      child: () => logger,
    };
    const rt = new Runtime({
      store: new MemoryStore(),
      rulesets,
      logger,
      options: { ownerId: 'sync-bad', reactionSeconds: 0, syncHistory: 8 },
    });
    try {
      const host = await rt.open((await rt.create({ accountId: 'a', name: 'Sync', ruleset: 'skirmish', seed: 3 })).id);
      watch(host);
      let n = 0;
      const run = (command: Record<string, unknown>) => host.submit({ commandId: `c${++n}`, command, by: gm }, gm);
      for (let i = 0; i < 4; i++) await run({ type: 'dice.roll', formula: '1d6', purpose: `r${i}` });
      const v = host.version;
      expect(host.sync(gm, v - 3)).toMatchObject({ kind: 'patches' });
      // the kept log no longer matches what was applied (as if the engine had changed under it)
      const recent = (host as unknown as { history: { recent: { commands: Array<Record<string, unknown>> } } }).history.recent;
      recent.commands[recent.commands.length - 2] = { type: 'dice.roll', formula: '1d20', purpose: 'not what happened', by: gm };
      expect(host.sync(gm, v - 3)).toMatchObject({ kind: 'snapshot', version: v });
      expect(errors.some((e) => e.since === v - 3)).toBe(true);
    } finally {
      await rt.shutdown();
    }
  });

  it('keeps at most 1.5 × MAX_SYNC_HISTORY commands, whatever syncHistory asks (a sync replays them all at worst)', async () => {
    const rt = new Runtime({
      store: new MemoryStore(),
      rulesets,
      options: { ownerId: 'sync-max', reactionSeconds: 0, syncHistory: 1_000_000 },
    });
    try {
      const host = await rt.open((await rt.create({ accountId: 'a', name: 'Sync', ruleset: 'skirmish', seed: 9 })).id);
      const recent = () => (host as unknown as { history: { recent: { commands: unknown[] } } }).history.recent;
      watch(host);
      let n = 0;
      await host.submit(
        {
          commandId: `c${++n}`,
          command: { type: 'combatant.add', combatant: { id: 'k', name: 'K', side: 'pcs', stats: { hp: 10, init: 1, lore: 'x' } } },
          by: gm,
        },
        gm,
      );
      // changes that take nothing out of the view (a roll would drop an old one from the recent rolls)
      for (let i = 0; i < 1.6 * MAX_SYNC_HISTORY + 10; i++) {
        const ack = await host.submit(
          { commandId: `c${++n}`, command: { type: 'combatant.setStat', combatantId: 'k', stat: 'lore', value: `L${i}` }, by: gm },
          gm,
        );
        expect(ack.ok).toBe(true);
      }
      expect(recent().commands.length).toBeGreaterThanOrEqual(MAX_SYNC_HISTORY);
      expect(recent().commands.length).toBeLessThanOrEqual(1.5 * MAX_SYNC_HISTORY);
      expect(host.sync(gm, host.version - MAX_SYNC_HISTORY)).toMatchObject({ kind: 'patches' });
      expect(host.sync(gm, host.version - 1.5 * MAX_SYNC_HISTORY - 5)).toMatchObject({ kind: 'snapshot' });
    } finally {
      await rt.shutdown();
    }
  }, 30_000);

  it('nothing is kept while nobody watches, and an idle encounter lets go of it', async () => {
    const rt = new Runtime({ store: new MemoryStore(), rulesets, options: { ownerId: 'sync-idle', reactionSeconds: 0, syncHistory: 8 } });
    try {
      const host = await rt.open((await rt.create({ accountId: 'a', name: 'Sync', ruleset: 'skirmish', seed: 5 })).id);
      const recent = () => (host as unknown as { history: { recent: { checkpoints: unknown[]; commands: unknown[] } } }).history.recent;
      let n = 0;
      const run = (command: Record<string, unknown>) => host.submit({ commandId: `c${++n}`, command, by: gm }, gm);
      for (let i = 0; i < 20; i++) await run({ type: 'dice.roll', formula: '1d6', purpose: `r${i}` });
      expect(recent().commands).toHaveLength(0);
      expect(recent().checkpoints).toEqual([host.state]);
      const sub = host.subscribe(gm, () => {});
      for (let i = 0; i < 30; i++) await run({ type: 'dice.roll', formula: '1d6', purpose: `s${i}` });
      // between syncHistory and 1.5 × syncHistory commands
      expect(recent().commands.length).toBeGreaterThanOrEqual(8);
      expect(recent().commands.length).toBeLessThanOrEqual(12);
      sub.unsubscribe();
      host.compact();
      expect(recent().commands).toHaveLength(0);
    } finally {
      await rt.shutdown();
    }
  });
});
