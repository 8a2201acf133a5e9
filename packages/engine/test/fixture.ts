import { z } from 'zod';
import { commandSchema, idSchema } from '../src/schemas.js';
import type { Ruleset } from '../src/types.js';

/**
 * A tiny ruleset used only to test the engine core: initiative by d20, one attack per turn,
 * a parry reaction window opened by every attack.
 */
interface RS {
  acted: string[];
}
export const mini: Ruleset<RS, { parry: boolean }, { hp: number; init: number }, { hp: number }> = {
  id: 'mini',
  name: 'Mini',
  summary: 'test fixture',
  optionsSchema: z.object({ parry: z.boolean().default(true) }),
  optionDocs: { parry: 'attacks open a parry window' },
  statsSchema: z.object({ hp: z.number().int().min(1), init: z.number().int().default(0) }),
  positionSchema: z.object({ x: z.number().int(), y: z.number().int() }),
  initialState: () => ({ acted: [] }),
  initCombatant: (stats) => ({ hp: stats.hp }),
  catalogue: [{ id: 'attack', label: 'Attack', kind: 'action', rule: 'mini' }],
  startCombat(ctx) {
    const ids = Object.keys(ctx.state.combatants);
    const scores = ids.map((id) => ({ id, score: ctx.roll('1d20', `initiative for ${id}`, { combatantId: id }).total }));
    scores.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    ctx.emit({ type: 'clock.changed', round: 1, phase: 'turns', order: scores.map((s) => s.id), current: scores[0]!.id });
  },
  endTurn(ctx, id) {
    const { order, current } = ctx.state.clock;
    if (current !== id) return ctx.fail('NOT_YOUR_TURN', 'mini.turns', 'Not your turn.');
    const i = order.indexOf(id);
    const next = order[(i + 1) % order.length]!;
    ctx.emit({ type: 'clock.changed', current: next, ...(i + 1 >= order.length ? { round: ctx.state.clock.round + 1 } : {}) });
    ctx.emit({ type: 'mini.reset' });
  },
  commands: {
    attack: {
      actor: 'combatant',
      schema: commandSchema('attack', { combatantId: idSchema, targetId: idSchema }),
      handle(ctx, cmd) {
        const s = ctx.state;
        if (s.clock.current !== cmd.combatantId) return ctx.fail('NOT_YOUR_TURN', 'mini.turns', 'Not your turn.');
        if (s.rs.acted.includes(cmd.combatantId as string)) return ctx.fail('BUDGET_EXHAUSTED', 'mini.one-attack', 'One attack a turn.');
        const target = s.combatants[cmd.targetId as string];
        if (!target) return ctx.fail('UNKNOWN_TARGET', 'mini.attack', 'No such target.');
        ctx.emit({ type: 'mini.acted', combatantId: cmd.combatantId });
        if (ctx.options.parry) {
          ctx.openReaction({
            kind: 'mini.parry',
            trigger: { combatantId: cmd.combatantId as string, action: 'attack', description: 'attack' },
            eligible: [target.id],
            allowed: ['parry'],
            resume: { attacker: cmd.combatantId, target: target.id },
          });
        } else {
          const dmg = ctx.roll('1d6', 'damage', { combatantId: cmd.combatantId as string }).total;
          ctx.emit({ type: 'mini.damaged', targetId: target.id, amount: dmg });
        }
      },
    },
    parry: {
      actor: 'combatant',
      reaction: true,
      schema: commandSchema('parry', { combatantId: idSchema }),
      handle(ctx, cmd) {
        ctx.emit({ type: 'mini.parried', combatantId: cmd.combatantId });
      },
    },
  },
  onReactionClosed(ctx, w) {
    const r = w.resume as { attacker: string; target: string };
    if (w.responses[r.target] === 'reacted') return;
    const dmg = ctx.roll('1d6', 'damage', { combatantId: r.attacker }).total;
    ctx.emit({ type: 'mini.damaged', targetId: r.target, amount: dmg });
  },
  evolve(s, e) {
    switch (e.type) {
      case 'mini.acted':
        s.rs.acted.push(e.combatantId as string);
        return true;
      case 'mini.reset':
        s.rs.acted = [];
        return true;
      case 'mini.parried':
        return true;
      case 'mini.damaged':
        s.combatants[e.targetId as string]!.data.hp -= e.amount as number;
        return true;
      default:
        return false;
    }
  },
  legalActions(state, id) {
    const mine = state.clock.current === id && !state.rs.acted.includes(id);
    return [{ command: 'attack', label: 'Attack', allowed: mine, template: { combatantId: id } }];
  },
};
