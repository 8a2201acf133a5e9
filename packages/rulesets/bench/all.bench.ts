/**
 * Engine figures for every ruleset, in one table.
 *
 * For each ruleset a simple driver plays a 12-combatant encounter and records the legal command
 * stream (at least 10,000 commands after `combat.start`). Then, on that stream:
 *   - validate+apply: the stream is applied again and again through `apply` (commands/s, wall
 *     clock and per CPU-second: the machine is shared, so CPU time is the steadier figure), after
 *     WARM_PASSES unmeasured passes over it (the steady state of a long-running server: see
 *     WARM_PASSES);
 *   - legalActions: calls/s over states sampled along the stream, every combatant (after
 *     LEGAL_WARM_PASSES unmeasured passes);
 *   - replay: `replay(started, first 10,000 commands)` in ms (wall and CPU);
 *   - state: serialized (JSON) bytes of the final state and the largest sampled one;
 *   - floor: CPU µs of the lightest command (a logged `dice.roll`) through `apply` on the started
 *     state: what the engine costs before any ruleset logic.
 *
 * `npm run bench` bundles this file with esbuild (the same transpilation the built packages get)
 * and runs the bundle under NODE_ENV=production, so mutative, zod and pure-rand resolve to their
 * production builds, as on the server. BENCH_ONLY=legends,ocv-phases picks rulesets;
 * BENCH_JSON=1 prints the rows as JSON too.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  apply,
  createEncounter,
  hexDistance,
  hexNeighbors,
  legalActions,
  replay,
  type EncounterState,
  type Hex,
  type Ruleset,
} from '@fray/engine';
import { actionPoints } from '../src/action-points/index.js';
import { actionRound } from '../src/action-round/index.js';
import { legends, type LState, type Position } from '../src/legends/index.js';
import { ocvPhases } from '../src/ocv-phases/index.js';

const gm = { role: 'gm' } as const;
type Cmd = Record<string, unknown>;
type St = EncounterState;
const REPLAY_N = 10_000;
/**
 * Unmeasured passes over the recorded stream before `apply` is timed. V8 keeps optimizing the
 * rulesets' large functions for several passes, and re-optimizes them after a deopt on a shape
 * first met late in the stream (an empty list that later holds strings, say); a TurboFan compile
 * of legends' `evolve` takes 60-160 ms on a background thread, and that CPU counts in the
 * per-CPU-second figure. Measured on legends (12,000 commands a pass): passes 2-8 spent 10-250 ms
 * each on V8's other threads and 220-290 ms on the main one; from pass 9 on, ~0 and ~130 ms.
 * A server plays for hours on the settled code, so the figure is taken there
 * (docs/journal/performance-2026-11.md, "Session 15"). BENCH_WARM_PASSES overrides it (1: the old first window).
 */
const WARM_PASSES = Number(process.env.BENCH_WARM_PASSES ?? 10);
/** the same for legalActions: unmeasured passes over the sampled states and combatants (none with BENCH_WARM_PASSES=1, as before) */
const LEGAL_WARM_PASSES = Number(process.env.BENCH_WARM_PASSES ?? 10) > 1 ? 3 : 0;

// BENCH_DIGEST=1: a hash of every apply result while recording (states, events, errors) and of
// legalActions on the sampled states, printed per ruleset: equal digests before and after a change
// mean the same behaviour on the whole stream.
const digest = process.env.BENCH_DIGEST ? createHash('sha256') : null;
// BENCH_CHECK=1: while recording, a ruleset on the copy-on-write path (`cow`) is also run on the
// mutative draft path (the same ruleset with cow: false), on deep-frozen input states: the results
// must be byte-identical and the input never written (a write to a frozen state throws).
const check = Boolean(process.env.BENCH_CHECK);
const freeze = <T>(v: T, seen = new Set<object>()): T => {
  if (typeof v !== 'object' || v === null || seen.has(v)) return v;
  seen.add(v);
  for (const k of Object.keys(v)) freeze((v as Record<string, unknown>)[k], seen);
  return Object.freeze(v);
};
function recApply(R: Ruleset, s: St, c: Cmd): ReturnType<typeof apply> {
  if (check && R.cow) {
    freeze(s);
    const viaDraft = JSON.stringify(apply({ ...R, cow: false }, s, c));
    const viaCow = apply(R, s, c);
    if (JSON.stringify(viaCow) !== viaDraft)
      throw new Error(`${R.id}: the copy-on-write path differs from the draft path on ${JSON.stringify(c)}`);
  }
  const r = apply(R, s, c);
  if (digest) {
    if (!r.ok) digest.update(JSON.stringify(r));
    else {
      digest.update(JSON.stringify(r.state));
      for (const ev of r.events) digest.update(eventText(ev));
    }
    if (process.env.BENCH_DIGEST_LOG) {
      const line = r.ok
        ? `${createHash('sha1').update(JSON.stringify(r.state)).digest('hex')} ${r.events.map(eventText).join(' ')}`
        : JSON.stringify(r);
      appendFileSync(process.env.BENCH_DIGEST_LOG, `${line}\n`);
    }
  }
  return r;
}
/** An event as text; a field that cannot be serialized (a revoked draft) is written as "<revoked>". */
function eventText(ev: Record<string, unknown>): string {
  try {
    return JSON.stringify(ev);
  } catch {
    return JSON.stringify(
      Object.fromEntries(
        Object.keys(ev).map((k) => {
          try {
            return [k, JSON.parse(JSON.stringify(ev[k]) ?? 'null') as unknown];
          } catch {
            return [k, '<revoked>'];
          }
        }),
      ),
    );
  }
}

function must(R: Ruleset, s: St, c: Cmd): St {
  const r = recApply(R, s, c);
  if (!r.ok) throw new Error(`${String(c.type)}: ${r.error.rule}: ${r.error.message}`);
  return r.state;
}

interface Recorded {
  started: St;
  log: Cmd[];
}

/** Play by a candidates function: the first legal candidate is sent; `fallback` when none is. */
function play(R: Ruleset, started: St, count: number, candidates: (s: St, n: number) => Cmd[], fallback: (s: St) => Cmd): Recorded {
  let s = started;
  const log: Cmd[] = [];
  let n = 0;
  while (log.length < count) {
    let done = false;
    for (const c of candidates(s, n++)) {
      const r = recApply(R, s, c);
      if (r.ok) {
        s = r.state;
        log.push(c);
        done = true;
        break;
      }
    }
    if (!done) {
      const c = fallback(s);
      s = must(R, s, c);
      log.push(c);
    }
    if (s.status !== 'active') throw new Error(`${R.id}: the fight ended after ${log.length} commands`);
  }
  return { started, log };
}

// ---------------------------------------------------------------- legends
function legendsRecord(count: number): Recorded {
  const R = legends as Ruleset;
  let s = createEncounter(R, { id: 'bench', seed: 7, options: { initialTurnOrderDecisions: true } });
  const setup: Cmd[] = [
    {
      type: 'defineZone',
      zone: { id: 'courtyard', traits: { groupDefenseRatio: 2 }, features: [{ id: 'well', name: 'Well', description: '' }] },
    },
    { type: 'defineZone', zone: { id: 'walls', neighbors: ['courtyard'], traits: { movementDie: 20 } } },
    { type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'], tags: ['slowing'] } },
    { type: 'defineAction', action: { key: 'brace', name: 'Brace', kinds: ['minor'] } },
    { type: 'defineAction', action: { key: 'focus', name: 'Focus', kinds: ['free'], tags: ['purely-mental'] } },
  ];
  for (let i = 0; i < 12; i++) {
    const side = i < 6 ? 'heroes' : 'raiders';
    const ranged = i % 3 === 2;
    setup.push({
      type: 'combatant.add',
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side,
        controller: side === 'heroes' ? `p${i}` : null,
        stats: {
          DEX: 4 + (i % 5),
          SPD: 5 + (i % 4),
          STR: 4 + (i % 6),
          competences: ['blade', 'bow'],
          encumbrance: i === 4 ? 1 : 0,
          sprintingFocus: i % 5 === 0 ? 1 : 0,
          toughness: 1000,
        },
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
  setup.push({ type: 'formGroup', combatantIds: ['c0', 'c1', 'c2'], groupId: 'h-front' });
  setup.push({ type: 'formGroup', combatantIds: ['c3', 'c4', 'c5'], groupId: 'h-back' });
  setup.push({ type: 'formGroup', combatantIds: ['c6', 'c7', 'c8'], groupId: 'r-front' });
  setup.push({ type: 'formGroup', combatantIds: ['c9', 'c10', 'c11'], groupId: 'r-back' });
  setup.push({ type: 'setSurprised', combatantId: 'c11', surprised: true });
  setup.push({ type: 'combat.start' });
  for (const c of setup) s = must(R, s, { by: gm, ...c });

  const candidates = (st: St, n: number): Cmd[] => {
    const s = st as unknown as LState;
    const out: Cmd[] = [];
    const push = (c: Cmd) => out.push({ by: gm, ...c });
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      if (n % 4 === 0) push({ type: 'react', combatantId: who, destination: { join: w.trigger.combatantId! } });
      push({ type: 'reaction.pass', combatantId: who });
      return out;
    }
    // the GM confirms each attack's outcome as rolled, as a table does (toughness 1000: the fight runs its
    // length); unconfirmed attacks would pile up in the state and measure a table nobody plays
    const attack = s.rs.attacks[0];
    if (attack) return [{ by: gm, type: 'resolveAttack', attackId: attack.id }];
    const phase = s.clock.phase;
    if (phase === 'turn-order' || phase === 'reorder') {
      const id = s.rs.queue[0]!;
      push({ type: 'changeTurnOrder', combatantId: id, index: s.clock.order.length - 1 });
      push({ type: 'changeTurnOrder', combatantId: id });
      return out;
    }
    if (phase === 'group-defense') {
      const g = s.rs.queue[0]!;
      const members = Object.values(s.combatants).filter((c) => (c.position as Position | null)?.group === g);
      const last = members[members.length - 1]!;
      push({ type: 'declareGroupDefense', combatantId: members[0]!.id, protected: n % 2 ? [last.id] : [] });
      push({ type: 'declareGroupDefense', combatantId: members[0]!.id, protected: [] });
      return out;
    }
    if (phase === 'movement') {
      const pending = s.rs.pending.find((p) => !p.finished);
      if (pending) {
        push({ type: 'finishMove', combatantId: pending.combatantId, rush: n % 5 === 0 ? 'self' : 'none' });
        push({ type: 'finishMove', combatantId: pending.combatantId });
        return out;
      }
      const id = s.rs.queue[0]!;
      const me = s.combatants[id]!;
      const enemies = Object.values(s.combatants)
        .filter((c) => c.side !== me.side)
        .map((c) => c.id);
      const target = enemies[n % enemies.length]!;
      const later = s.clock.order.slice(s.clock.order.indexOf(id) + 1).find((x) => s.rs.queue.includes(x));
      if (n % 7 === 0 && later) push({ type: 'prepareReaction', combatantId: id, watch: later, anticipate: 'follow' });
      if (n % 3 !== 0) push({ type: 'move', combatantId: id, destination: { join: target, mode: 'engage' } });
      if (n % 11 === 0) push({ type: 'move', combatantId: id, destination: { zone: 'courtyard', area: 'well' } });
      push({ type: 'stay', combatantId: id });
      return out;
    }
    const id = s.clock.current!;
    const me = s.combatants[id]!;
    const t = me.data.turn;
    const enemies = Object.values(s.combatants)
      .filter((c) => c.side !== me.side)
      .map((c) => c.id);
    const target = enemies[n % enemies.length]!;
    const act = (action: string, extra: Cmd = {}) => push({ type: 'act', combatantId: id, action, ...extra });
    if (t.seq.length === 0) {
      act('speak');
      act('focus');
    }
    if (t.free.length < 2) {
      act('focus');
      act('shout');
    }
    if (t.minors.length === 0) {
      act(n % 4 === 0 ? 'bypass' : 'aim');
      act('brace');
    }
    if (t.minors.length === 1 && n % 3 === 0) {
      act('brace');
      act('aim');
    }
    for (const e of [target, ...enemies]) {
      act('melee-attack', { targetId: e, weaponId: `w${id.slice(1)}` });
      act('ranged-attack', { targetId: e, weaponId: `w${id.slice(1)}` });
    }
    act('inventory', { as: 'major', ops: [{ op: 'draw', itemId: `p${id.slice(1)}` }] });
    push({ type: 'turn.end', combatantId: id });
    return out;
  };
  return play(R, s, count, candidates, () => ({ by: gm, type: 'advancePhase' }));
}

// ---------------------------------------------------------------- ocv-phases
function ocvRecord(count: number): Recorded {
  const R = ocvPhases as Ruleset;
  let s = createEncounter(R, { id: 'bench', seed: 7 });
  for (let i = 0; i < 12; i++) {
    s = must(R, s, {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side: i % 2 ? 'villains' : 'heroes',
        stats: {
          combatValue: 4 + (i % 5),
          lightningReflexes: i % 3,
          move: 4 + (i % 4),
          recovery: 4,
          stun: 30,
          endurance: 30,
          combatReflexes: i === 3,
        },
        position: { q: (i % 4) * 2 - 3, r: Math.floor(i / 4) * 2 - 2 + (i % 2) },
      },
    });
  }
  s = must(R, s, { type: 'setMap', by: gm, blocking: [{ q: 0, r: 0 }], difficult: [{ q: 1, r: 1 }] });
  s = must(R, s, { type: 'setAwareness', by: gm, combatantId: 'c5', aware: false });
  s = must(R, s, { type: 'combat.start', by: gm });

  const candidates = (s: St, turn: number): Cmd[] => {
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      const pass = { type: 'reaction.pass', by: gm, combatantId: who };
      return w.kind === 'ocv-phases.attack-of-opportunity' && turn % 2 === 0
        ? [{ type: 'opportunityAttack', by: gm, combatantId: who, manoeuvre: 'strike' }, pass]
        : [pass];
    }
    const id = s.clock.current!;
    const me = s.combatants[id]!;
    const cap = s.clock.phase === 'surprise' ? 1 : 2;
    const d = me.data as { slots: number; attacks: number };
    const p = me.position as Hex;
    const enemies = Object.values(s.combatants).filter((c) => c.side !== me.side && c.position);
    const near = enemies.filter((e) => hexDistance(p, e.position as Hex) === 1);
    const out: Cmd[] = [];
    if (near.length && d.attacks === 0 && d.slots < cap)
      out.push({
        type: 'attack',
        by: gm,
        combatantId: id,
        manoeuvre: turn % 5 === 0 ? 'haymaker' : 'strike',
        targetId: near[turn % near.length]!.id,
      });
    if (d.slots === 0 && enemies.length) {
      const goal = enemies.reduce((a, b) => (hexDistance(p, a.position as Hex) <= hexDistance(p, b.position as Hex) ? a : b))
        .position as Hex;
      const occupied = new Set(Object.values(s.combatants).map((c) => `${(c.position as Hex).q},${(c.position as Hex).r}`));
      const step = hexNeighbors(p)
        .filter((h) => !occupied.has(`${h.q},${h.r}`) && !(h.q === 0 && h.r === 0))
        .sort((a, b) => hexDistance(a, goal) - hexDistance(b, goal))[0];
      if (step && hexDistance(step, goal) < hexDistance(p, goal))
        out.push({ type: 'move', by: gm, combatantId: id, mode: 'move-half', path: [step] });
    }
    out.push({ type: 'turn.end', by: gm, combatantId: id });
    return out;
  };
  return play(R, s, count, candidates, (s) => ({ type: 'turn.end', by: gm, combatantId: s.clock.current }));
}

// ---------------------------------------------------------------- action-round
function actionRoundRecord(count: number): Recorded {
  const R = actionRound as unknown as Ruleset;
  let s = createEncounter(R, { id: 'bench', seed: 42 });
  for (let i = 0; i < 12; i++) {
    s = must(R, s, {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `C${i}`,
        side: i < 6 ? 'heroes' : 'foes',
        position: { x: (i % 6) * 2, y: i < 6 ? 0 : 5 },
        // sturdy enough that the fight lasts the whole stream
        stats: {
          naturalWeapons: true,
          initiative: i % 5,
          toughness: 40,
          defense: 2,
          attack: { close: 3 },
          damage: { close: 2 },
          range: 10,
          skills: { athletics: 2 },
        },
        items: [{ id: `w${i}`, name: 'Blade', location: 'carried', tags: ['weapon'] }],
      },
    });
  }
  s = must(R, s, { type: 'combat.start', by: gm });

  // a turn is a script: talk, attack a neighbour or step toward a foe and shoot, defend, draw, end
  const candidates = (s: St, n: number): Cmd[] => {
    const w = s.reaction;
    if (w) {
      const id = w.eligible.find((x) => w.responses[x] === 'pending')!;
      return [
        { type: 'opportunity-attack', by: gm, combatantId: id },
        { type: 'reaction.pass', by: gm, combatantId: id },
      ];
    }
    const me = s.clock.current!;
    const c = s.combatants[me]!;
    const p = c.position as { x: number; y: number };
    const foes = Object.values(s.combatants).filter((x) => x.side !== c.side);
    const near = foes.find((f) => {
      const q = f.position as { x: number; y: number };
      return Math.max(Math.abs(q.x - p.x), Math.abs(q.y - p.y)) <= 1;
    });
    const out: Cmd[] = [];
    if (n % 3 === 0) out.push({ type: 'talk', by: gm, combatantId: me, text: 'Have at you!' });
    if (near) out.push({ type: 'attack', by: gm, combatantId: me, kind: 'close', targetId: near.id });
    else {
      const f = foes[n % foes.length]!;
      const q = f.position as { x: number; y: number };
      out.push({
        type: 'move',
        by: gm,
        combatantId: me,
        mode: 'walk',
        path: [{ x: p.x + Math.sign(q.x - p.x), y: p.y + Math.sign(q.y - p.y) }],
      });
      const r = foes.find((x) => x.id !== f.id);
      if (r) out.push({ type: 'attack', by: gm, combatantId: me, kind: 'ranged', targetId: r.id });
      if (n % 2 === 0) out.push({ type: 'defend', by: gm, combatantId: me });
    }
    if (n % 4 === 1) out.push({ type: 'draw', by: gm, combatantId: me, itemId: `w${me.slice(1)}` });
    out.push({ type: 'turn.end', by: gm, combatantId: me });
    return out;
  };
  return play(R, s, count, candidates, (s) => ({ type: 'turn.end', by: gm, combatantId: s.clock.current }));
}

// ---------------------------------------------------------------- action-points
function actionPointsRecord(count: number): Recorded {
  const R = actionPoints as unknown as Ruleset;
  let s = createEncounter(R, { id: 'bench', seed: 42 });
  const weapons = [
    { id: 'dg', name: 'Dagger', category: 'light', damage: '1d4' },
    { id: 'sw', name: 'Longsword', category: 'one-handed', damage: '1d8' },
    { id: 'gs', name: 'Greatsword', category: 'two-handed', damage: '2d6' },
  ];
  for (let i = 0; i < 12; i++) {
    s = must(R, s, {
      type: 'combatant.add',
      by: gm,
      combatant: {
        id: `c${i}`,
        name: `Fighter ${i}`,
        side: i < 6 ? 'heroes' : 'monsters',
        stats: {
          dexterity: 8 + ((i * 7) % 11),
          hp: 100_000,
          ac: 14,
          attackBonus: 4,
          weapons: [weapons[i % 3]!, { id: 'bow', name: 'Shortbow', kind: 'bow', category: 'ranged', damage: '1d6' }],
        },
        position: { x: i < 6 ? i : i - 6, y: i < 6 ? 0 : 1 },
      },
    });
  }
  s = must(R, s, { type: 'combat.start', by: gm });
  let x = 7;
  const rnd = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x >>> 8;
  };
  const candidates = (s: St): Cmd[] => {
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      const pass = { type: 'reaction.pass', by: gm, combatantId: who };
      return rnd() % 2 ? [{ type: w.allowed[0]!, by: gm, combatantId: who }, pass] : [pass];
    }
    const cur = s.clock.current!;
    const end = { type: 'turn.end', by: gm, combatantId: cur };
    const opts = legalActions(R, s, cur).filter((o) => o.allowed && (o.command === 'act' || o.command === 'continue'));
    if (opts.length === 0 || rnd() % 3 === 0) return [end];
    const o = opts[rnd() % opts.length]!;
    const cmd: Cmd = { type: o.command, by: gm, ...o.template };
    const c = s.combatants[cur]!;
    const pos = c.position as { x: number; y: number };
    const names = (o.params ?? []).map((p) => p.name);
    const foes = Object.values(s.combatants).filter((y) => y.side !== c.side);
    if (names.includes('targetId')) cmd.targetId = foes[rnd() % foes.length]!.id;
    if (names.includes('path')) cmd.path = [{ x: pos.x, y: pos.y - 1 }];
    if (o.action === 'ready') {
      cmd.readied = { action: 'attack' };
      cmd.trigger = { kind: 'moves-adjacent', description: 'if a foe comes close' };
    }
    return [cmd, end];
  };
  return play(R, s, count, candidates, (s) => ({ type: 'turn.end', by: gm, combatantId: s.clock.current }));
}

// ---------------------------------------------------------------- measurement
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Row {
  ruleset: string;
  commands: number;
  applyPerSec: number;
  applyPerCpuSec: number;
  legalPerSec: number;
  legalPerCpuSec: number;
  replayMs: number;
  replayCpuMs: number;
  stateBytes: number;
  maxStateBytes: number;
  floorUs: number;
}

function measure(R: Ruleset, rec: Recorded): Row {
  const { started, log } = rec;
  const run = (samples?: St[]) => {
    let s = started;
    for (let i = 0; i < log.length; i++) {
      const r = apply(R, s, log[i]);
      if (!r.ok) throw new Error(`${R.id} diverged at ${i}: ${r.error.message}`);
      s = r.state;
      if (samples && i % 100 === 99) samples.push(s);
    }
    return s;
  };
  const samples: St[] = [];
  const final = run(samples); // the first warm-up pass, and the states legalActions is measured on
  for (let i = 1; i < WARM_PASSES; i++) run();
  let n = 0;
  const c0 = cpuMs();
  const t0 = performance.now();
  let last = final;
  while (performance.now() - t0 < 2000 || n < 2 * log.length) {
    last = run();
    n += log.length;
  }
  const wall = performance.now() - t0;
  const cpu = cpuMs() - c0;
  if (JSON.stringify(last) !== JSON.stringify(final)) throw new Error(`${R.id}: apply is not deterministic`);

  const ids = Object.keys(final.combatants);
  if (process.env.BENCH_DUMP) writeFileSync(`${process.env.BENCH_DUMP}/${R.id}.json`, JSON.stringify(samples));
  if (process.env.BENCH_DUMP) writeFileSync(`${process.env.BENCH_DUMP}/${R.id}-log.json`, JSON.stringify(rec));
  if (digest) {
    for (const st of samples) for (const id of ids) digest.update(JSON.stringify(legalActions(R, st, id)));
    digests.push(`digest ${R.id} ${digest.copy().digest('hex')}`);
  }
  for (let i = 0; i < LEGAL_WARM_PASSES; i++) for (const st of samples) for (const id of ids) legalActions(R, st, id);
  let calls = 0;
  const c1 = cpuMs();
  const t1 = performance.now();
  while (performance.now() - t1 < 1000) {
    for (const st of samples) {
      for (const id of ids) {
        legalActions(R, st, id);
        calls++;
      }
    }
  }
  const lwall = performance.now() - t1;
  const lcpu = cpuMs() - c1;

  const head = log.slice(0, REPLAY_N);
  replay(R, started, head);
  const c2 = cpuMs();
  const t2 = performance.now();
  const reps = 3;
  for (let i = 0; i < reps; i++) replay(R, started, head);
  const rwall = (performance.now() - t2) / reps;
  const rcpu = (cpuMs() - c2) / reps;

  // the engine's floor on this state: the lightest command (a logged dice roll) through `apply`
  const roll = { type: 'dice.roll', by: gm, formula: '1d12', purpose: 'bench' };
  for (let i = 0; i < 5000; i++) apply(R, started, roll);
  const c3 = cpuMs();
  const FLOOR_N = 30_000;
  for (let i = 0; i < FLOOR_N; i++) apply(R, started, roll);
  const floorUs = ((cpuMs() - c3) * 1000) / FLOOR_N;

  let maxBytes = 0;
  for (const st of samples) maxBytes = Math.max(maxBytes, Buffer.byteLength(JSON.stringify(st)));
  return {
    ruleset: R.id,
    commands: log.length,
    applyPerSec: (n / wall) * 1000,
    applyPerCpuSec: (n / cpu) * 1000,
    legalPerSec: (calls / lwall) * 1000,
    legalPerCpuSec: (calls / lcpu) * 1000,
    replayMs: rwall,
    replayCpuMs: rcpu,
    stateBytes: Buffer.byteLength(JSON.stringify(final)),
    maxStateBytes: maxBytes,
    floorUs,
  };
}

const all: Array<[Ruleset, (n: number) => Recorded]> = [
  [legends as Ruleset, legendsRecord],
  [ocvPhases as Ruleset, ocvRecord],
  [actionRound as unknown as Ruleset, actionRoundRecord],
  [actionPoints as unknown as Ruleset, actionPointsRecord],
];
const only = process.env.BENCH_ONLY?.split(',');
const COUNT = Number(process.env.BENCH_COUNT ?? 12_000);
const rows: Row[] = [];
const digests: string[] = [];
for (const [R, rec] of all) {
  if (only && !only.includes(R.id)) continue;
  rows.push(measure(R, rec(Math.max(COUNT, REPLAY_N))));
}

const k = (x: number) => Math.round(x).toLocaleString('en');
const table = [
  [
    'ruleset',
    'apply/s wall',
    'apply/s CPU',
    'legalActions/s wall',
    'legalActions/s CPU',
    `replay ${k(REPLAY_N)} ms (CPU)`,
    'state bytes (max)',
    'floor µs CPU',
  ],
  ...rows.map((r) => [
    r.ruleset,
    k(r.applyPerSec),
    k(r.applyPerCpuSec),
    k(r.legalPerSec),
    k(r.legalPerCpuSec),
    `${r.replayMs.toFixed(0)} (${r.replayCpuMs.toFixed(0)})`,
    `${k(r.stateBytes)} (${k(r.maxStateBytes)})`,
    r.floorUs.toFixed(1),
  ]),
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
const line = (row: string[]) => `| ${row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
console.log(
  `Engine bench: 12 combatants, ${k(COUNT)}+ recorded commands per ruleset, node ${process.version}, NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}`,
);
console.log(line(table[0]!));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of table.slice(1)) console.log(line(row));
console.log('targets: >= 100,000 commands/s per CPU-second, state <= 65,536 bytes');
if (process.env.BENCH_JSON) console.log(JSON.stringify(rows, null, 2));
for (const d of digests) console.log(d);
