import { z } from 'zod';
import { commandKit, commandSchema, idSchema, type Ruleset } from '@fray/engine';

/**
 * A small ruleset for tests (the runtime's and the server's: `@fray/runtime/testing`): d20 initiative, one attack per turn, a parry reaction
 * window after every attack (with a deadline hint), and a free-text `lore` stat (kept only in
 * `stats`, so a secret lore is a clean marker for leak tests).
 */
interface RS {
  acted: string[];
}
type Options = { parry: boolean; parrySeconds: number };
const command = commandKit<RS, Options>();
/** What the parry window resumes: the attack it answers. */
const resumeSchema = z.object({ attacker: z.string(), target: z.string() });
export const skirmish: Ruleset<RS, Options, { hp: number; init: number; lore: string }, { wounds: number }> = {
  id: 'skirmish',
  name: 'Skirmish',
  summary: 'runtime test fixture',
  optionsSchema: z.object({ parry: z.boolean().default(true), parrySeconds: z.number().min(0).default(0) }),
  optionDocs: { parry: 'attacks open a parry window', parrySeconds: 'deadline hint for the parry window (0 = runtime default)' },
  statsSchema: z.object({ hp: z.number().int().min(1), init: z.number().int().default(0), lore: z.string().max(200).default('') }),
  positionSchema: z.object({ x: z.number().int(), y: z.number().int() }),
  initialState: () => ({ acted: [] }),
  initCombatant: () => ({ wounds: 0 }),
  catalogue: [{ id: 'attack', label: 'Attack', kind: 'action', rule: 'skirmish' }],
  startCombat(ctx) {
    const ids = Object.keys(ctx.state.combatants);
    const scores = ids.map((id) => ({ id, score: ctx.roll('1d20', `initiative for ${id}`, { combatantId: id }).total }));
    scores.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    ctx.emit({ type: 'clock.changed', round: 1, phase: 'turns', order: scores.map((s) => s.id), current: scores[0]!.id });
  },
  endTurn(ctx, id) {
    const { order, current } = ctx.state.clock;
    if (current !== id) return ctx.fail('NOT_YOUR_TURN', 'skirmish.turns', 'Not your turn.');
    const i = order.indexOf(id);
    const next = order[(i + 1) % order.length]!;
    ctx.emit({ type: 'clock.changed', current: next, ...(i + 1 >= order.length ? { round: ctx.state.clock.round + 1 } : {}) });
    ctx.emit({ type: 'skirmish.reset' });
  },
  commands: {
    attack: command({
      actor: 'combatant',
      schema: commandSchema('attack', { combatantId: idSchema, targetId: idSchema }),
      handle(ctx, cmd) {
        const s = ctx.state;
        if (s.clock.current !== cmd.combatantId) return ctx.fail('NOT_YOUR_TURN', 'skirmish.turns', 'Not your turn.');
        if (s.rs.acted.includes(cmd.combatantId)) return ctx.fail('BUDGET_EXHAUSTED', 'skirmish.one-attack', 'One attack a turn.');
        const target = s.combatants[cmd.targetId];
        if (!target) return ctx.fail('UNKNOWN_TARGET', 'skirmish.attack', 'No such target.');
        ctx.emit({ type: 'skirmish.acted', combatantId: cmd.combatantId });
        if (ctx.options.parry) {
          ctx.openReaction({
            kind: 'skirmish.parry',
            trigger: { combatantId: cmd.combatantId, action: 'attack', description: 'attack' },
            eligible: [target.id],
            allowed: ['parry'],
            resume: { attacker: cmd.combatantId, target: target.id },
            ...(ctx.options.parrySeconds > 0 ? { deadlineSeconds: ctx.options.parrySeconds } : {}),
          });
        } else {
          const dmg = ctx.roll('1d6', 'damage', { combatantId: cmd.combatantId }).total;
          ctx.emit({ type: 'skirmish.wounded', targetId: target.id, amount: dmg });
        }
      },
    }),
    parry: command({
      actor: 'combatant',
      reaction: true,
      schema: commandSchema('parry', { combatantId: idSchema }),
      handle(ctx, cmd) {
        ctx.emit({ type: 'skirmish.parried', combatantId: cmd.combatantId });
      },
    }),
  },
  onReactionClosed(ctx, w) {
    const r = resumeSchema.parse(w.resume);
    if (w.responses[r.target] === 'reacted') return;
    if (!ctx.state.combatants[r.target]) return;
    const dmg = ctx.roll('1d6', 'damage', { combatantId: r.attacker }).total;
    ctx.emit({ type: 'skirmish.wounded', targetId: r.target, amount: dmg });
  },
  evolve(s, e) {
    switch (e.type) {
      case 'skirmish.acted':
        if (typeof e.combatantId === 'string') s.rs.acted.push(e.combatantId);
        return true;
      case 'skirmish.reset':
        s.rs.acted = [];
        return true;
      case 'skirmish.parried':
        return true;
      case 'skirmish.wounded': {
        const c = typeof e.targetId === 'string' ? s.combatants[e.targetId] : undefined;
        if (c && typeof e.amount === 'number') c.data.wounds += e.amount;
        return true;
      }
      default:
        return false;
    }
  },
  projectState(rs, viewer, state) {
    const pid = viewer.role === 'player' ? viewer.playerId : null;
    // only combatants the viewer sees: not a hidden one, nor one removed (it may have been hidden)
    const seen = (id: string) => {
      const c = state.combatants[id];
      return c !== undefined && (!c.hidden || (pid !== null && c.controller === pid));
    };
    return rs.acted.every(seen) ? rs : { acted: rs.acted.filter(seen) };
  },
  legalActions(state, id) {
    const mine = state.clock.current === id && !state.rs.acted.includes(id);
    // like the real rulesets: the targets listed, and who else could strike back (a parry is the only reaction here)
    const targets = Object.keys(state.combatants).filter((x) => x !== id);
    const enemies = targets.filter((x) => state.combatants[x]!.side !== state.combatants[id]?.side);
    return [
      {
        command: 'attack',
        label: 'Attack',
        allowed: mine,
        template: { combatantId: id },
        params: [{ name: 'targetId', kind: 'combatant', options: targets }],
        provokes: enemies.length > 0 ? { from: enemies, reason: 'the target may parry' } : null,
      },
    ];
  },
};

export const rulesets = { skirmish };
