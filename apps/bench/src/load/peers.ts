/** boardgame.io and the bare socket.io floor as the generator's targets: setup and one command. */
import { newEnc, type Counters, type Enc, type LoadConfig, type Outcome } from './types.js';
import { connect, countFrames, delivered, emitAck, waitDelivered } from './wire.js';

const BGIO_GAME = 'bench-combat';

export async function setupBgio(cfg: LoadConfig, i: number, counters: Counters): Promise<Enc> {
  const url = cfg.urls[i % cfg.urls.length]!;
  const enc = newEnc(i, { ruleset: 'bgio', matchID: `m${i}` });
  const numPlayers = cfg.P - 1;
  for (let k = 0; k < cfg.P; k++) {
    const socket = await connect(url, `/${BGIO_GAME}`);
    const playerID = k < numPlayers ? String(k) : null;
    countFrames(socket, counters, /\["(update|patch)"/);
    socket.on('patch', (_m: string, _prev: number, stateID: number) => delivered(enc, stateID, cfg.P));
    socket.on('update', (_m: string, state: { _stateID: number }) => delivered(enc, state._stateID, cfg.P));
    const synced = new Promise<number>((resolve) =>
      socket.once('sync', (_m: string, info: { state: { _stateID: number } }) => resolve(info.state._stateID)),
    );
    socket.emit('sync', enc.matchID, playerID, undefined, numPlayers);
    enc.version = await synced;
    enc.clients.push({ socket, role: k < numPlayers ? k : -2, redirected: false });
  }
  return enc;
}

export async function setupFloor(cfg: LoadConfig, i: number, counters: Counters): Promise<Enc> {
  const url = cfg.urls[i % cfg.urls.length]!;
  const enc = newEnc(i, { id: `r${i}`, ruleset: 'floor' });
  for (let k = 0; k < cfg.P; k++) {
    const socket = await connect(url);
    countFrames(socket, counters, /^2\["msg"/);
    socket.on('msg', (_room: string, seq: number) => delivered(enc, seq, cfg.P));
    await emitAck(socket, 'join', enc.id);
    enc.clients.push({ socket, role: k < cfg.P - 1 ? k : -2, redirected: false });
  }
  return enc;
}

export async function bgioStep(cfg: LoadConfig, enc: Enc): Promise<Outcome> {
  const numPlayers = cfg.P - 1;
  const turn = Math.floor(enc.idx / 2);
  const playerID = String(turn % numPlayers);
  const sender = enc.clients[turn % numPlayers]!;
  const action =
    enc.idx % 2 === 0
      ? { type: 'MAKE_MOVE', payload: { type: 'attack', args: [(turn * 7) % 12], playerID, credentials: undefined } }
      : { type: 'GAME_EVENT', payload: { type: 'endTurn', args: [], playerID, credentials: undefined } };
  enc.pendingTo = enc.version + 1;
  enc.recv = 0;
  const t0 = performance.now();
  sender.socket.emit('update', action, enc.version, enc.matchID, playerID);
  const got = await waitDelivered(enc, cfg.P);
  if (!got) return { ok: false, code: 'NO_UPDATE', undelivered: true };
  enc.version += 1;
  enc.idx += 1;
  return { ok: true, latency: performance.now() - t0 };
}

export async function floorStep(cfg: LoadConfig, enc: Enc): Promise<Outcome> {
  const sender = enc.clients[enc.idx % (cfg.P - 1)]!;
  const seq = enc.version + 1;
  enc.pendingTo = seq;
  enc.recv = 0;
  const t0 = performance.now();
  await emitAck(sender.socket, 'cmd', { room: enc.id, seq });
  const got = await waitDelivered(enc, cfg.P);
  enc.version = seq;
  enc.idx += 1;
  return { ok: true, latency: performance.now() - t0, undelivered: !got };
}
