import { z } from 'zod';
import { commandSchema, idSchema, type CommandSpec, type Command, type EngineError, type Hex } from '@fray/engine';
import { advance, st, type C } from './clock.js';
import {
  abortCost,
  abortError,
  aooBlock,
  attackRoll,
  budgetError,
  declare,
  negation,
  newJob,
  nextUp,
  pathError,
  runJob,
  stepError,
  stunnedError,
  targetError,
  turnError,
} from './actions.js';
import { conditions, hexSchema, incapable, phaseKey, touched, unawareNow, useOf, type Options, type RS, type S } from './model.js';
import { ACT_IDS, AOO_IDS, ATTACK_IDS, DEFEND_IDS, FREE_IDS, MOVE_IDS, ROW, ROWS } from './table.js';

type Spec = CommandSpec<RS, Options>;
type Cmd = Command & Record<string, unknown>;

const enumOf = (ids: string[]) => z.enum(ids as [string, ...string[]]);
const path = z.array(hexSchema).min(1).max(200);
const mod = z.number().int().min(-30).max(30);

function check(ctx: C, ...errs: (EngineError | null | (() => EngineError | null))[]): void {
  for (const e of errs) {
    const got = typeof e === 'function' ? e() : e;
    if (got) ctx.fail(got.code, got.rule, got.message);
  }
}

const provokeFields = { skill: z.string().min(1).max(64).optional(), negated: z.boolean().optional(), provokes: z.boolean().optional() };

const MELEE_ONLY = new Set(['grab', 'disarm', 'sweep', 'haymaker']);

function attackTargets(ctx: C, s: S, id: string, rowId: string, cmd: Cmd, from?: Hex): string[] {
  const row = ROW[rowId]!;
  const targets = (cmd.targetIds as string[] | undefined) ?? (cmd.targetId ? [cmd.targetId as string] : []);
  if (targets.length === 0) ctx.fail('INVALID_COMMAND', 'ocv-phases.attack', 'Name the target.');
  if (!row.multi && targets.length > 1) ctx.fail('INVALID_COMMAND', 'ocv-phases.attack', `${row.label} has a single target.`);
  if (new Set(targets).size !== targets.length) ctx.fail('INVALID_COMMAND', 'ocv-phases.attack', 'A target is named twice.');
  const range = (cmd.range as number | undefined) ?? null;
  if (range !== null && MELEE_ONLY.has(rowId)) ctx.fail('ILLEGAL_ACTION', 'ocv-phases.melee-reach', `${row.label} is a melee manoeuvre.`);
  if (rowId === 'rapid-fire' && range === null) ctx.fail('INVALID_COMMAND', 'ocv-phases.ranged', 'Rapid Fire is a ranged attack: give its range.');
  for (const t of targets) check(ctx, targetError(s, id, t, range, from));
  return targets;
}

export const commands: Record<string, Spec> = {
  attack: {
    actor: 'combatant',
    schema: commandSchema('attack', {
      combatantId: idSchema,
      manoeuvre: enumOf(ATTACK_IDS),
      targetId: idSchema.optional(),
      targetIds: z.array(idSchema).min(1).max(20).optional(),
      range: z.number().int().min(1).max(10_000).optional(),
      ocvModifier: mod.optional(),
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      const row = ROW[cmd.manoeuvre as string]!;
      check(ctx, turnError(s, id), stunnedError(s, id, row.id), budgetError(s, id, row.type));
      const targetIds = attackTargets(ctx, s, id, row.id, cmd);
      const job = newJob(id, row.id, 'regular', { targetIds, ranged: (cmd.range as number | undefined) ?? null, ocvModifier: (cmd.ocvModifier as number | undefined) ?? 0 });
      declare(ctx, job, row.type);
    },
  },
  defend: {
    actor: 'combatant',
    schema: commandSchema('defend', { combatantId: idSchema, manoeuvre: enumOf(DEFEND_IDS) }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      const row = ROW[cmd.manoeuvre as string]!;
      check(ctx, turnError(s, id), stunnedError(s, id, row.id), budgetError(s, id, row.type));
      declare(ctx, newJob(id, row.id, 'regular'), row.type);
    },
  },
  move: {
    actor: 'combatant',
    schema: commandSchema('move', {
      combatantId: idSchema,
      mode: enumOf(MOVE_IDS.filter((m) => m !== 'step')),
      path,
      targetId: idSchema.optional(),
      ocvModifier: mod.optional(),
      ...provokeFields,
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      const row = ROW[cmd.mode as string]!;
      const p = cmd.path as Hex[];
      check(ctx, turnError(s, id), stunnedError(s, id, row.id), budgetError(s, id, row.type));
      if (row.id === 'crawl' && p.length !== 1) ctx.fail('ILLEGAL_ACTION', 'ocv-phases.movement', 'Crawl one hex.');
      check(ctx, pathError(s, id, row.id, p));
      const targetIds: string[] = [];
      if (row.id === 'move-by' || row.id === 'move-through') {
        if (!cmd.targetId || !s.combatants[cmd.targetId as string]) ctx.fail('INVALID_COMMAND', 'ocv-phases.attack', `${row.label}: name the opponent.`);
        targetIds.push(cmd.targetId as string);
      }
      const noProvoke = negation(ctx, id, row, cmd as never);
      declare(ctx, newJob(id, row.id, 'regular', { path: p, targetIds, noProvoke, ocvModifier: (cmd.ocvModifier as number | undefined) ?? 0 }), row.type);
    },
  },
  step: {
    actor: 'combatant',
    schema: commandSchema('step', { combatantId: idSchema, to: hexSchema }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      check(ctx, turnError(s, id), stunnedError(s, id, 'step'), stepError(s, id, cmd.to as Hex));
      declare(ctx, newJob(id, 'step', 'regular', { path: [cmd.to as Hex] }), 'none');
    },
  },
  act: {
    actor: 'combatant',
    schema: commandSchema('act', {
      combatantId: idSchema,
      action: enumOf(ACT_IDS),
      itemId: idSchema.optional(),
      fullAction: enumOf(ROWS.filter((r) => r.type === 'full' && r.via === 'act').map((r) => r.id)).optional(),
      ...provokeFields,
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      const row = ROW[cmd.action as string]!;
      check(ctx, turnError(s, id), stunnedError(s, id, row.id), budgetError(s, id, row.type));
      const c = s.combatants[id]!;
      if (row.id === 'recover-stunned' && !conditions(s, id).includes('stunned')) ctx.fail('ILLEGAL_ACTION', 'ocv-phases.stunned', 'Recover from being Stunned: this character is not Stunned.');
      if (row.id === 'stand-up' && !conditions(s, id).includes('prone')) ctx.fail('ILLEGAL_ACTION', 'ocv-phases.prone', 'Stand up from prone: this character is not prone.');
      if (row.id === 'start-full-phase' && !cmd.fullAction) ctx.fail('INVALID_COMMAND', 'ocv-phases.start-full-phase', 'Name the full-phase action to start.');
      if (row.id === 'complete-full-phase' && !c.data.fullStarted) {
        ctx.fail('ILLEGAL_ACTION', 'ocv-phases.start-full-phase', 'No full-phase action has been started: start it with a move action first.');
      }
      if (['draw-focus', 'retrieve-focus', 'pick-up'].includes(row.id) && cmd.itemId) {
        const it = c.items.find((i) => i.id === cmd.itemId);
        if (!it) ctx.fail('INVALID_COMMAND', 'ocv-phases.items', `${c.name} has no item "${String(cmd.itemId)}".`);
        if (row.id === 'pick-up' && it!.location !== 'ground') ctx.fail('ILLEGAL_ACTION', 'ocv-phases.items', `${it!.name} is not on the ground.`);
      }
      const noProvoke = negation(ctx, id, row, cmd as never);
      declare(ctx, newJob(id, row.id, 'regular', { itemId: (cmd.itemId as string | undefined) ?? null, noProvoke, fullAction: (cmd.fullAction as string | undefined) ?? null }), row.type);
    },
  },
  free: {
    actor: 'combatant',
    schema: commandSchema('free', { combatantId: idSchema, action: enumOf(FREE_IDS), itemId: idSchema.optional() }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      const row = ROW[cmd.action as string]!;
      check(ctx, turnError(s, id), stunnedError(s, id, row.id), budgetError(s, id, 'free'));
      declare(ctx, newJob(id, row.id, 'regular', { itemId: (cmd.itemId as string | undefined) ?? null }), 'free');
    },
  },
  delay: {
    actor: 'combatant',
    schema: commandSchema('delay', { combatantId: idSchema, before: idSchema.optional() }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      check(ctx, turnError(s, id));
      const c = s.combatants[id]!;
      if (touched(c.data)) ctx.fail('ILLEGAL_ACTION', 'ocv-phases.delay', 'By choosing to delay, you take no action on your own Initiative score: this character has already acted this Phase.');
      const before = (cmd.before as string | undefined) ?? null;
      if (before !== null) {
        const order = s.rs.phase === 'surprise' ? s.rs.order.filter((x) => !s.rs.unaware.includes(x)) : s.rs.order;
        if (before === id || !order.includes(before) || s.rs.passed.includes(before)) {
          ctx.fail('ILLEGAL_ACTION', 'ocv-phases.delay', 'You can specify your new place in the sequence only later in this Phase ("immediately before Captain Comet\'s action").');
        }
      }
      ctx.emit({ type: 'ocv-phases.held', combatantId: id, hold: { kind: 'delay', key: phaseKey(s.rs), before } });
      ctx.emit({ type: 'ocv-phases.current', combatantId: null });
      advance(ctx);
    },
  },
  actNow: {
    actor: 'combatant',
    schema: commandSchema('actNow', { combatantId: idSchema }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      const h = s.combatants[id]!.data.hold;
      if (h?.kind !== 'delay') return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.delay', 'This character has not delayed its action.');
      if (s.clock.current === id) return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.delay', 'It is already this character\'s action.');
      if (incapable(s, id) || unawareNow(s, id)) return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.incapable', 'This character cannot act now.');
      const cur = s.clock.current;
      if (cur && (touched(s.combatants[cur]!.data) || s.rs.offered.includes(cur))) {
        return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.delay-no-interrupt', "You can't interrupt anyone else's action, as you can with a readied action: wait until it ends.");
      }
      const before = nextUp(s);
      if (cur) {
        ctx.emit({ type: 'ocv-phases.slot-yielded', combatantId: cur });
        ctx.emit({ type: 'ocv-phases.current', combatantId: null });
      }
      ctx.emit({ type: 'ocv-phases.hold-taken', combatantId: id, kind: 'delay', before });
    },
  },
  ready: {
    actor: 'combatant',
    schema: commandSchema('ready', {
      combatantId: idSchema,
      actionType: z.enum(['attack', 'move', 'free']),
      action: z.string().min(1).max(64),
      trigger: z.object({
        on: z.enum(['attacks', 'moves', 'acts', 'enters-reach', 'manual']),
        by: idSchema.optional(),
        description: z.string().min(1).max(300),
      }),
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      check(ctx, turnError(s, id), stunnedError(s, id, 'ready'), budgetError(s, id, 'attack'));
      const type = cmd.actionType as 'attack' | 'move' | 'free';
      const action = cmd.action as string;
      const r = ROW[action];
      // "You can ready an attack action, a move action, or a free action. To do so, specify the action you will take and the conditions"
      if (!r || r.type !== type || !['attack', 'defend', 'move', 'free'].includes(r.via) || r.id === 'ready') {
        ctx.fail('INVALID_COMMAND', 'ocv-phases.ready', 'You can ready an attack action, a move action, or a free action: name one of that type.');
      }
      const t = cmd.trigger as { on: string; by?: string; description: string };
      if (t.by !== undefined && !s.combatants[t.by]) ctx.fail('UNKNOWN_COMBATANT', 'engine.combatants', `No combatant "${t.by}".`);
      declare(ctx, newJob(id, 'ready', 'regular'), 'attack');
      ctx.emit({
        type: 'ocv-phases.held',
        combatantId: id,
        hold: { kind: 'ready', key: phaseKey(s.rs), actionType: type, action, trigger: { on: t.on, by: t.by ?? null, description: t.description } },
      });
    },
  },
  takeReadied: {
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('takeReadied', {
      combatantId: idSchema,
      action: z.string().min(1).max(64).optional(),
      targetId: idSchema.optional(),
      path: path.optional(),
      range: z.number().int().min(1).max(10_000).optional(),
      step: hexSchema.optional(),
      itemId: idSchema.optional(),
      ocvModifier: mod.optional(),
      ...provokeFields,
    }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      const c = s.combatants[id]!;
      const h = c.data.hold;
      if (h?.kind !== 'ready') return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.ready', 'This character has no readied action.');
      if (s.clock.current === id) {
        return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.ready', 'The ready action lets you prepare to take an action later, after your turn is over.');
      }
      if (incapable(s, id) || unawareNow(s, id)) return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.incapable', 'This character cannot act now.');
      const w = s.reaction;
      const inWindow = !!w && w.kind === 'ocv-phases.before-action' && w.responses[id] === 'pending';
      if (w && !inWindow) return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.ready-trigger', 'Not the condition this character readied its action for.');
      if (!w && h.trigger.on !== 'manual') {
        return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.ready-trigger', `The readied action is taken in response to its condition (${h.trigger.on}${h.trigger.by ? ` by ${s.combatants[h.trigger.by]?.name ?? h.trigger.by}` : ''}), which has not happened.`);
      }
      const rowId = (cmd.action as string | undefined) ?? h.action;
      const step = (cmd.step as Hex | undefined) ?? null;
      if (rowId === null && !step) ctx.fail('INVALID_COMMAND', 'ocv-phases.ready', 'Name the readied action to take.');
      let job = newJob(id, rowId ?? 'step', 'readied', { step: rowId ? step : null, path: rowId ? [] : [step!] });
      if (step) check(ctx, stepError(s, id, step, true));
      if (rowId !== null) {
        const row = ROW[rowId];
        if (!row || row.type !== h.actionType || !['attack', 'defend', 'move', 'free'].includes(row.via) || (h.action !== null && h.action !== rowId)) {
          return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.ready', `The readied action was ${h.action ? ROW[h.action]!.label : `a ${h.actionType} action`}.`);
        }
        check(ctx, stunnedError(s, id, row.id));
        if (row.via === 'attack') {
          const targetIds = attackTargets(ctx, s, id, row.id, cmd, step ?? undefined);
          job = { ...job, targetIds, ranged: (cmd.range as number | undefined) ?? null, ocvModifier: (cmd.ocvModifier as number | undefined) ?? 0 };
        }
        if (row.via === 'move') {
          if (!cmd.path) ctx.fail('INVALID_COMMAND', 'ocv-phases.ready', 'Give the path of the readied move.');
          check(ctx, pathError(s, id, row.id, cmd.path as Hex[]));
          job = { ...job, path: cmd.path as Hex[], noProvoke: negation(ctx, id, row, cmd as never) };
          if (step) ctx.fail('ILLEGAL_ACTION', 'ocv-phases.step-no-move', "You can take a 1-hex step as part of your readied action, but only if you don't otherwise move any distance during the Phase.");
        }
        if (row.via === 'free') job = { ...job, itemId: (cmd.itemId as string | undefined) ?? null };
      }
      const before = inWindow ? w!.trigger.combatantId : (s.clock.current ?? nextUp(s));
      // "you act immediately ahead of the character whose action triggered your readied action"
      ctx.emit({ type: 'ocv-phases.hold-taken', combatantId: id, kind: 'ready', before });
      const row = ROW[job.row]!;
      ctx.emit({ type: 'ocv-phases.declared', combatantId: id, row: job.row, actionType: row.type, via: 'readied', use: row.via === 'attack' || row.via === 'defend' ? useOf(s, job.row) : undefined });
      if (inWindow) {
        ctx.emit({ type: 'ocv-phases.intent', combatantId: id, intent: { windowId: w!.id, combatantId: id, job, before, kind: 'readied' } });
        ctx.emit({ type: 'reaction.responded', combatantId: id, response: 'reacted' });
      } else {
        runJob(ctx, { ...job, stage: 'provoke' });
      }
    },
  },
  abort: {
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('abort', { combatantId: idSchema, action: enumOf(ROWS.filter((r) => r.defensive).map((r) => r.id)), path: path.optional(), ...provokeFields }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      check(ctx, abortError(s, id));
      const w = s.reaction;
      const inWindow = !!w && w.kind === 'ocv-phases.before-action' && w.responses[id] === 'pending';
      if (w && !inWindow) return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.abort', 'Aborting is not offered to this character in this interruption.');
      const row = ROW[cmd.action as string]!;
      let job = newJob(id, row.id, 'abort');
      if (row.moves) {
        if (!cmd.path) ctx.fail('INVALID_COMMAND', 'ocv-phases.abort', 'Give the path of the move.');
        check(ctx, pathError(s, id, row.id, cmd.path as Hex[]));
        job = { ...job, path: cmd.path as Hex[], noProvoke: negation(ctx, id, row, cmd as never) };
      }
      const cost = abortCost(s, id);
      ctx.emit({ type: 'ocv-phases.aborted', combatantId: id, action: row.id, givesUp: cost.givesUp, lock: cost.lock });
      ctx.emit({ type: 'ocv-phases.declared', combatantId: id, row: row.id, actionType: row.type, via: 'abort', use: row.via === 'defend' ? useOf(s, row.id) : undefined });
      if (inWindow) {
        if (row.moves) ctx.emit({ type: 'ocv-phases.intent', combatantId: id, intent: { windowId: w!.id, combatantId: id, job, before: null, kind: 'abort' } });
        ctx.emit({ type: 'reaction.responded', combatantId: id, response: 'reacted' });
      } else {
        runJob(ctx, { ...job, stage: 'provoke' });
      }
    },
  },
  opportunityAttack: {
    actor: 'combatant',
    duringReaction: true,
    schema: commandSchema('opportunityAttack', { combatantId: idSchema, manoeuvre: enumOf(AOO_IDS).default('strike'), ocvModifier: mod.optional() }),
    handle(ctx, cmd) {
      const s = st(ctx);
      const id = cmd.combatantId as string;
      check(ctx, aooBlock(s, id));
      const w = s.reaction;
      if (!w || w.kind !== 'ocv-phases.attack-of-opportunity' || w.responses[id] !== 'pending') {
        return ctx.fail('ILLEGAL_ACTION', 'ocv-phases.aoo-opportunity', 'An attack of opportunity is made only when an enemy provokes one from you (leaving a hex you threaten, or a distracting action in it).');
      }
      const target = w.trigger.combatantId!;
      check(ctx, targetError(s, id, target, null));
      attackRoll(ctx, id, target, cmd.manoeuvre as string, { ocvModifier: (cmd.ocvModifier as number | undefined) ?? 0, ranged: false, aoo: true, interrupt: true });
      ctx.emit({ type: 'reaction.responded', combatantId: id, response: 'reacted' });
    },
  },
  // GM tools
  setAwareness: {
    actor: 'gm',
    inSetup: true,
    duringReaction: true,
    schema: commandSchema('setAwareness', { combatantId: idSchema, aware: z.boolean() }),
    handle(ctx, cmd) {
      if (!st(ctx).combatants[cmd.combatantId as string]) ctx.fail('UNKNOWN_COMBATANT', 'engine.combatants', 'No such combatant.');
      if (ctx.state.status !== 'setup') ctx.fail('WRONG_PHASE', 'ocv-phases.surprise', 'Awareness at the start of battle is set before combat starts.');
      ctx.emit({ type: 'ocv-phases.awareness', combatantId: cmd.combatantId, aware: cmd.aware });
    },
  },
  setMap: {
    actor: 'gm',
    inSetup: true,
    duringReaction: true,
    schema: commandSchema('setMap', {
      blocking: z.array(hexSchema).max(5000).default([]),
      difficult: z.array(hexSchema).max(5000).default([]),
      dark: z.array(hexSchema).max(5000).default([]),
    }),
    handle(ctx, cmd) {
      const keys = (hs: unknown) => [...new Set((hs as Hex[]).map((h) => `${h.q},${h.r}`))];
      ctx.emit({ type: 'ocv-phases.map-set', map: { blocking: keys(cmd.blocking), difficult: keys(cmd.difficult), dark: keys(cmd.dark) } });
    },
  },
  adjustPools: {
    actor: 'gm',
    inSetup: true,
    duringReaction: true,
    schema: commandSchema('adjustPools', { combatantId: idSchema, stun: z.number().int().min(-5000).max(5000).optional(), endurance: z.number().int().min(-5000).max(5000).optional() }),
    handle(ctx, cmd) {
      if (!st(ctx).combatants[cmd.combatantId as string]) ctx.fail('UNKNOWN_COMBATANT', 'engine.combatants', 'No such combatant.');
      ctx.emit({ type: 'ocv-phases.pools', combatantId: cmd.combatantId, stun: cmd.stun, endurance: cmd.endurance });
    },
  },
  restrict: {
    actor: 'gm',
    duringReaction: true,
    schema: commandSchema('restrict', { combatantId: idSchema, restricted: z.boolean() }),
    handle(ctx, cmd) {
      if (!st(ctx).combatants[cmd.combatantId as string]) ctx.fail('UNKNOWN_COMBATANT', 'engine.combatants', 'No such combatant.');
      ctx.emit({ type: 'ocv-phases.restricted', combatantId: cmd.combatantId, restricted: cmd.restricted });
    },
  },
  resumeClock: {
    actor: 'gm',
    schema: commandSchema('resumeClock', {}),
    handle(ctx) {
      const s = st(ctx);
      if (s.clock.current !== null) ctx.fail('ILLEGAL_ACTION', 'ocv-phases.initiative-order', 'The clock is running: end the current action instead.');
      advance(ctx);
    },
  },
};
