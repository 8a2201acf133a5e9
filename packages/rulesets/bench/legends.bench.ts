/**
 * legends bench: a 12-combatant encounter (two sides of 6, two zones, groups, an engagement,
 * weapons, group defense), played by a simple driver that sends a realistic mix of legal commands
 * (movement rolls and rushes, stays, reactive movement, group defense declarations, free / minor /
 * major actions, double minors, bypasses, attacks, inventory, turn ends). The driver's commands
 * are recorded first; then validate+apply of that command stream is timed on its own.
 *
 * Prints commands/s (validate + apply), legalActions calls/s and the serialized state size.
 *
 *   NODE_ENV=production node --conditions=@fray/source --import tsx bench/legends.bench.ts
 *
 * (NODE_ENV=production selects the production build of mutative, the engine's draft library.)
 */
import { performance } from 'node:perf_hooks';
import { apply, createEncounter, legalActions, type EncounterState } from '@fray/engine';
import { legends as R, type LState, type Position } from '../src/legends/index.js';

const gm = { role: 'gm' } as const;
type Cmd = Record<string, unknown>;

function must(s: EncounterState, c: Cmd): EncounterState {
  const r = apply(R, s, { by: gm, ...c });
  if (!r.ok) throw new Error(`${String(c.type)}: ${r.error.rule}: ${r.error.message}`);
  return r.state;
}

function setup(seed: number): { initial: EncounterState; started: EncounterState; setupLog: Cmd[] } {
  const initial = createEncounter(R, { id: "bench", seed, options: { initialTurnOrderDecisions: true } }) as unknown as EncounterState;
  const log: Cmd[] = [
    { type: 'defineZone', zone: { id: 'courtyard', traits: { groupDefenseRatio: 2 }, features: [{ id: 'well', name: 'Well', description: '' }] } },
    { type: 'defineZone', zone: { id: 'walls', neighbors: ['courtyard'], traits: { movementDie: 20 } } },
    { type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'], tags: ['slowing'] } },
    { type: 'defineAction', action: { key: 'brace', name: 'Brace', kinds: ['minor'] } },
    { type: 'defineAction', action: { key: 'focus', name: 'Focus', kinds: ['free'], tags: ['purely-mental'] } },
  ];
  for (let i = 0; i < 12; i++) {
    const side = i < 6 ? 'heroes' : 'raiders';
    const ranged = i % 3 === 2;
    log.push({
      type: 'combatant.add',
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side,
        controller: side === 'heroes' ? `p${i}` : null,
        stats: { DEX: 4 + (i % 5), SPD: 5 + (i % 4), STR: 4 + (i % 6), competences: ['blade', 'bow'], encumbrance: i === 4 ? 1 : 0, sprintingFocus: i % 5 === 0 ? 1 : 0 },
        items: [
          ranged
            ? { id: `w${i}`, name: 'Bow', location: 'both-hands', props: { weapon: 'ranged', type: 'bow', twoHandedOnly: true } }
            : { id: `w${i}`, name: 'Blade', location: 'right-hand', props: { weapon: 'melee', type: 'blade', oneHanded: { STR: 3 } } },
          { id: `p${i}`, name: 'Potion', location: 'carried' },
        ],
        position: { zone: 'courtyard', area: i < 6 ? 'gate' : 'keep' },
      },
    });
  }
  log.push({ type: 'formGroup', combatantIds: ['c0', 'c1', 'c2'], groupId: 'h-front' });
  log.push({ type: 'formGroup', combatantIds: ['c3', 'c4', 'c5'], groupId: 'h-back' });
  log.push({ type: 'formGroup', combatantIds: ['c6', 'c7', 'c8'], groupId: 'r-front' });
  log.push({ type: 'formGroup', combatantIds: ['c9', 'c10', 'c11'], groupId: 'r-back' });
  log.push({ type: 'setSurprised', combatantId: 'c11', surprised: true });
  log.push({ type: 'combat.start' });
  let s: EncounterState = initial as EncounterState;
  for (const c of log) s = must(s, c);
  return { initial, started: s, setupLog: log };
}

/** candidate commands a simple table would send now, best first */
function candidates(st: EncounterState, n: number): Cmd[] {
  const s = st as unknown as LState;
  const w = s.reaction;
  if (w) {
    const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
    return n % 4 === 0 ? [{ type: 'react', combatantId: who, destination: { join: w.trigger.combatantId! } }, { type: 'reaction.pass', combatantId: who }] : [{ type: 'reaction.pass', combatantId: who }];
  }
  const phase = s.clock.phase;
  if (phase === 'turn-order' || phase === 'reorder') {
    const id = s.rs.queue[0]!;
    return [{ type: 'changeTurnOrder', combatantId: id, index: s.clock.order.length - 1 }, { type: 'changeTurnOrder', combatantId: id }];
  }
  if (phase === 'group-defense') {
    const g = s.rs.queue[0]!;
    const members = Object.values(s.combatants).filter((c) => (c.position as Position | null)?.group === g);
    const last = members[members.length - 1]!;
    return [
      { type: 'declareGroupDefense', combatantId: members[0]!.id, protected: n % 2 ? [last.id] : [] },
      { type: 'declareGroupDefense', combatantId: members[0]!.id, protected: [] },
    ];
  }
  if (phase === 'movement') {
    const pending = s.rs.pending.find((p) => !p.finished);
    if (pending) return [{ type: 'finishMove', combatantId: pending.combatantId, rush: n % 5 === 0 ? 'self' : 'none' }, { type: 'finishMove', combatantId: pending.combatantId }];
    const id = s.rs.queue[0]!;
    const me = s.combatants[id]!;
    const enemies = Object.values(s.combatants).filter((c) => c.side !== me.side).map((c) => c.id);
    const target = enemies[n % enemies.length]!;
    const later = s.clock.order.slice(s.clock.order.indexOf(id) + 1).find((x) => s.rs.queue.includes(x));
    const out: Cmd[] = [];
    if (n % 7 === 0 && later) out.push({ type: 'prepareReaction', combatantId: id, watch: later, anticipate: 'follow' });
    if (n % 3 !== 0) out.push({ type: 'move', combatantId: id, destination: { join: target, mode: 'engage' } });
    if (n % 11 === 0) out.push({ type: 'move', combatantId: id, destination: { zone: 'courtyard', area: 'well' } });
    out.push({ type: 'stay', combatantId: id });
    return out;
  }
  // action phase
  const id = s.clock.current!;
  const me = s.combatants[id]!;
  const t = me.data.turn;
  const enemies = Object.values(s.combatants).filter((c) => c.side !== me.side).map((c) => c.id);
  const target = enemies[n % enemies.length]!;
  const out: Cmd[] = [];
  const act = (action: string, extra: Cmd = {}) => ({ type: 'act', combatantId: id, action, ...extra });
  if (t.seq.length === 0) out.push(act('speak'), act('focus'));
  if (t.free.length < 2) out.push(act('focus'), act('shout'));
  if (t.minors.length === 0) out.push(n % 4 === 0 ? act('bypass') : act('aim'), act('brace'));
  if (t.minors.length === 1 && n % 3 === 0) out.push(act('brace'), act('aim')); // double minor
  for (const e of [target, ...enemies]) {
    out.push(act('melee-attack', { targetId: e, weaponId: `w${id.slice(1)}` }));
    out.push(act('ranged-attack', { targetId: e, weaponId: `w${id.slice(1)}` }));
  }
  out.push(act('inventory', { as: 'major', ops: [{ op: 'draw', itemId: `p${id.slice(1)}` }] }));
  out.push({ type: 'turn.end', combatantId: id });
  return out;
}

function record(count: number, seed: number) {
  const { initial, started, setupLog } = setup(seed);
  let s = started;
  const cmds: Cmd[] = [];
  let maxBytes = 0;
  let n = 0;
  while (cmds.length < count) {
    let done = false;
    for (const c of candidates(s, n++)) {
      const full = { by: gm, ...c };
      const r = apply(R, s, full);
      if (r.ok) {
        s = r.state;
        cmds.push(full);
        done = true;
        break;
      }
    }
    if (!done) {
      const full = { by: gm, type: 'advancePhase' };
      s = must(s, full);
      cmds.push(full);
    }
    if (cmds.length % 500 === 0) {
      maxBytes = Math.max(maxBytes, JSON.stringify(s).length);
      if (process.env.BENCH_DEBUG) {
        const sizes = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, JSON.stringify(v).length]));
        const rs = Object.fromEntries(Object.entries(s.rs as object).map(([k, v]) => [k, JSON.stringify(v).length]));
        process.stdout.write(`${cmds.length} ${JSON.stringify(sizes)} ${JSON.stringify(rs)}\n`);
        const c0 = Object.values(s.combatants).sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length)[0]!;
        process.stdout.write(`${JSON.stringify(c0).slice(0, 1500)}\n`);
      }
    }
  }
  return { initial, started, setupLog, cmds, final: s, maxBytes };
}

const COUNT = Number(process.env.BENCH_COUNT ?? 20_000);
const { started, cmds, final, maxBytes } = record(COUNT, 7);
const mix: Record<string, number> = {};
for (const c of cmds) {
  const k = c.type === 'act' ? `act:${String(c.action)}` : String(c.type);
  mix[k] = (mix[k] ?? 0) + 1;
}

// warm up, then time validate + apply of the recorded stream
const runOnce = () => {
  let s = started;
  for (const c of cmds) {
    const r = apply(R, s, c);
    if (!r.ok) throw new Error(`diverged: ${r.error.message}`);
    s = r.state;
  }
  return s;
};
runOnce();
const rounds = 3;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let last: EncounterState = started;
for (let i = 0; i < rounds; i++) last = runOnce();
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;

// the engine's floor: the lightest core command (a logged dice roll) through the same apply
const floorCmd = { by: gm, type: 'dice.roll', formula: '1d12', purpose: 'bench' };
const floorN = 20_000;
const f0 = process.cpuUsage();
for (let i = 0; i < floorN; i++) apply(R, started, floorCmd);
const f = process.cpuUsage(f0);
const floorUs = (f.user + f.system) / floorN;
if (JSON.stringify(last) !== JSON.stringify(final)) throw new Error('replay is not deterministic');

// legalActions throughput on the final state
const ids = Object.keys(final.combatants);
const l0 = performance.now();
let calls = 0;
for (let i = 0; i < 2000; i++) {
  legalActions(R, final, ids[i % ids.length]!);
  calls++;
}
const lms = performance.now() - l0;

const perSec = Math.round((cmds.length * rounds) / (ms / 1000));
const perCpuSec = Math.round((cmds.length * rounds) / (cpuMs / 1000));
const bytes = JSON.stringify(final).length;
const report = {
  ruleset: 'legends',
  combatants: ids.length,
  commands: cmds.length,
  roundsPlayed: (final as unknown as LState).clock.round,
  commandsPerSecond: perSec,
  commandsPerCpuSecond: perCpuSec,
  microsecondsPerCommand: Number(((ms * 1000) / (cmds.length * rounds)).toFixed(2)),
  engineFloorMicrosecondsPerCommand: Number(floorUs.toFixed(2)),
  engineFloorCommandsPerCpuSecond: Math.round(1e6 / floorUs),
  legalActionsPerSecond: Math.round(calls / (lms / 1000)),
  stateBytes: bytes,
  maxStateBytesSeen: Math.max(maxBytes, bytes),
  targets: { commandsPerSecond: 100_000, stateBytes: 64 * 1024 },
  meetsThroughput: perCpuSec >= 100_000,
  meetsSize: Math.max(maxBytes, bytes) <= 64 * 1024,
  mix: Object.fromEntries(Object.entries(mix).sort((a, b) => b[1] - a[1])),
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
