import { display } from './display.js';
import { adjustVital } from './vitals.js';
import { keepIf, keepKeys, withParts, type CatalogueEntry, type Ruleset } from '@fray/engine';
import { onReactionClosed } from './actions.js';
import { advance, endTurn, st, startCombat } from './clock.js';
import { commands } from './commands.js';
import { copyRs, sameRs, evolveOcv } from './evolve.js';
import { invariants } from './invariants.js';
import { legalActions } from './legal.js';
import { ID, initData, initialRs, optionDocs, optionsSchema, positionSchema, statDocs, statsSchema, type Data, type Options, type RS, type S, type Stats } from './model.js';
import { PROVOKES_LABEL, ROWS, TYPE_LABEL } from './table.js';

const signed = (n: number): string => (n >= 0 ? `+${n}` : `${n}`);
const catalogue: CatalogueEntry[] = ROWS.map((r) => ({
  id: r.id,
  label: r.label,
  kind: TYPE_LABEL[r.type],
  provokes: PROVOKES_LABEL[r.provokes],
  rule: `manoeuvre table: ${r.label} — ${TYPE_LABEL[r.type]}, attack of opportunity: ${PROVOKES_LABEL[r.provokes]}`,
  notes: r.ocv !== undefined || r.dcv !== undefined ? `OCV ${signed(r.ocv ?? 0)}, DCV ${signed(r.dcv ?? 0)}${r.halveDcv ? ', DCV halved' : ''}` : undefined,
}));

export const ocvPhases: Ruleset<RS, Options, Stats, Data> = {
  display,
  adjustVital: adjustVital as never,
  id: ID,
  name: 'OCV phases',
  summary:
    '3-second Phases, 4 a 12-second Turn, Post-Turn Recovery; Initiative from Combat Value; Surprise Phase; 3d6 + OCV vs 10 + DCV; hexes, reach, threatened hexes and attacks of opportunity; attack / move / full-phase / free actions, the 1-hex step; delay, ready and abort.',
  optionsSchema: optionsSchema as never,
  optionDocs,
  statsSchema: statsSchema as never,
  statDocs,
  positionSchema,
  space: { kind: 'hexes', terrain: 'rs.map' },
  initialState: () => initialRs(),
  initCombatant: (stats) => initData(stats),
  commands,
  catalogue,
  evolve: (draft, event, w) => evolveOcv(draft as S, event, w),
  // commands run on a copy-on-write working state (no draft proxies); evolve writes through `w`
  cow: true,
  // the top of rs, copied field by field (see Ruleset.copyRs)
  copyRs,
  sameRs,
  startCombat,
  endTurn,
  legalActions: (state, id) => legalActions(state as S, id),
  onReactionClosed,
  onCombatantAdded(ctx, id) {
    const s = st(ctx);
    if (s.status !== 'active') return;
    const c = s.combatants[id]!;
    ctx.emit({ type: 'ocv-phases.joined', combatantId: id, score: c.stats.combatValue + c.stats.lightningReflexes });
  },
  onCombatantRemoved(ctx, c) {
    const s = st(ctx);
    if (!s.rs.order.includes(c.id)) return;
    ctx.emit({ type: 'ocv-phases.left', combatantId: c.id });
    if (s.status === 'active' && s.clock.current === null && !s.reaction && s.rs.jobs.length === 0) advance(ctx);
  },
  effectExpiry(state, effect) {
    const d = effect.duration;
    if (!d) return null;
    const count = (state as S).rs.phaseCount;
    if (d.unit === 'phase' || d.unit === 'phases') return count + d.count;
    if (d.unit === 'turn' || d.unit === 'turns') return count + 4 * d.count;
    return null;
  },
  onRollOverridden(ctx, roll) {
    const a = st(ctx).rs.attacks.find((x) => x.rollId === roll.id);
    if (!a) return;
    const hit = roll.total >= a.need;
    ctx.emit({ type: 'ocv-phases.attack-reresolved', combatantId: a.attackerId, targetId: a.targetId, rollId: roll.id, total: roll.total, need: a.need, hit });
  },
  invariants: (state) => invariants(state as S),
  projectState(rs, viewer, state) {
    if (viewer.role === 'gm') return rs;
    const playerId = viewer.role === 'player' ? viewer.playerId : null;
    const hidden = new Set(Object.values(state.combatants).filter((c) => c.hidden && (playerId === null || c.controller !== playerId)).map((c) => c.id));
    if (hidden.size === 0) return rs;
    const keep = (id: string | null) => id === null || !hidden.has(id);
    return withParts(rs, {
      order: keepIf(rs.order, keep),
      scores: keepKeys(rs.scores, keep),
      unaware: keepIf(rs.unaware, keep),
      passed: keepIf(rs.passed, keep),
      spent: keepIf(rs.spent, keep),
      offered: keepIf(rs.offered, keep),
      jobs: keepIf(rs.jobs, (j) => keep(j.actor) && j.targetIds.every(keep)),
      intents: keepIf(rs.intents, (i) => keep(i.combatantId)),
      pauseFor: keep(rs.pauseFor) ? rs.pauseFor : null,
      attacks: keepIf(rs.attacks, (a) => keep(a.attackerId) && keep(a.targetId)),
    });
  },
};

export default ocvPhases;
export { ROWS as manoeuvreTable } from './table.js';
