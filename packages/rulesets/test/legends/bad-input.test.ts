import { describe, expect, it } from 'vitest';
import { legends } from '../../src/legends/index.js';
import { player, started, Table, type Spec } from './helpers.js';

const specs: Spec[] = [
  { id: 'a1', side: 'h', controller: 'p1' },
  { id: 'a2', side: 'h', controller: 'p2' },
  { id: 'b1', side: 'f' },
  { id: 'b2', side: 'f' },
];

describe('legends: bad input', () => {
  it('unknown command types get UNKNOWN_COMMAND and change nothing', () => {
    const t = started(specs);
    t.refuse({ type: 'fireball', combatantId: 'a1' }, 'engine.commands', 'UNKNOWN_COMMAND');
    t.refuse({ type: 'legends.move', combatantId: 'a1' }, 'engine.commands', 'UNKNOWN_COMMAND');
  });

  it('acting out of turn is refused naming the turn rule', () => {
    const t = started(specs);
    const e = t.refuse({ type: 'act', by: player('p2'), combatantId: 'a2', action: 'speak' }, 'legends.turns', 'NOT_YOUR_TURN');
    expect(e.message).toMatch(/turn order list/);
    t.refuse({ type: 'turn.end', by: player('p2'), combatantId: 'a2' }, 'legends.turns', 'NOT_YOUR_TURN');
  });

  it("acting for another side (or another player's character) is NOT_AUTHORIZED", () => {
    const t = started(specs);
    t.refuse({ type: 'act', by: player('p1'), combatantId: 'b1', action: 'speak' }, 'engine.roles', 'NOT_AUTHORIZED');
    t.refuse({ type: 'act', by: player('p2'), combatantId: 'a1', action: 'speak' }, 'engine.roles', 'NOT_AUTHORIZED');
    // players cannot use GM tools
    t.refuse({ type: 'formGroup', by: player('p1'), combatantIds: ['a1', 'a2'] }, 'engine.roles', 'NOT_AUTHORIZED');
    t.refuse({ type: 'advancePhase', by: player('p1') }, 'engine.roles', 'NOT_AUTHORIZED');
    // the controller may act
    t.do({ type: 'act', by: player('p1'), combatantId: 'a1', action: 'speak' });
  });

  it('malformed parameters get INVALID_COMMAND naming the command', () => {
    const t = started(specs);
    t.refuse({ type: 'act', combatantId: 'a1' }, 'legends.act', 'INVALID_COMMAND');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'juggle' }] }, 'legends.act', 'INVALID_COMMAND');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'inventory', ops: [{ op: 'pickup' }] }, 'legends.act', 'INVALID_COMMAND');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'inventory' }, 'legends.inventory', 'INVALID_COMMAND');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'touch' }, 'legends.actions', 'INVALID_COMMAND');
    t.refuse({ type: 'act', combatantId: 'a1', action: 'touch', targetId: 'nobody' }, 'legends.actions', 'UNKNOWN_TARGET');
    t.refuse({ type: 'move', combatantId: 'a1', destination: { join: 'b1', zone: 'main' } }, 'legends.move', 'INVALID_COMMAND');
    t.refuse({ type: 'changeTurnOrder', combatantId: 'a1', index: -1 }, 'legends.changeTurnOrder', 'INVALID_COMMAND');
    t.refuse({ type: 'combatant.place', combatantId: 'a1', position: { zone: 7 } }, 'legends.position', 'INVALID_COMMAND');
    t.refuse({ type: 'combatant.place', combatantId: 'a1', position: { zone: 'nowhere' } }, 'legends.zones', 'INVALID_COMMAND');
    t.refuse({ type: 'defineAction', action: { key: 'Bad Key!', name: 'x', kinds: ['free'] } }, 'legends.defineAction', 'INVALID_COMMAND');
    t.refuse({ type: 'act', combatantId: 'ghost', action: 'speak' }, 'engine.combatants', 'UNKNOWN_COMBATANT');
  });

  it('stats that fail the schema get INVALID_STATS naming legends.stats', () => {
    const t = new Table();
    t.refuse(
      { type: 'combatant.add', combatant: { id: 'x', name: 'X', side: 'h', stats: { DEX: 'quick', SPD: 5, STR: 5 } } },
      'legends.stats',
      'INVALID_STATS',
    );
    t.refuse(
      { type: 'combatant.add', combatant: { id: 'x', name: 'X', side: 'h', stats: { DEX: 5, SPD: 5 } } },
      'legends.stats',
      'INVALID_STATS',
    );
    t.refuse(
      { type: 'combatant.add', combatant: { id: 'x', name: 'X', side: 'h', stats: { DEX: 5, SPD: 5, STR: 5, encumbrance: -1 } } },
      'legends.stats',
      'INVALID_STATS',
    );
    t.refuse(
      { type: 'combatant.add', combatant: { id: 'x', name: 'X', side: 'h', stats: { DEX: 5, SPD: 5, STR: 5, wings: true } } },
      'legends.stats',
      'INVALID_STATS',
    );
    t.add({ id: 'x', side: 'h' });
    t.refuse({ type: 'combatant.setStat', combatantId: 'x', stat: 'SPD', value: 'fast' }, 'legends.stats', 'INVALID_STATS');
    t.do({ type: 'combatant.setStat', combatantId: 'x', stat: 'SPD', value: 9 });
    expect(t.c('x').stats.SPD).toBe(9);
  });

  it('options that fail the schema are refused', () => {
    expect(() => new Table(1, { groupDefenseRatio: 0 })).toThrow(/legends.options|Too small|>=/);
    expect(legends.optionsSchema.safeParse({ rollMechanic: 'roll-over' }).success).toBe(false);
  });

  it('phase-bound commands outside their phase are refused', () => {
    const t = started(specs);
    t.refuse({ type: 'move', combatantId: 'a1', destination: { join: 'b1' } }, 'legends.movement-phase', 'WRONG_PHASE');
    t.refuse({ type: 'changeTurnOrder', combatantId: 'a1' }, 'legends.turn-order.change', 'WRONG_PHASE');
    t.refuse({ type: 'finishMove', combatantId: 'a1' }, 'legends.movement');
    t.refuse({ type: 'reaction.pass', combatantId: 'a1' }, 'engine.reactions', 'NO_REACTION_PENDING');
  });
});

describe('legends: legalActions', () => {
  it('lists every option with its kind and cost, and the rule that blocks the rest', () => {
    const t = started(specs);
    const opts = t.legal('a1');
    const speak = opts.find((o) => o.action === 'speak')!;
    expect(speak).toMatchObject({
      command: 'act',
      kind: 'free',
      cost: { free: 1 },
      allowed: true,
      template: { combatantId: 'a1', action: 'speak', as: 'free' },
    });
    const inv = opts.filter((o) => o.action === 'inventory').map((o) => o.kind);
    expect(inv).toEqual(['minor', 'major']);
    const bypass = opts.find((o) => o.action === 'bypass')!;
    expect(bypass.allowed).toBe(false);
    expect(bypass.blocked!.rule).toBe('legends.bypass');
    const forfeit = opts.find((o) => o.command === 'forfeitTurn')!;
    expect(forfeit.blocked!.rule).toBe('legends.turn-order.change');
    // not a2's turn: everything blocked with the turn rule
    const other = t.legal('a2');
    expect(other.filter((o) => o.allowed)).toEqual([]);
    expect(other.find((o) => o.action === 'speak')!.blocked!.rule).toBe('legends.turns');
  });

  it('the allowed options are accepted by apply', () => {
    const t = started(specs);
    for (const o of t.legal('a1').filter((o) => o.allowed && (!o.params || o.params.length === 0) && o.command === 'act')) {
      const r = t.try({ type: o.command, ...o.template });
      expect(r.ok, `${o.label}: ${r.ok ? '' : r.error.message}`).toBe(true);
    }
  });

  it('in the movement phase: move, stay, reactive movement; the reaction window offers react and pass', () => {
    const t = started(specs);
    t.skipTo('movement', 2);
    const opts = t.legal('a1');
    expect(
      opts
        .filter((o) => o.allowed)
        .map((o) => o.command)
        .sort(),
    ).toEqual(['move', 'prepareReaction', 'stay']);
    expect(opts.find((o) => o.command === 'prepareReaction')!.params![0]!.options).toEqual(['a2', 'b1', 'b2']);
    expect(t.legal('a2').every((o) => !o.allowed)).toBe(true);
  });
});

describe('legends: what players see', () => {
  it("the GM's prepared reactive movement and hidden characters stay out of the players' view", async () => {
    const { projectState } = await import('@fray/engine');
    const t = started([
      { id: 'a1', side: 'h', controller: 'p1' },
      { id: 'b1', side: 'f' },
      { id: 'a2', side: 'h', controller: 'p2' },
      { id: 'b2', side: 'f' },
    ]);
    t.do({ type: 'combatant.update', combatantId: 'b2', changes: { hidden: true } });
    t.skipTo('movement', 2);
    t.do({ type: 'prepareReaction', combatantId: 'a1', watch: 'a2', anticipate: 'stay with a2' });
    const ev = t.do({ type: 'prepareReaction', combatantId: 'b1', watch: 'b2', anticipate: 'flank' });
    expect(ev[0]!.gmOnly).toBe(true);
    const seen = projectState(legends, t.state as never, { role: 'player', playerId: 'p1' });
    const rs = seen.rs as typeof t.state.rs;
    expect(rs.reactions.map((r) => r.by)).toEqual([['a1']]);
    expect(Object.keys(rs.turnRolls).sort()).toEqual(['a1', 'a2', 'b1']);
    expect(rs.lastOrder).not.toContain('b2');
    const gmView = projectState(legends, t.state as never, { role: 'gm' });
    expect((gmView.rs as typeof t.state.rs).reactions).toHaveLength(2);
  });

  it('the GM can set fatigue', () => {
    const t = started(specs);
    t.do({ type: 'setFatigue', combatantId: 'a1', fatigue: 4 });
    expect(t.c('a1').data.fatigue).toBe(4);
    t.refuse({ type: 'setFatigue', combatantId: 'a1', fatigue: -1 }, 'legends.setFatigue', 'INVALID_COMMAND');
  });
});
