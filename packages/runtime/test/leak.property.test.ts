import fc from 'fast-check';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { projectState, type EncounterState, type Viewer } from '@fray/engine';
import type { PatchMessage } from '@fray/protocol';
import { MemoryStore, Runtime } from '../src/index.js';
import { rulesets, skirmish } from '../src/testing.js';

/**
 * "only the GM sees GM-only data (hidden combatants, secret NPC stats, the RNG state, the GM's
 * secret rolls) ... a client never receives data it may not see, in a patch, an event, an ack or
 * the log": random encounters and command streams; every message a player or spectator gets is
 * checked against what is GM-only in the state at that moment.
 */

const viewers: Viewer[] = [{ role: 'player', playerId: 'p1' }, { role: 'player', playerId: 'p2' }, { role: 'spectator' }];
const gm = { role: 'gm' } as const;

const combatantArb = fc.record({
  hidden: fc.boolean(),
  secretLore: fc.boolean(),
  controller: fc.constantFrom(null, 'p1', 'p2'),
  side: fc.constantFrom('pcs', 'npcs'),
});

type Step =
  | {
      kind: 'gm';
      op: 'hide' | 'reveal' | 'lore' | 'unsecret' | 'secretRoll' | 'force' | 'secretEffect' | 'start' | 'resolve' | 'end';
      target: number;
    }
  | { kind: 'act'; op: 'attack' | 'parry' | 'pass' | 'turnEnd' | 'roll'; who: number; target: number; as: 'gm' | 'p1' | 'p2' }
  | { kind: 'resync'; viewer: number; back: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('gm' as const),
    op: fc.constantFrom('hide', 'reveal', 'lore', 'unsecret', 'secretRoll', 'force', 'secretEffect', 'start', 'resolve', 'end'),
    target: fc.nat(5),
  }),
  fc.record({
    kind: fc.constant('act' as const),
    op: fc.constantFrom('attack', 'parry', 'pass', 'turnEnd', 'roll'),
    who: fc.nat(5),
    target: fc.nat(5),
    as: fc.constantFrom('gm', 'p1', 'p2'),
  }),
  fc.record({ kind: fc.constant('resync' as const), viewer: fc.nat(2), back: fc.nat(12) }),
);

/** The strings a viewer must not receive given the GM's state. */
function forbidden(state: EncounterState, viewer: Viewer, secretRollIds: string[]): string[] {
  const pid = viewer.role === 'player' ? viewer.playerId : null;
  const out: string[] = [...secretRollIds.map((r) => JSON.stringify(r)), '"rngAfter"', '"dice.forced"', '"FORCED-MARK"', '"GMONLY-EFFECT"'];
  for (const c of Object.values(state.combatants)) {
    const own = pid !== null && c.controller === pid;
    if (c.hidden && !own) out.push(JSON.stringify(c.id), JSON.stringify(c.name));
    const lore = (c.stats as { lore?: string }).lore;
    if (!own && lore && c.secretStats.includes('lore')) out.push(lore);
  }
  return out;
}

describe('no GM-only data reaches a player or a spectator (property)', () => {
  it('holds for random encounters and command streams', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(combatantArb, { minLength: 2, maxLength: 6 }),
        fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 1e6 }),
        async (cs, steps, seed) => {
          const store = new MemoryStore();
          const rt = new Runtime({ store, rulesets, options: { ownerId: 'prop', reactionSeconds: 0, syncHistory: 8 } });
          try {
            const rec = await rt.create({ accountId: 'a', name: 'Prop', ruleset: 'skirmish', seed });
            const host = await rt.open(rec.id);
            let n = 0;
            let loreN = 0;
            const secretRollIds: string[] = [];
            const ids = cs.map((_, i) => `k${i}`);
            const run = async (command: Record<string, unknown>, as: 'gm' | 'p1' | 'p2' = 'gm') => {
              const by = as === 'gm' ? gm : ({ role: 'player', playerId: as } as const);
              const viewer: Viewer = by.role === 'gm' ? gm : by;
              const ack = await host.submit({ commandId: `c${++n}`, command, by }, viewer);
              if (ack.ok && by.role === 'gm') {
                for (const e of ack.events as Array<{ type: string; gmOnly?: boolean; rollId?: string }>)
                  if (e.type === 'dice.rolled' && e.gmOnly && e.rollId) secretRollIds.push(e.rollId);
              }
              return { ack, viewer };
            };
            // every message each viewer receives, checked when it arrives
            const docs = viewers.map((v) => {
              const sub = host.subscribe(v, (m) => check(v, m, i));
              const i = viewers.indexOf(v);
              return { version: sub.version, doc: JSON.parse(JSON.stringify(sub.state)) as unknown };
            });
            function check(v: Viewer, msg: unknown, i: number) {
              const text = JSON.stringify(msg);
              for (const f of forbidden(host.state, v, secretRollIds)) expect(text, `${JSON.stringify(v)} got ${f}`).not.toContain(f);
              const m = msg as PatchMessage;
              if (m && Array.isArray(m.ops) && docs[i]) {
                expect(m.from).toBe(docs[i].version);
                docs[i].doc = jsonpatch.applyPatch(docs[i].doc, JSON.parse(JSON.stringify(m.ops)) as Operation[], true, false).newDocument;
                docs[i].version = m.to;
              }
            }
            for (const [i, c] of cs.entries()) {
              await run({
                type: 'combatant.add',
                combatant: {
                  id: ids[i],
                  name: c.hidden ? `HIDDEN-${i}` : `Visible-${i}`,
                  side: c.side,
                  controller: c.controller,
                  hidden: c.hidden,
                  secretStats: c.secretLore ? ['lore'] : [],
                  stats: { hp: 10, init: i, lore: `LORE-${++loreN}-X` },
                },
              });
            }
            for (const s of steps) {
              if (s.kind === 'resync') {
                const v = viewers[s.viewer]!;
                // from the start (a snapshot) or from a recent version (patches replayed from the recent log)
                const r = host.sync(v, Math.max(0, host.version - s.back));
                const text = JSON.stringify(r);
                for (const f of forbidden(host.state, v, secretRollIds)) expect(text).not.toContain(f);
                continue;
              }
              const id = ids[s.target % ids.length]!;
              if (s.kind === 'gm') {
                const cmd: Record<string, Record<string, unknown>> = {
                  hide: { type: 'combatant.update', combatantId: id, changes: { hidden: true } },
                  reveal: { type: 'combatant.update', combatantId: id, changes: { hidden: false } },
                  lore: { type: 'combatant.setStat', combatantId: id, stat: 'lore', value: `LORE-${++loreN}-X` },
                  unsecret: { type: 'combatant.update', combatantId: id, changes: { secretStats: [] } },
                  secretRoll: { type: 'dice.roll', formula: '1d20', purpose: 'secret check', secret: true },
                  force: { type: 'dice.force', formula: '1d20', faces: [17] },
                  secretEffect: { type: 'effect.apply', targetId: id, name: 'GMONLY-EFFECT', gmOnly: true },
                  start: { type: 'combat.start' },
                  resolve: { type: 'reaction.resolve' },
                  end: { type: 'turn.end', combatantId: host.state.clock.current ?? id },
                };
                await run(cmd[s.op]!);
              } else {
                const who = ids[s.who % ids.length]!;
                const cmd: Record<string, Record<string, unknown>> = {
                  attack: { type: 'attack', combatantId: who, targetId: id },
                  parry: { type: 'parry', combatantId: who },
                  pass: { type: 'reaction.pass', combatantId: who },
                  turnEnd: { type: 'turn.end', combatantId: who },
                  roll: { type: 'dice.roll', formula: '1d6', purpose: 'flavour', combatantId: who },
                };
                const { ack, viewer } = await run(cmd[s.op]!, s.as);
                if (viewer.role !== 'gm') {
                  const text = JSON.stringify(ack);
                  for (const f of forbidden(host.state, viewer, secretRollIds)) expect(text).not.toContain(f);
                }
              }
            }
            // the log, as each viewer may read it
            const log = await store.readLog(host.id, 0);
            for (const v of viewers) {
              const text = JSON.stringify(host.projectLog(log, v));
              for (const f of forbidden(host.state, v, secretRollIds))
                expect(text, `log for ${JSON.stringify(v)} has ${f}`).not.toContain(f);
            }
            // the mirrors (snapshot + patches) equal the server's projection, which has no RNG state,
            // no forced rolls and no reaction continuation
            viewers.forEach((v, i) => {
              const proj = JSON.parse(JSON.stringify(projectState(skirmish, host.state, v))) as EncounterState;
              expect(docs[i]!.doc).toEqual(proj);
              expect(proj.rng).toEqual([]);
              expect(proj.forcedRolls).toEqual([]);
              if (proj.reaction) expect(proj.reaction.resume).toBeNull();
            });
          } finally {
            await rt.shutdown();
          }
        },
      ),
      { numRuns: 80 },
    );
  }, 60_000);
});
