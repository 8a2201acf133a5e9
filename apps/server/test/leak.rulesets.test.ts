import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '@fray/rulesets';
import type { EncounterMirror, FrayClient } from '@fray/client';
import { connect, expectConverged, startServer, type TestServer } from './helpers.js';

/**
 * "A hidden combatant's id never reaches a player or a spectator" (issue 29) with the real
 * rulesets: each fight has a hidden foe (a canary id and name) among the others; the GM, two
 * players and a spectator play rounds over socket.io, each picking among the legal actions the
 * server offers (parameters filled from their options, seeded choices), the GM applies effects and
 * rolls naming the hidden foe; every byte the players and the spectator receive is scanned.
 */
interface Param {
  name: string;
  kind: string;
  options?: Array<string | number | { value: string | number }>;
  optional?: boolean;
  min?: number;
}
interface Option {
  command: string;
  allowed: boolean;
  template?: Record<string, unknown>;
  params?: Param[];
}
interface View {
  clock: { round: number; current: string | null };
  reaction: { eligible: string[]; responses: Record<string, string> } | null;
}

const HID = 'zrhid7x';
const HIDNAME = 'Hidfoe7x';
type Member = { id: string; name: string; side: string; stats: object; position?: unknown; hidden?: boolean };
const roster: Record<string, Member[]> = {
  legends: [
    { id: 'ayla', name: 'Ayla', side: 'heroes', stats: { DEX: 12, SPD: 10, STR: 9 } },
    { id: 'borin', name: 'Borin', side: 'heroes', stats: { DEX: 10, SPD: 9, STR: 12 } },
    { id: 'thug', name: 'Thug', side: 'foes', stats: { DEX: 9, SPD: 9, STR: 11 } },
    { id: HID, name: HIDNAME, side: 'foes', hidden: true, stats: { DEX: 11, SPD: 10, STR: 10 } },
  ],
  'ocv-phases': [
    { id: 'ayla', name: 'Ayla', side: 'heroes', stats: { combatValue: 6, move: 6 }, position: { q: 0, r: 0 } },
    { id: 'borin', name: 'Borin', side: 'heroes', stats: { combatValue: 5, move: 6 }, position: { q: 1, r: 0 } },
    { id: 'thug', name: 'Thug', side: 'foes', stats: { combatValue: 4, move: 6 }, position: { q: 3, r: 0 } },
    { id: HID, name: HIDNAME, side: 'foes', hidden: true, stats: { combatValue: 5, move: 6 }, position: { q: 1, r: 1 } },
  ],
  'action-round': [
    { id: 'ayla', name: 'Ayla', side: 'heroes', stats: { initiative: 3 }, position: { x: 0, y: 0 } },
    { id: 'borin', name: 'Borin', side: 'heroes', stats: { initiative: 1 }, position: { x: 1, y: 0 } },
    { id: 'thug', name: 'Thug', side: 'foes', stats: { initiative: 2 }, position: { x: 3, y: 0 } },
    { id: HID, name: HIDNAME, side: 'foes', hidden: true, stats: { initiative: 4 }, position: { x: 1, y: 1 } },
  ],
  'action-points': [
    { id: 'ayla', name: 'Ayla', side: 'heroes', stats: { dexterity: 14 }, position: { x: 0, y: 0 } },
    { id: 'borin', name: 'Borin', side: 'heroes', stats: { dexterity: 12 }, position: { x: 1, y: 0 } },
    { id: 'thug', name: 'Thug', side: 'foes', stats: { dexterity: 10 }, position: { x: 3, y: 0 } },
    { id: HID, name: HIDNAME, side: 'foes', hidden: true, stats: { dexterity: 16 }, position: { x: 1, y: 1 } },
  ],
  freeform: [
    { id: 'ayla', name: 'Ayla', side: 'heroes', stats: { hp: 12, vitals: { Mana: 6 } }, position: 'by the door' },
    { id: 'borin', name: 'Borin', side: 'heroes', stats: { hp: 15, initiativeBonus: 1 } },
    { id: 'thug', name: 'Thug', side: 'foes', stats: { hp: 11 } },
    {
      id: HID,
      name: HIDNAME,
      side: 'foes',
      hidden: true,
      stats: { hp: 9, initiative: '1d20+2', vitals: { Mana: 10 } },
      position: 'in the rafters',
    },
  ],
};
/** Encounter options per ruleset (the defaults otherwise). */
const options: Record<string, object> = { freeform: { vitals: ['Mana'] } };

/** A command from an option, its parameters filled from their options (`pick` chooses), or null when one cannot be. */
function commandOf(o: Option, pick: number): Record<string, unknown> | null {
  const cmd: Record<string, unknown> = { type: o.command, ...(o.template ?? {}) };
  for (const p of o.params ?? []) {
    const opts = (p.options ?? []).map((x) => (typeof x === 'object' ? x.value : x));
    if (opts.length > 0) cmd[p.name] = p.kind === 'list' ? [opts[pick % opts.length]] : opts[pick % opts.length];
    else if (p.kind === 'number') cmd[p.name] = p.min ?? 1;
    else if (p.kind === 'boolean') cmd[p.name] = false;
    else if (p.kind === 'text') cmd[p.name] = 'a try';
    else if (!p.optional) return null;
  }
  return cmd;
}

describe.each(Object.keys(roster).filter((id) => registry[id] !== undefined))('%s: no hidden combatant over socket.io', (rulesetId) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ rulesets: registry, runtime: { reactionSeconds: 600 } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('reaches no player or spectator, whatever they pick (seeded)', async () => {
    const ruleset = registry[rulesetId]!;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(50), { minLength: 40, maxLength: 40 }), fc.nat(1000), async (picks, seed) => {
        run += 1;
        const gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
        const encounterId = (
          await s.http(
            'POST',
            '/encounters',
            { name: `Hidden ${run}`, ruleset: rulesetId, seed, options: options[rulesetId] ?? {} },
            gmToken,
          )
        ).body.id as string;
        for (const c of roster[rulesetId]!)
          expect((await s.http('POST', `/encounters/${encounterId}/combatants`, c, gmToken)).status).toBe(201);
        const tok = async (body: unknown) =>
          (await s.http('POST', `/encounters/${encounterId}/invites`, body, gmToken)).body.token as string;
        const tokens = [
          gmToken,
          await tok({ role: 'player', combatantIds: ['ayla'] }),
          await tok({ role: 'player', combatantIds: ['borin'] }),
          await tok({ role: 'spectator' }),
        ];
        const clients: FrayClient[] = await Promise.all(tokens.map((t) => connect(s.url, t)));
        const received: string[][] = [[], [], []];
        clients
          .slice(1)
          .forEach((c, i) =>
            (c.socket.io as unknown as { engine: { on(e: 'message', f: (d: unknown) => void): void } }).engine.on('message', (d) =>
              received[i]!.push(String(d)),
            ),
          );
        try {
          const [gm, p1, p2, spec] = (await Promise.all(clients.map((c) => c.join(encounterId)))) as [
            EncounterMirror,
            EncounterMirror,
            EncounterMirror,
            EncounterMirror,
          ];
          const owner = new Map<string, EncounterMirror>([
            ['ayla', p1],
            ['borin', p2],
            ['thug', gm],
            [HID, gm],
          ]);
          const clientOf = (m: EncounterMirror) => clients[[gm, p1, p2, spec].indexOf(m)]!;
          expect((await gm.command({ type: 'combat.start' })).ok).toBe(true);
          let refusedLast = false;
          for (const [step, pick] of picks.entries()) {
            const view = gm.state as View;
            if (step % 9 === 4) {
              // the GM's own doings that name the hidden foe, and a visible effect during its turn
              await gm.command({
                type: 'effect.apply',
                targetId: 'ayla',
                sourceId: HID,
                name: 'Dread',
                data: { by: HID, note: `${HIDNAME} watches` },
              });
              await gm.command({ type: 'dice.roll', formula: '1d6', purpose: `${HIDNAME} lurks`, combatantId: 'thug' });
            }
            if (view.reaction) {
              const who = view.reaction.eligible.find((id) => view.reaction!.responses[id] === 'pending');
              const ack = who
                ? await owner.get(who)!.command({ type: 'reaction.pass', combatantId: who })
                : await gm.command({ type: 'reaction.resolve' });
              if (!ack.ok) await gm.command({ type: 'reaction.resolve' });
            } else if (!view.clock.current) {
              await gm.command({ type: ruleset.commands.advancePhase ? 'advancePhase' : 'resumeClock' });
            } else {
              const cur = view.clock.current;
              const me = owner.get(cur)!;
              // both players ask what they may do (the answers are scanned too)
              await clientOf(p1).actions(encounterId, 'ayla');
              await clientOf(p2).actions(encounterId, 'borin');
              const legal = await clientOf(me).actions(encounterId, cur);
              const options = legal.ok ? (legal as { actions: Option[] }).actions.filter((a) => a.allowed && a.command !== 'turn.end') : [];
              const cmd = refusedLast || options.length === 0 ? null : commandOf(options[pick % options.length]!, pick);
              const ack = await me.command((cmd ?? { type: 'turn.end', combatantId: cur }) as never);
              refusedLast = !ack.ok;
              if (!ack.ok && !cmd) await gm.command({ type: 'turn.end', combatantId: cur });
            }
          }
          for (const c of [p1, p2]) await clientOf(c).log(encounterId);
          await clientOf(p1).sync(encounterId, 0);
          await expectConverged(s, encounterId, [gm, p1, p2, spec]);
          const leaks = received.flatMap((msgs, i) =>
            msgs.filter((m) => m.includes(HID) || m.includes(HIDNAME)).map((m) => `${['p1', 'p2', 'spec'][i]}: ${m.slice(0, 400)}`),
          );
          expect(leaks).toEqual([]);
        } finally {
          for (const c of clients) c.close();
        }
      }),
      { numRuns: 3, seed: 29, endOnFailure: true },
    );
  }, 120_000);
});
