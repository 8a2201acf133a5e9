/**
 * The scripted legal fights the end-to-end bench plays: one `legends` and one `ocv-phases`
 * encounter setup (12 combatants, two sides of six), and a driver that picks a legal next command
 * from a state. The load generator replays one encounter's setup log locally, then plays the
 * fight ahead of time with the driver (each command checked by `apply` under the `by` its sender
 * will have on the server), so the hot path only sends precomputed commands.
 */
import { apply, createEncounter, hexDistance, hexNeighbors, type EncounterState, type Hex, type Ruleset } from '@fray/engine';
import { registry } from '@fray/rulesets';

export type Cmd = Record<string, unknown>;
type St = EncounterState;
const gm = { role: 'gm' } as const;

interface Fight {
  ruleset: string;
  options: Record<string, unknown>;
  /** GM commands before the invites (no controllers: the invites set them) */
  setup: Cmd[];
  /** the players' side, split over the player clients */
  heroes: string[];
  /** candidates in order of preference; the first legal one is sent */
  candidates(s: St, n: number): Cmd[];
  /** when no candidate is legal */
  fallback(s: St): Cmd;
}

// ---------------------------------------------------------------- reading the state
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
/** the value at `path` in a JSON object (undefined where there is none) */
function at(o: unknown, ...path: string[]): unknown {
  let v = o;
  for (const k of path) v = isRecord(v) ? v[k] : undefined;
  return v;
}
const lengthAt = (o: unknown, ...path: string[]): number => {
  const v = at(o, ...path);
  return Array.isArray(v) ? v.length : 0;
};
const numberAt = (o: unknown, ...path: string[]): number => {
  const v = at(o, ...path);
  return typeof v === 'number' ? v : 0;
};
function hexOf(p: unknown): Hex {
  const q = at(p, 'q');
  const r = at(p, 'r');
  if (typeof q !== 'number' || typeof r !== 'number') throw new Error(`not a hex: ${JSON.stringify(p)}`);
  return { q, r };
}

// ---------------------------------------------------------------- legends
interface LegendsRs {
  queue: string[];
  /** attacks waiting for the GM's ruling (option attackOutcome, on by default) */
  attackId: string | undefined;
  /** the first combatant whose movement is not finished */
  unfinished: string | undefined;
}

/** What the driver reads of legends' own state (rs). */
function legendsRs(rs: unknown): LegendsRs {
  const queue = at(rs, 'queue');
  const attacks = at(rs, 'attacks');
  const pending = at(rs, 'pending');
  const attackId = Array.isArray(attacks) ? at(attacks[0], 'id') : undefined;
  const unfinished = Array.isArray(pending) ? pending.find((p) => !at(p, 'finished')) : undefined;
  const who = at(unfinished, 'combatantId');
  return {
    queue: Array.isArray(queue) ? queue.filter((x) => typeof x === 'string') : [],
    attackId: typeof attackId === 'string' ? attackId : undefined,
    unfinished: typeof who === 'string' ? who : undefined,
  };
}

const legendsFight: Fight = {
  ruleset: 'legends',
  options: { initialTurnOrderDecisions: true },
  heroes: ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'],
  setup: (() => {
    const out: Cmd[] = [
      {
        type: 'defineZone',
        zone: { id: 'courtyard', traits: { groupDefenseRatio: 2 }, features: [{ id: 'well', name: 'Well', description: '' }] },
      },
      { type: 'defineAction', action: { key: 'aim', name: 'Aim', kinds: ['minor'], tags: ['slowing'] } },
      { type: 'defineAction', action: { key: 'focus', name: 'Focus', kinds: ['free'], tags: ['purely-mental'] } },
    ];
    for (let i = 0; i < 12; i++) {
      const side = i < 6 ? 'heroes' : 'raiders';
      const ranged = i % 3 === 2;
      out.push({
        type: 'combatant.add',
        combatant: {
          id: `c${i}`,
          name: `Fighter ${i}`,
          side,
          stats: {
            DEX: 4 + (i % 5),
            SPD: 5 + (i % 4),
            STR: 4 + (i % 6),
            competences: ['blade', 'bow'],
            encumbrance: 0,
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
    out.push({ type: 'formGroup', combatantIds: ['c0', 'c1', 'c2'], groupId: 'h-front' });
    out.push({ type: 'formGroup', combatantIds: ['c6', 'c7', 'c8'], groupId: 'r-front' });
    return out;
  })(),
  candidates(s, n) {
    const rs = legendsRs(s.rs);
    const out: Cmd[] = [];
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      if (n % 4 === 0) out.push({ type: 'react', combatantId: who, destination: { join: w.trigger.combatantId } });
      out.push({ type: 'reaction.pass', combatantId: who });
      return out;
    }
    // the GM confirms each attack's outcome as rolled (toughness 1000: the fight runs its length)
    if (rs.attackId) return [{ type: 'resolveAttack', attackId: rs.attackId }];
    const phase = s.clock.phase;
    if (phase === 'turn-order' || phase === 'reorder') {
      const id = rs.queue[0]!;
      out.push({ type: 'changeTurnOrder', combatantId: id, index: s.clock.order.length - 1 });
      out.push({ type: 'changeTurnOrder', combatantId: id });
      return out;
    }
    if (phase === 'group-defense') {
      const g = rs.queue[0]!;
      const members = Object.values(s.combatants).filter((c) => at(c.position, 'group') === g);
      out.push({ type: 'declareGroupDefense', combatantId: members[0]!.id, protected: [] });
      return out;
    }
    if (phase === 'movement') {
      if (rs.unfinished) {
        out.push({ type: 'finishMove', combatantId: rs.unfinished });
        return out;
      }
      const id = rs.queue[0]!;
      const me = s.combatants[id]!;
      const enemies = Object.values(s.combatants)
        .filter((c) => c.side !== me.side)
        .map((c) => c.id);
      if (n % 3 !== 0) out.push({ type: 'move', combatantId: id, destination: { join: enemies[n % enemies.length]!, mode: 'engage' } });
      out.push({ type: 'stay', combatantId: id });
      return out;
    }
    const id = s.clock.current;
    if (!id) return out;
    const me = s.combatants[id]!;
    const enemies = Object.values(s.combatants)
      .filter((c) => c.side !== me.side)
      .map((c) => c.id);
    const target = enemies[n % enemies.length]!;
    const act = (action: string, extra: Cmd = {}) => out.push({ type: 'act', combatantId: id, action, ...extra });
    if (lengthAt(me.data, 'turn', 'seq') === 0) act('focus');
    if (lengthAt(me.data, 'turn', 'minors') === 0) act('aim');
    for (const e of [target, ...enemies]) {
      act('melee-attack', { targetId: e, weaponId: `w${id.slice(1)}` });
      act('ranged-attack', { targetId: e, weaponId: `w${id.slice(1)}` });
    }
    out.push({ type: 'turn.end', combatantId: id });
    return out;
  },
  fallback: () => ({ type: 'advancePhase' }),
};

// ---------------------------------------------------------------- ocv-phases
const ocvFight: Fight = {
  ruleset: 'ocv-phases',
  options: {},
  heroes: ['c0', 'c2', 'c4', 'c6', 'c8', 'c10'],
  setup: (() => {
    const out: Cmd[] = [];
    for (let i = 0; i < 12; i++) {
      out.push({
        type: 'combatant.add',
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
    out.push({ type: 'setMap', blocking: [{ q: 0, r: 0 }], difficult: [{ q: 1, r: 1 }] });
    return out;
  })(),
  candidates(s, turn) {
    const w = s.reaction;
    if (w) {
      const who = w.eligible.find((id) => w.responses[id] === 'pending')!;
      const pass = { type: 'reaction.pass', combatantId: who };
      return w.kind === 'ocv-phases.attack-of-opportunity' && turn % 2 === 0
        ? [{ type: 'opportunityAttack', combatantId: who, manoeuvre: 'strike' }, pass]
        : [pass];
    }
    const id = s.clock.current;
    if (!id) return [];
    const me = s.combatants[id]!;
    const cap = s.clock.phase === 'surprise' ? 1 : 2;
    const d = { slots: numberAt(me.data, 'slots'), attacks: numberAt(me.data, 'attacks') };
    const p = hexOf(me.position);
    const enemies = Object.values(s.combatants).filter((c) => c.side !== me.side && c.position);
    const near = enemies.filter((e) => hexDistance(p, hexOf(e.position)) === 1);
    const out: Cmd[] = [];
    if (near.length && d.attacks === 0 && d.slots < cap)
      out.push({
        type: 'attack',
        combatantId: id,
        manoeuvre: turn % 5 === 0 ? 'haymaker' : 'strike',
        targetId: near[turn % near.length]!.id,
      });
    if (d.slots === 0 && enemies.length) {
      const goal = hexOf(
        enemies.reduce((a, b) => (hexDistance(p, hexOf(a.position)) <= hexDistance(p, hexOf(b.position)) ? a : b)).position,
      );
      const occupied = new Set(Object.values(s.combatants).map((c) => `${hexOf(c.position).q},${hexOf(c.position).r}`));
      const step = hexNeighbors(p)
        .filter((h) => !occupied.has(`${h.q},${h.r}`) && !(h.q === 0 && h.r === 0))
        .sort((a, b) => hexDistance(a, goal) - hexDistance(b, goal))[0];
      if (step && hexDistance(step, goal) < hexDistance(p, goal))
        out.push({ type: 'move', combatantId: id, mode: 'move-half', path: [step] });
    }
    out.push({ type: 'turn.end', combatantId: id });
    return out;
  },
  fallback: (s) => ({ type: 'turn.end', combatantId: s.clock.current }),
};

export const fights: Record<string, Fight> = { legends: legendsFight, 'ocv-phases': ocvFight };

/**
 * Commands in each encounter's script in a full bench run: more than the fastest machine so far
 * plays in one run (about 2,300 an encounter), as an encounter that reaches the end stops sending.
 */
export const SCRIPT_COMMANDS = 10_000;

export const rulesets: Record<string, Ruleset> = { legends: registry.legends!, 'ocv-phases': registry['ocv-phases']! };

/** One scripted command: who sends it (-1: the GM, k: player client k) and what. */
interface Step {
  sender: number;
  command: Cmd;
}

export interface Script {
  steps: Step[];
  /** JSON bytes of the full (GM) state after step i, sampled every `every` steps */
  stateBytes: number[];
  every: number;
}

/** The state an encounter's log leads to (the server's own commands, replayed locally). */
export function replayLog(ruleset: string, init: { id: string; name: string; seed: number; options: unknown }, commands: Cmd[]): St {
  const R = rulesets[ruleset]!;
  let s = createEncounter(R, { id: init.id, name: init.name, seed: init.seed, options: init.options });
  for (const c of commands) {
    const r = apply(R, s, c);
    if (!r.ok) throw new Error(`replaying the setup log: ${String(c.type)}: ${r.error.message}`);
    s = r.state;
  }
  return s;
}

/**
 * Play the fight ahead: `count` legal commands from `state`, each tried under the `by` of the
 * player who controls its combatant (else the GM's), as the server will see it.
 */
export function buildScript(ruleset: string, state: St, playerIndex: (playerId: string) => number, count: number, every = 50): Script {
  const R = rulesets[ruleset]!;
  const fight = fights[ruleset]!;
  let s = state;
  const steps: Step[] = [];
  const stateBytes: number[] = [];
  const tryOne = (c: Cmd): { state: St; sender: number } | null => {
    const cid = typeof c.combatantId === 'string' ? c.combatantId : null;
    const ctrl = cid ? s.combatants[cid]?.controller : null;
    if (ctrl) {
      const r = apply(R, s, { ...c, by: { role: 'player', playerId: ctrl } });
      if (r.ok) return { state: r.state, sender: playerIndex(ctrl) };
    }
    const r = apply(R, s, { ...c, by: gm });
    return r.ok ? { state: r.state, sender: -1 } : null;
  };
  for (let n = 0; steps.length < count; n++) {
    let done: { state: St; sender: number; c: Cmd } | null = null;
    for (const c of fight.candidates(s, n)) {
      const r = tryOne(c);
      if (r) {
        done = { ...r, c };
        break;
      }
    }
    if (!done) {
      const c = fight.fallback(s);
      const r = tryOne(c);
      if (!r) throw new Error(`${ruleset}: no legal command at version ${s.version}`);
      done = { ...r, c };
    }
    s = done.state;
    steps.push({ sender: done.sender, command: done.c });
    if (steps.length % every === 0) stateBytes.push(Buffer.byteLength(JSON.stringify(s)));
    if (s.status !== 'active') break;
  }
  return { steps, stateBytes, every };
}
