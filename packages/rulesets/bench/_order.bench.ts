import { apply, createEncounter, type EncounterState, type Ruleset } from '@fray/engine';
import { registry } from '@fray/rulesets';
const R = (registry as Record<string, Ruleset>).legends!;
const gm = { role: 'gm' } as const;
function must(s: EncounterState, c: Record<string, unknown>): EncounterState { const r = apply(R, s, { ...c, by: (c.by as object) ?? gm }); if (!r.ok) throw new Error(JSON.stringify(r.error)); return r.state; }
let s = createEncounter(R, { id: 'b', seed: 7 });
for (let i = 0; i < 12; i++) s = must(s, { type: 'combatant.add', combatant: { id: `c${i}`, name: `F${i}`, side: i < 6 ? 'heroes' : 'raiders', controller: i < 6 ? `p${i % 3}` : null, stats: { DEX: 10 + (i % 3), SPD: 9 + (i % 4), STR: 8 + (i % 5) } } });
s = must(s, { type: 'combat.start' });
// jsonb's order: shorter keys first, then bytewise
function jsonbOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(jsonbOrder);
  if (v && typeof v === 'object') { const o: Record<string, unknown> = {}; for (const k of Object.keys(v).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))) o[k] = jsonbOrder((v as Record<string, unknown>)[k]); return o; }
  return v;
}
const plain = JSON.parse(JSON.stringify(s)) as EncounterState;
const sorted = jsonbOrder(plain) as EncounterState;
function run(start: EncounterState, n: number): number {
  let st = start; const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const k = i % 4;
    const c = k < 3 ? { type: 'dice.roll', formula: '3d6', purpose: 'x', combatantId: `c${i % 6}`, by: { role: 'player', playerId: `p${i % 3}` } } : { type: 'turn.end', combatantId: st.clock.current, by: gm };
    const r = apply(R, st, c); if (r.ok) st = r.state;
  }
  const u = process.cpuUsage(t0); return Math.round(n / ((u.user + u.system) / 1e6));
}
for (let round = 0; round < 8; round++) console.log('engine order', run(plain, 50000), '/s   jsonb order', run(sorted, 50000), '/s');
