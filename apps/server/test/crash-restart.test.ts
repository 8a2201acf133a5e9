import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrayClient, type CommandAck } from '@fray/client';
import { freePort, http, sharedDatabase, startProc, untilAsync, type Proc, type SharedDatabase } from './procs.js';

/**
 * "A crashed process comes straight back": the same single process, killed (kill -9) and started
 * again with the same instance id, takes over its own leases at once with a new fencing token. The
 * lease is ten minutes long here, so a client served again at all was served before the old lease
 * could have expired. On the embedded database the id is the one kept in the data directory; on
 * Postgres (DATABASE_URL) it is the default `<hostname>:<port>`. Nothing is set by hand.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const backend = DATABASE_URL ? 'Postgres' : 'the embedded database';
const LEASE_SECONDS = 600;
const roll = (purpose: string) => ({ type: 'dice.roll', formula: '1d6', purpose }) as const;

describe(`a crashed process comes straight back (${backend})`, () => {
  let db: SharedDatabase | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'fray-crash-'));
  const procs: Proc[] = [];
  const clients: FrayClient[] = [];
  let env: Record<string, string>;
  let port: number;

  beforeAll(async () => {
    if (DATABASE_URL) db = await sharedDatabase(DATABASE_URL);
    env = {
      FRAY_LEASE_SECONDS: String(LEASE_SECONDS),
      FRAY_REACTION_SECONDS: '0',
      FRAY_SNAPSHOT_EVERY: '10',
      ...(db ? { DATABASE_URL: db.urlVia(db.port) } : { FRAY_DATA_DIR: dataDir }),
    };
    port = await freePort();
  }, 60_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const loaded = (p: Proc, id: string) => p.lines.find((l) => l.msg === 'encounter loaded' && l.encounterId === id);
  const listening = (p: Proc) => p.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('Fray listening'))!;

  it('kill -9, restart: a waiting client is served again by the restarted process (long before its old lease could expire), with a new fencing token, nothing acknowledged lost', async () => {
    const first = await startProc(env, 120_000, port);
    procs.push(first);
    const gmToken = (await http(first.url, 'POST', '/accounts', {})).body.token as string;
    const id = (await http(first.url, 'POST', '/encounters', { name: 'Crash', ruleset: 'legends', seed: 5 }, gmToken)).body.id as string;
    const gm = await FrayClient.connect(first.url, gmToken, { ackTimeoutMs: 5_000, retries: 20 });
    clients.push(gm);
    const m = await gm.join(id);
    const acked = new Map<string, number>();
    const send = (commandId: string) =>
      m.command(roll(commandId), { commandId }).then(
        (ack: CommandAck) => {
          if (ack.ok) acked.set(commandId, ack.version);
          return ack;
        },
        () => null,
      );
    for (let i = 0; i < 12; i++) await send(`c-${i}`);
    // a burst in flight when the process dies
    const burst = Array.from({ length: 20 }, (_, i) => send(`b-${i}`));
    await untilAsync(() => acked.size >= 16, 10_000, 'part of the burst acknowledged', 1);
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const oldToken = loaded(first, id)!.leaseToken as number;

    // a client waits to be served: it sends while no process runs
    const waiting = send('waiting');
    const second = await startProc(env, 120_000, port);
    procs.push(second);
    expect(listening(second).ownerId).toBe(listening(first).ownerId);
    await untilAsync(
      async () => (await http(second.url, 'GET', '/health/ready')).status === 200,
      30_000,
      'the restarted process to be ready',
    );
    const readyAt = Date.now();
    const ack = await waiting;
    const servedMs = Date.now() - readyAt;
    expect(ack).toMatchObject({ ok: true });
    console.log(
      `kill -9 and restart on ${backend}: the waiting client was served ${servedMs} ms after /health/ready answered (lease ${LEASE_SECONDS} s)`,
    );

    // the restarted process runs the encounter under a new fencing token
    const reloaded = loaded(second, id)!;
    expect(reloaded).toBeDefined();
    expect(reloaded.leaseToken as number).toBeGreaterThan(oldToken);
    // every acknowledged command is in the log at the version its ack named
    await Promise.all(burst);
    const log = (await http(second.url, 'GET', `/encounters/${id}/log`, undefined, gmToken)).body.entries as Array<{
      commandId: string;
      seq: number;
    }>;
    log.forEach((e, i) => expect(e.seq).toBe(i + 1));
    const bySeq = new Map(log.map((e) => [e.commandId, e.seq]));
    for (const [commandId, version] of acked) expect(bySeq.get(commandId), commandId).toBe(version);
    // and the fight goes on
    expect(await m.command(roll('after'))).toMatchObject({ ok: true, version: log.length + 1 });
  }, 240_000);

  it('"two live processes must never share one" instance id: a second process refuses to start, saying why', async () => {
    const live = procs.at(-1)!;
    expect(live.child.exitCode).toBeNull();
    const instanceId = String(listening(live).ownerId).split('@')[0]!;
    // on Postgres the same FRAY_INSTANCE_ID on another port; on the embedded database the same data directory
    const again = startProc({ ...env, ...(db ? { FRAY_INSTANCE_ID: instanceId } : {}) }, 120_000);
    await expect(again).rejects.toThrow(
      db ? new RegExp(`already runs as instance "${instanceId}".*FRAY_INSTANCE_ID`, 's') : /in use by process/,
    );
    // the live one is untouched
    expect((await http(live.url, 'GET', '/health/ready')).status).toBe(200);
  }, 180_000);
});
