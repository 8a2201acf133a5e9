/** Fray as the generator's target: an encounter's setup (GM, players, spectator), one scripted command, one bad command. */
import { FrayClient } from '@fray/client';
import type { Socket } from 'socket.io-client';
import { SCRIPT_COMMANDS, buildScript, fights, replayLog, type Cmd, type Script } from '../fights.js';
import { http, text } from '../http.js';
import { sleep } from '../proc.js';
import { recordTimeline } from './timeline.js';
import { newEnc, type Counters, type Enc, type LoadConfig, type Outcome } from './types.js';
import { countFrames, delivered, emitAck, readAck, untyped, waitDelivered, type Ack } from './wire.js';

const log = (...a: unknown[]) => console.error('[loadgen]', ...a);

export interface FrayShared {
  scripts: Map<string, Script>;
  counters: Counters;
}

async function frayCommand(
  socket: Socket,
  encounterId: string,
  commandId: string,
  command: Cmd,
): Promise<Ack & { raw: unknown; heldBack: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const raw = await emitAck(socket, 'command', { encounterId, commandId, command });
    const ack = readAck(raw);
    if (!ack.ok && ack.error?.code === 'RATE_LIMITED' && attempt < 100) {
      await sleep(100);
      continue;
    }
    return { ...ack, raw, heldBack: attempt > 0 };
  }
}

/** The log's commands (GET /encounters/:id/log), checked. */
function logCommands(reply: Record<string, unknown>): Cmd[] {
  const entries = reply.entries;
  if (!Array.isArray(entries)) throw new Error(`no log entries in ${JSON.stringify(reply).slice(0, 200)}`);
  return entries.map((e: unknown) => {
    const command: unknown = e && typeof e === 'object' && 'command' in e ? e.command : null;
    if (!command || typeof command !== 'object') throw new Error(`a log entry without its command: ${JSON.stringify(e)}`);
    return { ...command };
  });
}

interface Seat {
  token: string;
  role: number;
  playerId: string | null;
}

/** The invites of one encounter: the players' (heroes shared out), then the spectator's. */
async function invite(cfg: LoadConfig, owner: string, id: string, gmToken: string, heroes: string[]): Promise<Seat[]> {
  const players = cfg.P - 2;
  const seats: Seat[] = [];
  for (let k = 0; k < players; k++) {
    const combatantIds = heroes.filter((_, j) => j % players === k);
    const inv = await http(owner, 'POST', `/encounters/${id}/invites`, { role: 'player', combatantIds }, gmToken);
    seats.push({ token: text(inv, 'token'), role: k, playerId: text(inv, 'playerId') });
  }
  seats.push({
    token: text(await http(owner, 'POST', `/encounters/${id}/invites`, { role: 'spectator' }, gmToken), 'token'),
    role: -2,
    playerId: null,
  });
  return seats;
}

export async function setupFray(cfg: LoadConfig, i: number, gmToken: string, shared: FrayShared, build: boolean): Promise<Enc> {
  const rulesetIds = cfg.rulesets ?? ['legends'];
  const ruleset = rulesetIds[i % rulesetIds.length]!;
  const fight = fights[ruleset]!;
  const home = cfg.urls[i % cfg.urls.length]!;
  const name = `bench ${ruleset}`;
  const seed = 1;
  const id = text(await http(home, 'POST', '/encounters', { name, ruleset, seed, options: fight.options }, gmToken), 'id');
  const opts = { ackTimeoutMs: 30_000, retries: 0 };
  const gm = await FrayClient.connectAndJoin(home, gmToken, id, opts);
  gm.client.mirrors.delete(id); // the bench counts patches itself; no mirror to patch
  const gmSocket = untyped(gm.client.socket);
  const owner = gm.url;
  let n = 0;
  for (const c of fight.setup) {
    const ack = await frayCommand(gmSocket, id, `setup-${n++}`, c);
    if (!ack.ok) throw new Error(`setup ${String(c.type)}: ${JSON.stringify(ack.raw)}`);
  }
  const seats = await invite(cfg, owner, id, gmToken, fight.heroes);
  const start = await frayCommand(gmSocket, id, `setup-${n++}`, { type: 'combat.start' });
  if (!start.ok || start.version === undefined) throw new Error(`combat.start: ${JSON.stringify(start.raw)}`);
  const enc = newEnc(i, { version: start.version, id, ruleset, startVersion: start.version });
  const add = (socket: Socket, role: number, redirected: boolean) => {
    socket.on('patch', (msg: { to: number }) => delivered(enc, msg.to, cfg.P));
    countFrames(socket, shared.counters, /^2\["patch"/);
    enc.clients.push({ socket, role, redirected });
  };
  add(gmSocket, -1, gm.url !== home);
  for (const [k, t] of seats.entries()) {
    // round robin over the processes; NOT_OWNER is followed to the owner (connectAndJoin)
    const first = cfg.urls[(i + k + 1) % cfg.urls.length]!;
    const c = await FrayClient.connectAndJoin(first, t.token, id, opts);
    c.client.mirrors.delete(id);
    add(untyped(c.client.socket), t.role, c.url !== first);
  }
  if (build && !shared.scripts.has(ruleset)) {
    // replay this encounter's own log locally and play the fight ahead (same seed, same setup:
    // every encounter of this ruleset plays the same legal fight)
    const commands = logCommands(await http(owner, 'GET', `/encounters/${id}/log`, undefined, gmToken));
    const state = replayLog(ruleset, { id, name, seed, options: fight.options }, commands);
    const index = new Map(seats.flatMap((t) => (t.playerId ? [[t.playerId, t.role] as const] : [])));
    const t0 = performance.now();
    const script = buildScript(ruleset, state, (p) => index.get(p) ?? -1, cfg.scriptLength ?? SCRIPT_COMMANDS);
    log(
      `${ruleset}: script of ${script.steps.length} commands in ${(performance.now() - t0).toFixed(0)} ms (from version ${state.version})`,
    );
    shared.scripts.set(ruleset, script);
  }
  return enc;
}

let seqCounter = 0;
const debugged = new Set<string>();

export async function frayStep(cfg: LoadConfig, enc: Enc, scripts: Map<string, Script>): Promise<Outcome> {
  const script = scripts.get(enc.ruleset)!;
  const step = script.steps[enc.idx];
  if (!step) return { ok: false, exhausted: true };
  const sender = step.sender === -1 ? enc.clients[0]! : enc.clients.find((c) => c.role === step.sender)!;
  enc.pendingTo = enc.version + 1;
  enc.recv = 0;
  const t0 = performance.now();
  const ack = await frayCommand(sender.socket, enc.id, `b${enc.i}-${enc.idx}-${++seqCounter}`, step.command);
  if (!ack.ok || ack.version === undefined) {
    if (process.env.BENCH_DEBUG && !debugged.has(enc.ruleset + ack.error?.code)) {
      debugged.add(enc.ruleset + ack.error?.code);
      log(
        `refused ${enc.ruleset} #${enc.i} step ${enc.idx} sender ${step.sender}: ${JSON.stringify(step.command)} -> ${JSON.stringify(ack.raw)}`,
      );
    }
    enc.idx += 1; // the script diverged (should not happen): counted as refused
    return { ok: false, code: ack.error?.code ?? 'UNKNOWN' };
  }
  const tAck = performance.now();
  const got = await waitDelivered(enc, cfg.P);
  enc.version = ack.version;
  enc.idx += 1;
  const now = performance.now();
  recordTimeline(now, t0, tAck);
  return { ok: true, latency: now - t0, redirected: sender.redirected, undelivered: !got, heldBack: ack.heldBack };
}

/** one bad command: malformed or unauthorized; returns its error code (null: accepted!) */
export async function frayBad(enc: Enc, n: number): Promise<{ code: string | null; expected: string[]; ms: number }> {
  const gm = enc.clients[0]!.socket;
  const player = enc.clients.find((c) => c.role === 0)!.socket;
  const spectator = enc.clients.find((c) => c.role === -2)!.socket;
  const foe = 'c11';
  const encounterId = enc.id;
  const commandId = `bad-${enc.i}-${n}-${++seqCounter}`;
  const kinds: Array<[() => Promise<unknown>, string[]]> = [
    // malformed: no commandId
    [() => emitAck(gm, 'command', { encounterId, command: { type: 'turn.end' } }), ['INVALID_MESSAGE']],
    // malformed JSON text
    [() => emitAck(player, 'command', '{"encounterId":'), ['INVALID_JSON']],
    // unknown command type
    [() => emitAck(player, 'command', { encounterId, commandId, command: { type: 'fireball', combatantId: foe } }), ['UNKNOWN_COMMAND']],
    // bad fields
    [() => emitAck(gm, 'command', { encounterId, commandId, command: { type: 'turn.end', combatantId: 42 } }), ['INVALID_COMMAND']],
    // unauthorized: a player commands a combatant it does not control
    [() => emitAck(player, 'command', { encounterId, commandId, command: { type: 'turn.end', combatantId: foe } }), ['NOT_AUTHORIZED']],
    // unauthorized: a spectator sends a command
    [() => emitAck(spectator, 'command', { encounterId, commandId, command: { type: 'turn.end', combatantId: foe } }), ['FORBIDDEN']],
  ];
  const t0 = performance.now();
  const [send, expected] = kinds[n % kinds.length]!;
  const raw = await send();
  const ms = performance.now() - t0;
  const a = readAck(raw);
  if (process.env.BENCH_DEBUG && !debugged.has(`bad${n % kinds.length}`)) {
    debugged.add(`bad${n % kinds.length}`);
    log(`bad kind ${n % kinds.length}: ${JSON.stringify(raw)}`);
  }
  return { code: a.ok ? null : (a.error?.code ?? 'NO_CODE'), expected, ms };
}
