import { describe, expect, it } from 'vitest';
import { createEncounter, rebuild, replay, type EngineEvent } from '@fray/engine';
import { R, cmd, encounter, gm, hex, ok } from './helpers.js';
import type { S } from '../../src/ocv-phases/state/index.js';

/**
 * A scripted fight: a Surprise Phase, a full Turn of 4 Phases and the Post-Turn Recovery, with a
 * withdraw, a 1-hex step, an attack of opportunity that interrupts a move, a delay, a ready with
 * its trigger, and an abort.
 */
describe('a scripted fight', () => {
  it('plays through surprise, four phases and the post-turn', () => {
    const setup = encounter(
      [
        { id: 'hawk', side: 'heroes', cv: 7, at: hex(0, 0), stats: { lightningReflexes: 2, recovery: 5, stun: 30, endurance: 30 } },
        { id: 'viper', side: 'villains', cv: 8, at: hex(3, 0), stats: { recovery: 4, stun: 25, endurance: 25 } },
        { id: 'stone', side: 'heroes', cv: 6, at: hex(4, 0), stats: { recovery: 6, stun: 40, endurance: 40 } },
        { id: 'goon', side: 'villains', cv: 5, at: hex(6, 0), stats: { recovery: 2, stun: 20, endurance: 20 } },
      ],
      { unaware: ['stone', 'goon'], seed: 42 },
    );
    let s: S = setup.s;
    const log: unknown[] = [...setup.log];
    const batches: EngineEvent[][] = [];
    const start = s;
    const run = (c: unknown) => {
      const r = ok(s, c);
      log.push(c);
      batches.push(r.events);
      s = r.state;
      return r;
    };
    const endAction = () => run(cmd('turn.end', s.clock.current!));

    // --- Surprise Phase: only the aware act, in Initiative order, one attack or move action each
    expect(s.clock).toMatchObject({ round: 1, phase: 'surprise', order: ['hawk', 'viper'], current: 'hawk' });
    run(cmd('move', 'hawk', { mode: 'move-half', path: [hex(1, 0)] }));
    run(cmd('free', 'hawk', { action: 'soliloquy' }));
    endAction();
    expect(s.clock.current).toBe('viper');
    run({ type: 'dice.force', by: gm, faces: [4, 4, 4] });
    const strike = run(cmd('attack', 'viper', { manoeuvre: 'strike', targetId: 'stone' }));
    expect(strike.events.find((e) => e.type === 'ocv-phases.attack-resolved')).toMatchObject({ ocv: 8, dcv: 3, need: 13, hit: true }); // unaware: -3 DCV
    endAction();

    // --- Phase 1: hawk 9, viper 8, stone 6, goon 5
    expect(s.clock).toMatchObject({ round: 1, phase: 'phase-1', order: ['hawk', 'viper', 'stone', 'goon'], current: 'hawk' });
    run(cmd('delay', 'hawk'));
    expect(s.clock.current).toBe('viper');
    run(
      cmd('ready', 'viper', {
        actionType: 'attack',
        action: 'strike',
        trigger: { on: 'enters-reach', description: 'when a hero comes into reach' },
      }),
    );
    endAction();
    expect(s.clock.current).toBe('stone');
    // stone, next to viper, withdraws: no attack of opportunity
    run(cmd('move', 'stone', { mode: 'withdraw', path: [hex(4, 1), hex(4, 2), hex(4, 3)] }));
    expect(s.reaction).toBeNull();
    expect(s.combatants.stone!.position).toEqual(hex(4, 3));
    endAction();
    // goon takes a 1-hex step
    run(cmd('step', 'goon', { to: hex(5, 0) }));
    expect(s.combatants.goon!.position).toEqual(hex(5, 0));
    endAction();
    // the end of the Phase: hawk's delayed action; it moves into viper's reach and triggers the readied strike
    expect(s.clock).toMatchObject({ phase: 'phase-1', current: 'hawk' });
    run(cmd('move', 'hawk', { mode: 'move-half', path: [hex(2, 0)] }));
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.before-action', eligible: ['viper'] });
    run({ type: 'dice.force', by: gm, faces: [5, 5, 5] });
    run(cmd('takeReadied', 'viper', { targetId: 'hawk' }));
    expect(s.rs.attacks.at(-1)).toMatchObject({ attackerId: 'viper', targetId: 'hawk', hit: true });
    // the hit holds hawk's action for the GM; then it continues
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.continue', eligible: ['hawk'] });
    run({ type: 'adjustPools', by: gm, combatantId: 'hawk', stun: 18 });
    run(cmd('reaction.pass', 'hawk'));
    expect(s.combatants.hawk!.position).toEqual(hex(2, 0));
    // delay: hawk acted last; ready: viper acts immediately ahead of hawk
    expect(s.clock.order).toEqual(['stone', 'goon', 'viper', 'hawk']);
    endAction();

    // --- Phase 2: the new order
    expect(s.clock).toMatchObject({ phase: 'phase-2', current: 'stone' });
    endAction();
    endAction(); // goon
    expect(s.clock.current).toBe('viper');
    // viper moves away from hawk: an attack of opportunity interrupts the move
    run(cmd('move', 'viper', { mode: 'move-half', path: [hex(4, -1), hex(5, -1)] }));
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.attack-of-opportunity', eligible: ['hawk'] });
    expect(s.combatants.viper!.position).toEqual(hex(3, 0));
    run({ type: 'dice.force', by: gm, faces: [1, 2, 1] });
    const aoo = run(cmd('opportunityAttack', 'hawk', { manoeuvre: 'strike' }));
    expect(aoo.events.find((e) => e.type === 'ocv-phases.attack-resolved')).toMatchObject({ aoo: true, hit: false });
    expect(s.combatants.viper!.position).toEqual(hex(5, -1)); // the interrupted move completed
    endAction();
    endAction(); // hawk

    // --- Phase 3: viper comes back and strikes; hawk aborts to Dodge before its Initiative
    expect(s.clock).toMatchObject({ phase: 'phase-3', current: 'stone' });
    endAction();
    endAction();
    run(cmd('move', 'viper', { mode: 'move-half', path: [hex(4, -1), hex(3, -1)] }));
    run(cmd('attack', 'viper', { manoeuvre: 'strike', targetId: 'hawk' }));
    expect(s.reaction).toMatchObject({ kind: 'ocv-phases.before-action', eligible: ['hawk'] });
    run({ type: 'dice.force', by: gm, faces: [3, 3, 3] });
    run(cmd('abort', 'hawk', { action: 'dodge' }));
    expect(s.rs.attacks.at(-1)).toMatchObject({ attackerId: 'viper', need: 20 }); // DCV 7 + 3 from the Dodge
    endAction();
    // hawk gave up its action this Phase
    expect(s.clock).toMatchObject({ phase: 'phase-4', current: 'stone' });

    // --- Phase 4, then the Post-Turn Recovery
    run({ type: 'adjustPools', by: gm, combatantId: 'stone', stun: 20 });
    for (let i = 0; i < 4; i++) endAction();
    expect(s.clock).toMatchObject({ round: 2, phase: 'phase-1', current: 'stone' });
    expect(s.combatants.hawk!.data.stun).toBe(23);
    expect(s.combatants.stone!.data.stun).toBe(26);
    expect(batches.at(-1)!.filter((e) => e.type === 'ocv-phases.recovered')).toHaveLength(4);

    // the log replays to the byte-identical state, and the events alone rebuild it
    const initial = createEncounter(R, { id: 'enc', seed: 42 });
    expect(JSON.stringify(replay(R, initial, log))).toBe(JSON.stringify(s));
    expect(JSON.stringify(rebuild(R, start as never, batches))).toBe(JSON.stringify(s));
    expect(R.invariants!(s)).toEqual([]);
  });
});
