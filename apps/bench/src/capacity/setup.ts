/** The capacity run's tables: encounters made over Fray's HTTP API, and the generator processes that hold their sockets. */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type pg from 'pg';
import { here, LOADGEN_NODE_ARGS } from '../config.js';
import { http as frayHttp, text } from '../http.js';
import { gmTokens } from '../load/accounts.js';
import type { z } from 'zod';
import {
  closedSchema,
  connectedSchema,
  phaseReplySchema,
  type GenMessage,
  type GenPhase,
  type SeatPlan,
  type TablePlan,
} from './messages.js';

/** thousands of encounters made at once meet the rate limit more: up to 40 s of retries */
const http = (url: string, method: string, path: string, body?: unknown, token?: string) =>
  frayHttp(url, method, path, body, token, { tries: 400, waitMs: 100 });

/** One table: an encounter (legends) with its GM, three players each with a combatant, and a spectator. */
async function setupTable(url: string, gmToken: string, i: number): Promise<TablePlan> {
  const id = text(await http(url, 'POST', '/encounters', { name: `capacity ${i}`, ruleset: 'legends', seed: i + 1 }, gmToken), 'id');
  const seats: SeatPlan[] = [{ token: gmToken, role: 'gm', combatantId: null }];
  for (let k = 1; k <= 3; k++) {
    const cid = `pc${k}`;
    await http(
      url,
      'POST',
      `/encounters/${id}/combatants`,
      { id: cid, name: `Hero ${k}`, side: 'heroes', stats: { DEX: 10, SPD: 10, STR: 10 } },
      gmToken,
    );
    const inv = await http(url, 'POST', `/encounters/${id}/invites`, { role: 'player', combatantIds: [cid] }, gmToken);
    seats.push({ token: text(inv, 'token'), role: 'player', combatantId: cid });
  }
  seats.push({
    token: text(await http(url, 'POST', `/encounters/${id}/invites`, { role: 'spectator' }, gmToken), 'token'),
    role: 'spectator',
    combatantId: null,
  });
  return { id, seats };
}

/** Tables from..to-1 on the Fray server at `url` (one GM account each), 16 at a time. */
export async function setupTables(url: string, db: pg.Client, from: number, to: number): Promise<TablePlan[]> {
  const tokens = await gmTokens(db, to - from);
  const out: TablePlan[] = [];
  let next = from;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < to) {
        const i = next++;
        out.push(await setupTable(url, tokens[i - from]!, i));
      }
    }),
  );
  return out;
}

/** Tables from..to-1 of the socket.io floor: rooms, five sockets each, no tokens. */
export function floorTables(from: number, to: number): TablePlan[] {
  const roles: SeatPlan['role'][] = ['gm', 'player', 'player', 'player', 'spectator'];
  return Array.from({ length: to - from }, (_, k) => ({
    id: `room-${from + k}`,
    seats: roles.map((role) => ({ token: null, role, combatantId: null })),
  }));
}

export interface Generator {
  pid: number;
  connect(m: Extract<GenMessage, { type: 'connect' }>): Promise<z.infer<typeof connectedSchema>>;
  phase(m: Extract<GenMessage, { type: 'phase' }>): Promise<GenPhase>;
  close(): Promise<void>;
  stop(): void;
}

/** A generator process (gen.ts) with the generator's node flags; one message at a time. */
export function startGenerator(): Generator {
  const child: ChildProcess = fork(join(here, 'capacity/gen.js'), [], {
    execArgv: LOADGEN_NODE_ARGS.split(' ').filter(Boolean),
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (m: GenMessage): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`capacity generator exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (reply: unknown) => {
        child.off('exit', onExit);
        if (typeof reply === 'object' && reply !== null && 'type' in reply && reply.type === 'error')
          reject(new Error(`capacity generator: ${JSON.stringify(reply)}`));
        else resolve(reply);
      });
      child.send(m);
    });
  return {
    pid: child.pid!,
    connect: async (m) => connectedSchema.parse(await ask(m)),
    phase: async (m) => phaseReplySchema.parse(await ask(m)),
    close: async () => void closedSchema.parse(await ask({ type: 'close' })),
    stop: () => child.kill('SIGTERM'),
  };
}
