import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as rawIo, type Socket } from 'socket.io-client';
import { startServer, until, type TestServer } from './helpers.js';

/**
 * A socket's join that is still under way (its authorization or the encounter's load wait for the
 * database, as they do for seconds when thousands of clients join again after a restart) is waited
 * for by what comes behind it on the same socket: a command is served after the join, not refused
 * NOT_JOINED; a second join or sync of the same encounter shares it, so the socket is subscribed
 * once (a second subscription outlived the socket and kept the encounter in memory).
 */
describe('a join under way', () => {
  let s: TestServer;
  let gmToken: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    s = await startServer();
    gmToken = (await s.http('POST', '/accounts', {})).body.token as string;
  }, 60_000);
  afterAll(async () => {
    for (const r of sockets) r.disconnect();
    await s?.close();
  });

  const encounter = async (name: string) =>
    (await s.http('POST', '/encounters', { name, ruleset: 'skirmish', seed: 3 }, gmToken)).body.id as string;
  const open = async () => {
    const raw = rawIo(s.url, { auth: { token: gmToken }, transports: ['websocket'] });
    sockets.push(raw);
    await new Promise<void>((resolve, reject) => {
      raw.once('connect', () => resolve());
      raw.once('connect_error', reject);
    });
    return raw;
  };

  it('a command sent right behind its join, before the join is answered, is served after the join (not NOT_JOINED)', async () => {
    const id = await encounter('Overtaken');
    const raw = await open();
    // both leave in the same tick: the join is still authorizing and loading when the command arrives
    const joined = raw.emitWithAck('join', { encounterId: id });
    const command = raw.emitWithAck('command', {
      encounterId: id,
      commandId: 'right-behind',
      command: { type: 'dice.roll', formula: '1d6', purpose: 'behind' },
    });
    const [j, c] = await Promise.all([joined, command]);
    expect(j).toMatchObject({ ok: true, version: 0 });
    expect(c).toMatchObject({ ok: true, version: 1 });
    // a command for an encounter the socket never asked to join is still refused
    expect(
      await raw.emitWithAck('command', {
        encounterId: await encounter('Never joined'),
        commandId: 'x',
        command: { type: 'dice.roll', formula: '1d6', purpose: 'x' },
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'NOT_JOINED' },
    });
  });

  it('a join and syncs of the same encounter in flight at once subscribe the socket once: it leaves no subscription behind', async () => {
    const id = await encounter('Twice');
    const raw = await open();
    const answers = await Promise.all([
      raw.emitWithAck('join', { encounterId: id }),
      raw.emitWithAck('sync', { encounterId: id, since: 0 }),
      raw.emitWithAck('sync', { encounterId: id, since: 0 }),
    ]);
    for (const a of answers) expect(a).toMatchObject({ ok: true, version: 0 });
    const host = s.server.runtime.peek(id)!;
    expect(host.subscriberCount).toBe(1);
    expect(
      await raw.emitWithAck('command', {
        encounterId: id,
        commandId: 'once',
        command: { type: 'dice.roll', formula: '1d6', purpose: 'once' },
      }),
    ).toMatchObject({ ok: true });
    // gone: nothing of the socket stays subscribed (a second sink would keep the encounter in memory for good)
    raw.disconnect();
    await until(() => host.subscriberCount === 0, 10_000, 'the subscription to end');
  });
});
