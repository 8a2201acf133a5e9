import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Viewer } from '@fray/engine';
import { MemoryStore, Runtime, readLogFor } from '../src/index.js';
import { rulesets } from '../src/testing.js';

/**
 * Issue 36, item 4: "a player's replay never shows what that player could not see live". For
 * random logs (hidden combatants revealed and hidden again, secret stats, secret rolls, a rewind
 * and more play on the new branch), every name, id and stat value in a player's read of the log
 * (every branch, as the socket's `log` request answers it) reached that player live (the join's
 * state, a patch, the rewind's patch) at some time.
 */

const gm = { role: 'gm' } as const;
const p1: Viewer = { role: 'player', playerId: 'p1' };
const ids = ['k0', 'k1', 'k2', 'k3'];
type Step = { op: 'hide' | 'reveal' | 'lore' | 'roll' | 'secretRoll' | 'effect' | 'start' | 'attack' | 'end'; who: number; target: number };
const stepArb: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom('hide', 'reveal', 'lore', 'roll', 'secretRoll', 'effect', 'start', 'attack', 'end'),
  who: fc.nat(3),
  target: fc.nat(3),
});

/** Each step's command; lore values and names are tokens that cannot be part of one another. */
function commandOf(s: Step, k: number, current: string | null): Record<string, unknown> {
  const id = ids[s.target]!;
  const who = ids[s.who]!;
  const all: Record<Step['op'], Record<string, unknown>> = {
    hide: { type: 'combatant.update', combatantId: id, changes: { hidden: true } },
    reveal: { type: 'combatant.update', combatantId: id, changes: { hidden: false } },
    lore: { type: 'combatant.setStat', combatantId: id, stat: 'lore', value: `#L${k}#` },
    roll: { type: 'dice.roll', formula: '1d6', purpose: 'flavour', combatantId: who },
    secretRoll: { type: 'dice.roll', formula: '1d20', purpose: '#secret-purpose#', secret: true },
    effect: { type: 'effect.apply', targetId: id, name: `#E${k}#` },
    start: { type: 'combat.start' },
    attack: { type: 'attack', combatantId: who, targetId: id },
    end: { type: 'turn.end', combatantId: current ?? who },
  };
  return all[s.op];
}

const tokensIn = (text: string): string[] => [...new Set(text.match(/#[A-Za-z-]+\d*#|"k\d"|"N\d"/g) ?? [])];

describe("a player's log read shows only what the player saw live", () => {
  it('for random logs with a rewind, on every branch', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 1, maxLength: 25 }),
        fc.array(stepArb, { maxLength: 10 }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.nat(),
        async (steps, after, seed, pick) => {
          const store = new MemoryStore();
          const rt = new Runtime({ store, rulesets, options: { ownerId: 'pv', reactionSeconds: 0 } });
          try {
            const host = await rt.open((await rt.create({ accountId: 'a', name: 'Privacy', ruleset: 'skirmish', seed })).id);
            const live: string[] = [];
            const sub = host.subscribe(p1, (m) => live.push(JSON.stringify(m)));
            live.push(JSON.stringify(sub.state));
            let n = 0;
            const run = (command: Record<string, unknown>) => host.submit({ commandId: `c${++n}`, command, by: gm }, gm);
            for (const [i, id] of ids.entries()) {
              const combatant = {
                id,
                name: `N${i}`,
                side: i % 2 ? 'npcs' : 'pcs',
                controller: i === 0 ? 'p1' : null,
                hidden: i === 3,
                secretStats: i === 2 ? ['lore'] : [],
                stats: { hp: 10, init: i, lore: `#L-start${i}#` },
              };
              await run({ type: 'combatant.add', combatant });
            }
            for (const [k, s] of steps.entries()) await run(commandOf(s, k, host.state.clock.current));
            if (host.version > 0) await run({ type: 'timeline.rewind', toVersion: pick % host.version });
            for (const [k, s] of after.entries()) await run(commandOf(s, 100 + k, host.state.clock.current));

            const seenLive = live.join('\n');
            for (const b of await store.listBranches(host.id)) {
              const read = JSON.stringify(await readLogFor(host, p1, { afterSeq: 0, limit: 1000, branch: b.branch }));
              const unseen = tokensIn(read).filter((t) => !seenLive.includes(t));
              expect(unseen, `branch ${b.branch}`).toEqual([]);
            }
          } finally {
            await rt.shutdown();
          }
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);
});
