/**
 * action-round benchmark: validate+apply commands/s on a 12-combatant encounter, legalActions
 * calls/s and the serialized state size.
 * Run: cd packages/rulesets && node --conditions=@fray/source --import tsx bench/action-round.bench.ts
 */
import { apply, createEncounter, legalActions } from '@fray/engine';
import { actionRound } from '../src/action-round/index.js';
import type { State } from '../src/action-round/state.js';

const gm = { role: 'gm' } as const;

function must(s: State, cmd: unknown): State {
  const r = apply(actionRound as never, s as never, cmd);
  if (!r.ok) throw new Error(`${r.error.code} ${r.error.message} ${JSON.stringify(cmd)}`);
  return r.state as unknown as State;
}
function tryApply(s: State, cmd: unknown): State | null {
  const r = apply(actionRound as never, s as never, cmd);
  return r.ok ? (r.state as unknown as State) : null;
}

function encounter(): { initial: State; setup: unknown[] } {
  const initial = createEncounter(actionRound, { id: 'bench', seed: 42 }) as unknown as State;
  const setup: unknown[] = [];
  for (let i = 0; i < 12; i++) {
    const side = i < 6 ? 'heroes' : 'foes';
    setup.push({
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `C${i}`,
        side,
        position: { x: (i % 6) * 2, y: i < 6 ? 0 : 5 },
        stats: { naturalWeapons: true, initiative: i % 5, toughness: 4, defense: 2, attack: { close: 3 }, damage: { close: 2 }, range: 10, skills: { athletics: 2 } },
        items: [{ id: `w${i}`, name: 'Blade', location: 'carried', tags: ['weapon'] }],
      },
    });
  }
  setup.push({ type: 'combat.start', by: gm });
  return { initial, setup };
}

/** Play a fight by a simple policy, recording the command log. */
function record(turns: number): { initial: State; log: unknown[]; mid: State } {
  const { initial, setup } = encounter();
  let s = initial;
  const log: unknown[] = [];
  const go = (cmd: unknown): boolean => {
    const n = tryApply(s, cmd);
    if (!n) return false;
    s = n;
    log.push(cmd);
    return true;
  };
  setup.forEach((c) => (s = must(s, c), log.push(c)));
  let mid = s;
  for (let t = 0; t < turns && s.status === 'active'; t++) {
    if (t === Math.floor(turns / 2)) mid = s;
    const drain = () => {
      while (s.reaction) {
        const w = s.reaction;
        const id = w.eligible.find((x) => w.responses[x] === 'pending')!;
        if (!go({ type: 'opportunity-attack', by: gm, combatantId: id })) go({ type: 'reaction.pass', by: gm, combatantId: id });
      }
    };
    const me = s.clock.current!;
    const c = s.combatants[me]!;
    const p = c.position as { x: number; y: number };
    const foes = Object.values(s.combatants).filter((x) => x.side !== c.side);
    const near = foes.find((f) => {
      const q = f.position as { x: number; y: number };
      return Math.max(Math.abs(q.x - p.x), Math.abs(q.y - p.y)) <= 1;
    });
    go({ type: 'talk', by: gm, combatantId: me, text: 'Have at you!' });
    if (near) {
      go({ type: 'attack', by: gm, combatantId: me, kind: 'close', targetId: near.id });
      drain();
    } else {
      const f = foes[t % foes.length]!;
      const q = f.position as { x: number; y: number };
      const step = { x: p.x + Math.sign(q.x - p.x), y: p.y + Math.sign(q.y - p.y) };
      go({ type: 'move', by: gm, combatantId: me, mode: 'walk', path: [step] });
      drain();
      const r = foes.find((x) => x.id !== f.id);
      if (r) go({ type: 'attack', by: gm, combatantId: me, kind: 'ranged', targetId: r.id });
      drain();
      go({ type: 'defend', by: gm, combatantId: me });
    }
    go({ type: 'draw', by: gm, combatantId: me, itemId: `w${me.slice(1)}` });
    drain();
    if (!go({ type: 'turn.end', by: gm, combatantId: me })) break;
  }
  return { initial, log, mid };
}

const { initial, log, mid } = record(240);
// validate + apply: replay the log from the start, several times
const reps = 5;
let t0 = performance.now();
let final: State = initial;
for (let r = 0; r < reps; r++) {
  let s = initial;
  for (const c of log) s = must(s, c);
  final = s;
}
let ms = performance.now() - t0;
const cmdsPerSec = (log.length * reps) / (ms / 1000);

// legalActions on a mid-fight state, for every combatant
const ids = Object.keys(mid.combatants);
const calls = 4000;
t0 = performance.now();
let options = 0;
for (let i = 0; i < calls; i++) options += legalActions(actionRound as never, mid as never, ids[i % ids.length]!).length;
ms = performance.now() - t0;
const legalPerSec = calls / (ms / 1000);

const bytes = Buffer.byteLength(JSON.stringify(final));
const midBytes = Buffer.byteLength(JSON.stringify(mid));
console.log(`action-round bench (12 combatants)`);
console.log(`  commands in log:        ${log.length} (round ${final.clock.round} reached)`);
console.log(`  validate+apply:         ${cmdsPerSec.toFixed(0)} commands/s`);
console.log(`  legalActions:           ${legalPerSec.toFixed(0)} calls/s (${(options / calls).toFixed(0)} options each)`);
console.log(`  serialized state:       ${midBytes} bytes mid-fight, ${bytes} bytes at the end`);
