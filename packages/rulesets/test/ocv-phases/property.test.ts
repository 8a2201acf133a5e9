import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  apply,
  createEncounter,
  hexNeighbors,
  legalActions,
  rebuild,
  replay,
  type ActionOption,
  type EngineEvent,
  type Hex,
} from '@fray/engine';
import { R, encounter, gm, hex } from './helpers.js';
import type { S } from '../../src/ocv-phases/state/index.js';

const TRIGGERS = ['attacks', 'moves', 'acts', 'enters-reach', 'manual'];

/** a concrete command from a legal option and a few random numbers */
function concrete(s: S, o: ActionOption, r: number[]): Record<string, unknown> {
  const at = (i: number) => r[i % r.length]!;
  const c: Record<string, unknown> = { type: o.command, by: gm, ...(o.template ?? {}) };
  const id = c.combatantId as string;
  const p = s.combatants[id]?.position as Hex | null;
  const walk = (n: number): Hex[] => {
    const out: Hex[] = [];
    let h = p ?? hex(0, 0);
    for (let i = 0; i < n; i++) {
      h = hexNeighbors(h)[at(i + 2) % 6]!;
      out.push(h);
    }
    return out;
  };
  for (const param of o.params ?? []) {
    if (param.optional && at(1) % 2 === 0) continue;
    const opts = (param.options ?? []) as (string | number)[];
    switch (param.name) {
      case 'targetId':
      case 'before':
        if (opts.length) c[param.name] = opts[at(3) % opts.length];
        break;
      case 'targetIds':
        if (opts.length) c.targetIds = [...new Set([opts[at(3) % opts.length], opts[at(4) % opts.length]])];
        break;
      case 'range':
        c.range = 1 + (at(5) % 12);
        break;
      case 'path':
        c.path = walk(1 + (at(6) % 4));
        break;
      case 'to':
      case 'step': {
        const k = opts.length ? String(opts[at(3) % opts.length]) : null;
        const [q, rr] = k ? k.split(',').map(Number) : [walk(1)[0]!.q, walk(1)[0]!.r];
        c[param.name] = { q: q!, r: rr! };
        break;
      }
      case 'fullAction':
      case 'actionType':
      case 'action':
      case 'skill':
        if (opts.length) c[param.name] = opts[at(7) % opts.length];
        break;
      case 'trigger':
        c.trigger = { on: TRIGGERS[at(8) % TRIGGERS.length], description: 'random' };
        break;
      default:
        break;
    }
  }
  return c;
}

const cast = (seed: number) => {
  const n = 3 + (seed % 4);
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    side: i % 2 ? 'villains' : 'heroes',
    cv: 3 + ((seed >> i) & 3),
    at: hex((i % 3) - 1, Math.floor(i / 3)),
    stats: {
      move: 1 + ((seed >> (i + 2)) % 6),
      combatReflexes: i === 1,
      reach: i === 2 ? 2 : 1,
      recovery: 3,
      stun: 20,
      endurance: 20,
      skills: { acrobatics: 11 },
    },
  }));
};

describe('properties', () => {
  it('random legal play keeps the invariants; the command log replays and the events rebuild the byte-identical state', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1 << 20 }),
        fc.array(fc.array(fc.nat(1000), { minLength: 9, maxLength: 9 }), { minLength: 20, maxLength: 80 }),
        fc.boolean(),
        fc.boolean(),
        (seed, steps, offerAbort, pause) => {
          const fighters = cast(seed);
          const unaware = seed % 3 === 0 ? ['c1'] : [];
          const options = { offerAbort, pauseAfterInterruptHit: pause };
          const { s: start, log } = encounter(fighters, {
            seed,
            unaware,
            options,
            map: { blocking: [hex(3, 3)], difficult: [hex(-2, 1)], dark: [hex(2, -2)] },
          });
          let s = start;
          const accepted: unknown[] = [...log];
          const batches: EngineEvent[][] = [];
          expect(R.invariants!(s)).toEqual([]);
          for (const r of steps) {
            const ids = Object.keys(s.combatants);
            const options: ActionOption[] = [];
            for (const id of ids) for (const o of legalActions(R as never, s as never, id)) if (o.allowed) options.push(o);
            let c: Record<string, unknown>;
            if (options.length === 0 || r[0]! % 13 === 0) {
              // now and then something arbitrary, legal or not
              const id = ids[r[1]! % ids.length]!;
              const pool = [
                { type: 'turn.end', by: gm, combatantId: id },
                { type: 'abort', by: gm, combatantId: id, action: 'dodge' },
                { type: 'opportunityAttack', by: gm, combatantId: id },
                { type: 'step', by: gm, combatantId: id, to: hex(r[2]! % 3, 1) },
                { type: 'reaction.resolve', by: gm },
                { type: 'effect.apply', by: gm, targetId: id, name: 'x', condition: ['stunned', 'unconscious', 'prone'][r[3]! % 3]! },
                { type: 'dice.force', by: gm, faces: [1 + (r[4]! % 6), 1 + (r[5]! % 6), 1 + (r[6]! % 6)] },
              ];
              c = pool[r[2]! % pool.length]!;
            } else {
              // prefer ending actions now and then so the clock moves
              const ends = options.filter((o) => o.command === 'turn.end' || o.command === 'reaction.pass');
              const cur = s.clock.current;
              const mine = options.filter(
                (o) =>
                  o.template?.combatantId === cur ||
                  o.command === 'reaction.pass' ||
                  o.command === 'opportunityAttack' ||
                  o.command === 'takeReadied',
              );
              const pool = r[0]! % 10 < 7 && mine.length ? mine : options;
              const o = ends.length && r[0]! % 4 === 0 ? ends[r[1]! % ends.length]! : pool[r[1]! % pool.length]!;
              c = concrete(s, o, r);
            }
            const before = JSON.stringify(s);
            const res = apply(R as never, s as never, c);
            if (res.ok) {
              s = res.state as unknown as S;
              accepted.push(c);
              batches.push(res.events);
              const broken = R.invariants!(s);
              if (broken.length) throw new Error(`${JSON.stringify(c)} broke: ${broken.join('; ')}`);
            } else {
              expect(JSON.stringify(s)).toBe(before);
              expect(res.error.rule).toBeTruthy();
            }
          }
          const initial = createEncounter(R, { id: 'enc', seed, options });
          expect(JSON.stringify(replay(R, initial, accepted))).toBe(JSON.stringify(s));
          expect(JSON.stringify(rebuild(R, start as never, batches))).toBe(JSON.stringify(s));
        },
      ),
      { numRuns: 30 },
    );
  }, 600_000);

  it('every allowed legal option, made concrete, is accepted or refused only for its free parameters', () => {
    // allowed options without parameters must always be accepted
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1 << 16 }), fc.array(fc.nat(50), { maxLength: 30 }), (seed, picks) => {
        let { s } = encounter(cast(seed), { seed, options: { offerAbort: false } });
        for (const p of picks) {
          const id = s.clock.current;
          if (!id || s.reaction) break;
          const opts = legalActions(R as never, s as never, id).filter((o) => o.allowed && (o.params ?? []).every((x) => x.optional));
          const o = opts[p % opts.length]!;
          const res = apply(R as never, s as never, { type: o.command, by: gm, ...(o.template ?? {}) });
          if (!res.ok)
            throw new Error(`${o.command} ${o.action ?? ''} offered as allowed but refused: ${res.error.rule} ${res.error.message}`);
          s = res.state as unknown as S;
        }
      }),
      { numRuns: 40 },
    );
  }, 600_000);
});
