import { ensure, expireEffects } from '@fray/engine';
import { checkCurrent } from '../checks/index.js';
import { emit } from '../events.js';
import { incapable, opts, phaseKey, phaseOrder, REGULAR, st, touched, type C, type PhaseName, type S } from '../state/index.js';

/**
 * "each character has an Initiative score equal to their Combat Value (plus their Lightning
 * Reflexes modifier if they have one). If two or more characters have the same Initiative score,
 * the characters who are tied randomly determine which one of them goes before the other."
 */
function rollInitiative(ctx: C): void {
  const s = st(ctx);
  const ids = Object.keys(s.combatants);
  const scores: Record<string, number> = {};
  for (const id of ids) {
    const c = s.combatants[id]!.stats;
    scores[id] = c.combatValue + c.lightningReflexes;
  }
  const groups = new Map<number, string[]>();
  for (const id of ids) groups.set(scores[id]!, [...(groups.get(scores[id]!) ?? []), id]);
  const tie: Record<string, number[]> = {};
  for (const group of groups.values()) {
    let open = group.length > 1 ? [group] : [];
    for (let guard = 0; open.length > 0 && guard < 20; guard++) {
      const still: string[][] = [];
      for (const g of open) {
        const got = new Map<number, string[]>();
        for (const id of g) {
          const r = ctx.roll(opts(s).tieBreakDie, `initiative tie-break (score ${scores[id]})`, { combatantId: id }).total;
          (tie[id] ??= []).push(r);
          got.set(r, [...(got.get(r) ?? []), id]);
        }
        for (const sub of got.values()) if (sub.length > 1) still.push(sub);
      }
      open = still;
    }
  }
  const cmpTie = (a: string, b: string): number => {
    const ta = tie[a] ?? [];
    const tb = tie[b] ?? [];
    for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
      const d = (tb[i] ?? 0) - (ta[i] ?? 0);
      if (d) return d;
    }
    return ids.indexOf(a) - ids.indexOf(b);
  };
  // "Characters act in order, counting down from highest result to lowest."
  const order = [...ids].sort((a, b) => scores[b]! - scores[a]! || cmpTie(a, b));
  emit(ctx, { type: 'ocv-phases.initiative', scores, order, tieBreaks: tie });
}

export function startCombat(ctx: C): void {
  const s = st(ctx);
  rollInitiative(ctx);
  // "If some but not all of the characters are aware of their opponents, a Surprise Phase happens"
  const n = Object.keys(s.combatants).length;
  const unaware = s.rs.unaware.filter((id) => s.combatants[id]).length;
  const surprise = unaware > 0 && unaware < n;
  startPhase(ctx, 1, surprise ? 'surprise' : 'phase-1');
  advance(ctx);
}

function startPhase(ctx: C, turn: number, phase: PhaseName): void {
  emit(ctx, { type: 'ocv-phases.phase-started', turn, phase, seconds: phase === 'post-turn' ? 0 : 3 });
  const count = st(ctx).rs.phaseCount;
  expireEffects(ctx, (e) => typeof e.expires === 'number' && e.expires <= count);
}

/** "After every Phase 4, before the next Turn begins, there is a 'Post-Turn' period ... characters automatically get to Take a Recovery." */
function postTurn(ctx: C): void {
  const s = st(ctx);
  const turn = s.rs.turn;
  startPhase(ctx, turn, 'post-turn');
  if (opts(s).postTurnRecovery === 'recovery') {
    for (const id of s.rs.order) {
      if (!canRecover(s, id)) continue;
      takeRecovery(ctx, id, 'post-turn');
    }
  }
  startPhase(ctx, turn + 1, 'phase-1');
}

function canRecover(s: S, id: string): boolean {
  const c = s.combatants[id];
  if (!c || !c.stats.recovers) return false;
  const no = opts(s).noRecoveryConditions;
  return !s.effects.some((e) => e.targetId === id && e.condition && no.includes(e.condition));
}

/** A Recovery: current STUN and END rise by REC, up to their maximum. */
export function takeRecovery(ctx: C, id: string, reason: string): void {
  const c = st(ctx).combatants[id]!;
  const rec = c.stats.recovery;
  ctx.emit({
    type: 'ocv-phases.recovered',
    combatantId: id,
    reason,
    stun: Math.min(c.stats.stun, c.data.stun + rec),
    endurance: Math.min(c.stats.endurance, c.data.endurance + rec),
  });
}

function nextPhase(ctx: C): void {
  const rs = st(ctx).rs;
  if (rs.phase === 'surprise') return startPhase(ctx, rs.turn, 'phase-1');
  const i = rs.phase ? REGULAR.indexOf(rs.phase) : -1;
  if (i >= 0 && i < 3) return startPhase(ctx, rs.turn, REGULAR[i + 1]!);
  postTurn(ctx);
}

/**
 * Move the clock to the next character's action: "In every phase that follows, the characters
 * act in the same order". Skips characters whose action this Phase is already spent (aborted or
 * taken early by a delayed/readied action) or who cannot act ("you retain your Initiative score").
 */
export function advance(ctx: C): void {
  let phases = 0;
  for (let guard = 0; guard < 2000; guard++) {
    const s = st(ctx);
    if (s.status !== 'active' || s.reaction) return;
    const rs = s.rs;
    const order = phaseOrder(s);
    const next = order.find((id) => !rs.passed.includes(id));
    if (next !== undefined) {
      // "specify your new place in the sequence (for example, 'immediately before Captain Comet's action')"
      const holder = rs.order.find((id) => {
        const h = s.combatants[id]?.data.hold;
        return h?.kind === 'delay' && h.before === next && !incapable(s, id) && !(rs.phase === 'surprise' && rs.unaware.includes(id));
      });
      if (holder) {
        emit(ctx, { type: 'ocv-phases.hold-taken', combatantId: holder, kind: 'delay', before: next });
        return;
      }
      const d = s.combatants[next]!.data;
      if (rs.spent.includes(next)) emit(ctx, { type: 'ocv-phases.slot', combatantId: next, outcome: 'spent' });
      else if (d.skipNext) emit(ctx, { type: 'ocv-phases.slot', combatantId: next, outcome: 'aborted' });
      else if (incapable(s, next)) emit(ctx, { type: 'ocv-phases.slot', combatantId: next, outcome: 'incapable' });
      else {
        if (d.hold) emit(ctx, { type: 'ocv-phases.hold-expired', combatantId: next, reason: 'came to the next action' });
        emit(ctx, { type: 'ocv-phases.slot', combatantId: next, outcome: 'acts' });
        return;
      }
      continue;
    }
    // End of the Phase: characters who delayed this Phase may still act now (or keep waiting).
    const key = phaseKey(rs);
    const late = order.find((id) => {
      const h = s.combatants[id]?.data.hold;
      return h?.kind === 'delay' && h.key === key && !rs.offered.includes(id) && !incapable(s, id);
    });
    if (late) {
      emit(ctx, { type: 'ocv-phases.offered', combatantId: late });
      return;
    }
    if (++phases > 6) {
      emit(ctx, { type: 'ocv-phases.stalled', reason: 'nobody can act' });
      return;
    }
    nextPhase(ctx);
  }
}

/** The acting character (or the GM for it) ends its action. */
export function endTurn(ctx: C, id: string): void {
  const s = st(ctx);
  ensure(checkCurrent(s, id));
  const c = s.combatants[id]!;
  const h = c.data.hold;
  // an offered late delay not taken: it keeps waiting into the next Phase
  emit(ctx, { type: 'ocv-phases.action-ended', combatantId: id, holding: h ? h.kind : null, acted: touched(c.data) });
  emit(ctx, { type: 'ocv-phases.current', combatantId: null });
  advance(ctx);
}
