import { ensure } from '@fray/engine';
import { checkSpend } from '../checks/index.js';
import { emit, patchData, plain, type ArCtx } from '../events.js';
import { damageRank, stuntSave } from '../mechanics/combat.js';
import { degreesOf } from '../mechanics/dice.js';
import { dealDamage } from './resolve/attack.js';
import { opposed } from './resolve/roll.js';
import { applyStunt } from './resolve/stunt.js';
import { combatant, cond, isIncapacitated, type C, type Data, type LastCheck } from '../state/index.js';
import { command, me } from './kit.js';
import { doRecover } from './defense.js';
import { S, type In } from './schemas.js';

/** SPEND DESTINY, FATE, OR CORRUPTION [Free]: coup, edit the scene, improve a roll, inspiration, recover, stunt. */

type Spend = In<'spend'>;

const spend = command({
  schema: S.spend,
  actor: 'combatant',
  handle(ctx: ArCtx, cmd) {
    const c = me(ctx, cmd);
    ensure(checkSpend(ctx.state, c, cmd.pool, cmd.use, cmd.benefit));
    const last = ctx.state.rs.lastCheck[c.id];
    // "Unless otherwise noted, spending Destiny, Fate, or Corruption is a free action, taking no time"
    const die = ctx.roll(`1${ctx.options.destinyDie}`, `${cmd.pool}: ${cmd.use}`, { combatantId: c.id }).total;
    const onTurn = ctx.state.clock.current === c.id && !ctx.options.delayAfterFreeAction; // a free action on your turn: no delay after it
    const patch: Partial<Data> = onTurn ? { acted: true } : {};
    patch[cmd.pool] = c.data[cmd.pool] - 1;
    patchData(ctx, 'spent-destiny', c.id, patch, { pool: cmd.pool, use: cmd.use, die });
    spendUse(ctx, c, cmd, die, last);
  },
});

function spendUse(ctx: ArCtx, c: C, cmd: Spend, die: number, last: LastCheck | undefined): void {
  const half = Math.ceil(die / 2);
  switch (cmd.use) {
    case 'coup':
      // "determined by the number rolled on the die used (half the number, rounded up, for determining Degrees of Success"
      if (last)
        emit(
          ctx,
          'check-adjusted',
          { combatantId: c.id, rollId: last.id, degrees: last.degrees + half, by: 'coup' },
          { lastCheck: { [c.id]: { ...plain(last), degrees: last.degrees + half } } },
        );
      return;
    case 'improve-roll':
      if (last) improveRoll(ctx, c, last, die);
      return;
    case 'edit-scene':
      return emit(ctx, 'scene-edited', { combatantId: c.id, die, advantage: half, note: cmd.note ?? null });
    case 'inspiration':
      return emit(ctx, 'inspired', { combatantId: c.id, die, note: cmd.note ?? null });
    case 'recover':
      return spendRecover(ctx, c, cmd, die);
    case 'stunt':
      if (last?.attack) stuntViaDestiny(ctx, c, last.attack, cmd);
      return;
  }
}

/** IMPROVE ROLL: "gain a bonus equal to the number rolled on a failed check or to boost a successful check". */
function improveRoll(ctx: ArCtx, c: C, last: LastCheck, die: number): void {
  const l = plain(last);
  const wasHit = l.success;
  l.total += die;
  ({ success: l.success, degrees: l.degrees } = degreesOf(l.total, l.dc, ctx.options.degreeStep));
  emit(
    ctx,
    'check-adjusted',
    { combatantId: c.id, rollId: l.id, total: l.total, success: l.success, degrees: l.degrees, by: 'improve-roll' },
    { lastCheck: { [c.id]: l } },
  );
  if (!wasHit && l.success && l.kind === 'attack' && l.attack && ctx.state.combatants[l.attack.targetId]) {
    // A missed attack that now hits deals its damage.
    emit(ctx, 'attack-resolved', {
      combatantId: c.id,
      targetId: l.attack.targetId,
      kind: l.attack.kind,
      hit: true,
      action: 'improve-roll',
    });
    dealDamage(ctx, c.id, l.attack.targetId, l.attack.kind, {});
  }
}

/** RECOVER: "immediately use the Recover action without taking an action, but it does still add Stress ... If unconscious ... must roll a 6". */
function spendRecover(ctx: ArCtx, c: C, cmd: Spend, die: number): void {
  if (isIncapacitated(ctx.state, c) && die < 6) {
    emit(ctx, 'destiny-wasted', { combatantId: c.id, die });
    if (cond(ctx.state, c.id, 'dying') && die === 1)
      patchData(ctx, 'death-save-failed', c.id, { deathSaveFailures: c.data.deathSaveFailures + 1 });
    return;
  }
  if (c.data.surgePending) {
    // "If you spend Destiny before the start of the turn following the Surge to remove the fatigue (preemptive Recover), the character suffers no adverse effects."
    patchData(ctx, 'surge-fatigue-averted', c.id, { surgePending: false, surgeDeferred: false }, { stress: 1 });
    patchData(ctx, 'stress', c.id, { stress: combatant(ctx.state, c.id).data.stress + 1 });
    return;
  }
  doRecover(ctx, c, cmd.choice);
}

/** STUNT: "immediately add a Stunt to a successful Attack". */
function stuntViaDestiny(ctx: ArCtx, c: C, a: NonNullable<LastCheck['attack']>, cmd: Spend): void {
  const t = combatant(ctx.state, a.targetId);
  const save = stuntSave(t, a.kind);
  const benefit = cmd.benefit ?? 'push';
  const r = opposed(
    ctx,
    { who: c.id, bonus: damageRank(ctx.state, c, a.kind), purpose: `destiny stunt (${benefit})` },
    { who: t.id, bonus: t.stats[save], purpose: `${save} vs stunt` },
    'stunt',
  );
  if (r.success) applyStunt(ctx, c.id, t.id, a.kind, { benefit, condition: cmd.condition }, r.degrees);
  else emit(ctx, 'stunt-failed', { combatantId: c.id, targetId: t.id, benefit });
}

export const destinyCommands = { spend };
