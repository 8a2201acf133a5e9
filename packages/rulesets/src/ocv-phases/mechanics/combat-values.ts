import { hexLine, type Hex } from '@fray/engine';
import { ROW, type Row } from '../catalogue.js';
import type { Mod } from '../options.js';
import { conditions, hexKey, hexOf, opts, unawareNow, type ManoeuvreUse, type S } from '../state/index.js';

/** The OCV/DCV modifiers of a manoeuvre: the table's values unless the `manoeuvreModifiers` option overrides them. */
function modOf(s: S, row: Row): Mod {
  const o = opts(s).manoeuvreModifiers[row.id];
  return o ?? { ocv: row.ocv ?? 0, dcv: row.dcv ?? 0, halveDcv: row.halveDcv ?? false, zeroDcv: false };
}

export function useOf(s: S, rowId: string): ManoeuvreUse {
  const row = ROW[rowId]!;
  const m = modOf(s, row);
  const u: ManoeuvreUse = { id: row.id, ocv: m.ocv, dcv: m.dcv };
  if (m.halveDcv) u.halveDcv = true;
  return u;
}

/** "use the worst OCV and DCV bonus, while all OCV and DCV penalties stack" */
export function combine(values: number[]): number {
  if (values.length === 0) return 0;
  let bonus = Infinity;
  let penalty = 0;
  for (const v of values) {
    bonus = Math.min(bonus, Math.max(0, v));
    if (v < 0) penalty += v;
  }
  return bonus + penalty;
}

export function baseOcv(s: S, id: string): number {
  const st = s.combatants[id]!.stats;
  return (st.ocv ?? st.combatValue) + st.combatLevels;
}

export function effectiveDcv(s: S, id: string): { dcv: number; parts: string[] } {
  const c = s.combatants[id]!;
  const o = opts(s);
  const parts: string[] = [];
  let dcv = c.stats.dcv ?? c.stats.combatValue;
  const uses = c.data.manoeuvres;
  const m = combine(uses.map((u) => u.dcv));
  if (m) parts.push(`manoeuvres ${m >= 0 ? '+' : ''}${m}`);
  dcv += m;
  let halve = uses.some((u) => u.halveDcv) || c.data.braced;
  let zero = false;
  for (const cond of conditions(s, id)) {
    const cm = o.conditionModifiers[cond];
    if (!cm) continue;
    if (cm.dcv) {
      dcv += cm.dcv;
      parts.push(`${cond} ${cm.dcv}`);
    }
    if (cm.halveDcv) {
      halve = true;
      parts.push(`${cond} halves`);
    }
    if (cm.zeroDcv) zero = true;
  }
  if (unawareNow(s, id)) {
    dcv -= o.surpriseDcvPenalty;
    parts.push(`unaware in the Surprise Phase -${o.surpriseDcvPenalty}`);
  }
  if (halve) dcv = Math.ceil(dcv / 2);
  if (zero) {
    dcv = 0;
    parts.push('DCV 0');
  }
  return { dcv: Math.max(0, dcv), parts };
}

export function conditionOcv(s: S, id: string): number {
  let v = 0;
  for (const cond of conditions(s, id)) v += opts(s).conditionModifiers[cond]?.ocv ?? 0;
  return v;
}

export function lineOfSight(s: S, from: Hex, to: Hex): boolean {
  const line = hexLine(from, to);
  const blocking = s.rs.map.blocking;
  const occupied = opts(s).combatantsBlockSight
    ? new Set(
        Object.values(s.combatants).map((c) => {
          const p = hexOf(c);
          return p ? hexKey(p) : '';
        }),
      )
    : null;
  for (let i = 1; i < line.length - 1; i++) {
    const k = hexKey(line[i]!);
    if (blocking.includes(k) || occupied?.has(k)) return false;
  }
  return true;
}

function halfMove(s: S, id: string): number {
  const m = s.combatants[id]!.stats.move;
  return opts(s).halfMoveRounding === 'up' ? Math.ceil(m / 2) : Math.floor(m / 2);
}

/** the character has started its action (anything spent this Phase) */

export function moveAllowance(s: S, id: string, row: string): number {
  const st = s.combatants[id]!.stats;
  switch (row) {
    case 'move-half':
      return halfMove(s, id);
    case 'crawl':
      return 1;
    case 'move-noncombat':
      return st.noncombatMove ?? st.move * 2;
    case 'withdraw':
      return opts(s).withdrawDistance === 'half' ? halfMove(s, id) : st.move;
    default:
      return st.move;
  }
}
