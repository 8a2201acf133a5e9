import type { Socket as NetSocket } from 'node:net';
import * as parser from 'socket.io-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrayClient, EncounterMirror } from '@fray/client';
import { engineFlush, jsonParser, releaseUpgradeResponse, wsFragments } from '../src/transport.js';
import { connect, expectConverged, startServer, until, type TestServer } from './helpers.js';

describe('the JSON-only encoder', () => {
  it('encodes every packet Fray sends exactly as socket.io’s own encoder does', () => {
    const stock = new parser.Encoder();
    const ours = new jsonParser.Encoder();
    const packets: parser.Packet[] = [
      {
        type: parser.PacketType.EVENT,
        nsp: '/',
        data: ['patch', { encounterId: 'e1', from: 1, to: 2, ops: [{ op: 'replace', path: '/a~1b', value: 'é✓"\\' }], events: [] }],
      },
      {
        type: parser.PacketType.ACK,
        nsp: '/',
        id: 17,
        data: [{ ok: true, version: 3, events: [{ type: 'dice.rolled', dice: [1, 6], total: 7 }] }],
      },
      { type: parser.PacketType.ACK, nsp: '/', id: 0, data: [{ ok: false, error: { code: 'NOT_AUTHORIZED', message: 'no', rule: 'x' } }] },
      { type: parser.PacketType.EVENT, nsp: '/admin', data: ['closed', { encounterId: 'e1', reason: 'moved' }] },
      { type: parser.PacketType.CONNECT, nsp: '/', data: { sid: 'abc' } },
      { type: parser.PacketType.CONNECT_ERROR, nsp: '/', data: { message: 'Unknown token', data: { code: 'UNAUTHORIZED' } } },
      { type: parser.PacketType.DISCONNECT, nsp: '/' },
    ];
    for (const p of packets) expect(ours.encode(p)).toEqual(stock.encode(p));
  });

  it('decodes with the stock decoder, binary attachments included', () => {
    expect(jsonParser.Decoder).toBe(parser.Decoder);
  });
});

/** Every chunk handed to the kernel for one TCP socket, call by call (write or writev). */
function recordWrites(tcp: NetSocket): { calls: string[][]; stop: () => void } {
  const calls: string[][] = [];
  const t = tcp as unknown as {
    _write: (chunk: Buffer, enc: string, cb: () => void) => void;
    _writev: (chunks: Array<{ chunk: Buffer }>, cb: () => void) => void;
  };
  const write = t._write;
  const writev = t._writev;
  t._write = function (chunk, enc, cb) {
    calls.push([Buffer.from(chunk).toString('latin1')]);
    return write.call(this, chunk, enc, cb);
  };
  t._writev = function (chunks, cb) {
    calls.push(chunks.map((c) => Buffer.from(c.chunk).toString('latin1')));
    return writev.call(this, chunks, cb);
  };
  return {
    calls,
    stop: () => {
      t._write = write;
      t._writev = writev;
    },
  };
}

describe('a command’s patch and ack to its sender', () => {
  let s: TestServer;
  let gmClient: FrayClient, specClient: FrayClient;
  let gm: EncounterMirror, spec: EncounterMirror;
  let encounterId: string;

  beforeAll(async () => {
    s = await startServer({ runtime: { reactionSeconds: 0 } });
    const acc = await s.http('POST', '/accounts', { name: 'GM' });
    const gmToken = acc.body.token as string;
    const enc = await s.http('POST', '/encounters', { name: 'Writes', ruleset: 'skirmish', seed: 7 }, gmToken);
    encounterId = enc.body.id as string;
    for (const c of [
      { id: 'a', name: 'Ayla', side: 'pcs', stats: { hp: 12, init: 3 } },
      { id: 'b', name: 'Brute', side: 'npcs', stats: { hp: 20, init: 1 } },
    ])
      expect((await s.http('POST', `/encounters/${encounterId}/combatants`, c, gmToken)).status).toBe(201);
    const inv = await s.http('POST', `/encounters/${encounterId}/invites`, { role: 'spectator' }, gmToken);
    gmClient = await connect(s.url, gmToken);
    specClient = await connect(s.url, inv.body.token as string);
    gm = await gmClient.join(encounterId);
    spec = await specClient.join(encounterId);
  });

  afterAll(async () => {
    gmClient?.close();
    specClient?.close();
    await s?.close();
  });

  const tcpOfRole = (role: 'gm' | 'spectator'): NetSocket => {
    for (const sock of s.server.io.of('/').sockets.values()) {
      const p = (sock.data as { principal: { kind: string; role?: string } }).principal;
      const isGm = p.kind !== 'invite';
      if ((role === 'gm') === isGm) return (sock.conn.transport as unknown as { socket: { _socket: NetSocket } }).socket._socket;
    }
    throw new Error(`no ${role} socket`);
  };

  it('leave in one write (held for the turn), each frame whole; the other viewers get their patch as before', async () => {
    const gmTcp = tcpOfRole('gm');
    const specTcp = tcpOfRole('spectator');
    const g = recordWrites(gmTcp);
    const sp = recordWrites(specTcp);
    try {
      for (const command of [{ type: 'combat.start' }, { type: 'dice.roll', formula: '2d6', purpose: 'test' }] as const) {
        g.calls.length = 0;
        sp.calls.length = 0;
        const ack = await gm.command(command);
        expect(ack.ok).toBe(true);
        await expectConverged(s, encounterId, [gm, spec]);
        // the GM's socket: one call to the kernel carrying the patch frame and the ack frame
        expect(g.calls).toHaveLength(1);
        const sent = g.calls[0]!.join('');
        expect(sent).toContain('42["patch",');
        expect(sent).toMatch(/43\d+\[\{"ok":true,"version":/);
        expect(sent.indexOf('42["patch",')).toBeLessThan(sent.search(/43\d+\[/));
        // the spectator: its patch, in one call
        expect(sp.calls).toHaveLength(1);
        expect(sp.calls[0]!.join('')).toContain('42["patch",');
      }
    } finally {
      g.stop();
      sp.stop();
    }
    // nothing stays corked: a later message to the GM goes out at once
    expect(gmTcp.writableCorked).toBe(0);
  });

  it('no connection keeps its upgrade request once socket.io has its handshake (memory per socket)', () => {
    const sockets = [...s.server.io.of('/').sockets.values()];
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    for (const sock of sockets) {
      expect((sock.conn as unknown as { request: unknown }).request).toBeNull();
      // the handshake keeps what is still read once connected (the address, when it was issued)
      // and not the upgrade's headers, query or bearer token (Session 13)
      expect(typeof sock.handshake.address).toBe('string');
      expect(sock.handshake.issued).toBeGreaterThan(0);
      expect(sock.handshake.headers).toEqual({});
      expect(sock.handshake.auth).toEqual({});
      expect(sock.handshake.query).toEqual({});
      expect(JSON.stringify(sock.handshake)).not.toMatch(/fray_/);
    }
  });

  it('every socket shares the same listener functions: no closures made per connection (memory per socket)', () => {
    const sockets = [...s.server.io.of('/').sockets.values()];
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    const [a, b] = sockets as [(typeof sockets)[number], (typeof sockets)[number]];
    for (const event of ['join', 'leave', 'command', 'sync', 'actions', 'log', 'timer', 'disconnect'] as const) {
      expect(a.listeners(event)).toHaveLength(1);
      expect(a.listeners(event)[0]).toBe(b.listeners(event)[0]);
    }
    expect(a.listenersAny()).toEqual(b.listenersAny());
    expect(a.listenersAny()).toHaveLength(1);
  });

  it('a connection keeps one write buffer for its life, emptied after each flush (no dropped array left pointing at sent packets)', async () => {
    expect(engineFlush.installed).toBe(true);
    const conn = [...s.server.io.of('/').sockets.values()].map(
      (x) => x.conn as unknown as { writeBuffer: unknown[]; packetsFn: unknown[] },
    );
    const before = conn.map((c) => ({ writeBuffer: c.writeBuffer, packetsFn: c.packetsFn }));
    for (let i = 0; i < 3; i++) {
      const ack = await gm.command({ type: 'dice.roll', formula: '1d6', purpose: `buffer ${i}` });
      expect(ack.ok).toBe(true);
    }
    await expectConverged(s, encounterId, [gm, spec]);
    conn.forEach((c, i) => {
      expect(c.writeBuffer).toBe(before[i]!.writeBuffer);
      expect(c.packetsFn).toBe(before[i]!.packetsFn);
      expect(c.writeBuffer).toHaveLength(0);
      expect(c.packetsFn).toHaveLength(0);
    });
  });

  const receivers = () =>
    [...s.server.io.of('/').sockets.values()].map(
      (x) => (x.conn.transport as unknown as { socket: { _receiver: { _fragments: unknown[] } } }).socket._receiver,
    );

  it('a connection keeps one array of incoming frames for its life, emptied after each message (no dropped array left pointing at a read buffer)', async () => {
    expect(wsFragments.installed()).toBe(true);
    const rs = receivers();
    const before = rs.map((r) => r._fragments);
    for (let i = 0; i < 3; i++) {
      const ack = await gm.command({ type: 'dice.roll', formula: '1d6', purpose: `frames ${i}` });
      expect(ack.ok).toBe(true);
      await spec.sync(); // the spectator's socket reads too
    }
    rs.forEach((r, i) => {
      expect(r._fragments).toBe(before[i]);
      expect(r._fragments).toHaveLength(0);
    });
  });

  it('a message sent in several websocket frames still arrives whole', async () => {
    const ws = (gmClient.socket as unknown as { io: { engine: { transport: { ws: { send(d: string, o: { fin: boolean }): void } } } } }).io
      .engine.transport.ws;
    const version = spec.version;
    // an event with an ack id the client never used: the server's ack to it is dropped by the client
    const text = `42987654${JSON.stringify(['command', { encounterId, commandId: 'in-three-frames', command: { type: 'dice.roll', formula: '1d4', purpose: 'fragmented' } }])}`;
    const third = Math.ceil(text.length / 3);
    ws.send(text.slice(0, third), { fin: false });
    ws.send(text.slice(third, 2 * third), { fin: false });
    ws.send(text.slice(2 * third), { fin: true });
    await until(() => spec.version === version + 1, 10_000, 'the fragmented command applied');
    await expectConverged(s, encounterId, [gm, spec]);
    expect(receivers().every((r) => r._fragments.length === 0)).toBe(true);
  });

  it('the flush keeps engine.io’s behaviour: packets in order, the flush event with them, each send callback once after its write', async () => {
    const sock = [...s.server.io.of('/').sockets.values()][0]!;
    const conn = sock.conn as unknown as {
      sendPacket(type: 'noop', data: string, opts: object, cb: () => void): void;
      on(ev: 'flush', fn: (packets: Array<{ data: string }>) => void): void;
      off(ev: 'flush', fn: (packets: Array<{ data: string }>) => void): void;
    };
    const flushed: string[][] = [];
    const onFlush = (packets: Array<{ data: string }>) => flushed.push(packets.map((p) => p.data));
    conn.on('flush', onFlush);
    const sent: number[] = [];
    try {
      await new Promise<void>((resolve) => {
        // three engine.io noop packets (the client ignores them); engine.io batches what is written while a write is in flight
        for (let i = 0; i < 3; i++)
          conn.sendPacket('noop', `n${i}`, {}, () => {
            sent.push(i);
            if (sent.length === 3) resolve();
          });
      });
    } finally {
      conn.off('flush', onFlush);
    }
    expect(sent).toEqual([0, 1, 2]);
    expect(flushed.flat()).toEqual(['n0', 'n1', 'n2']);
  });

  it('a refused command (no patch) is acked at once, nothing held back', async () => {
    const gmTcp = tcpOfRole('gm');
    const g = recordWrites(gmTcp);
    try {
      const ack = await gm.command({ type: 'turn.end', combatantId: 'nobody' });
      expect(ack.ok).toBe(false);
      expect(g.calls).toHaveLength(1);
      expect(g.calls[0]!.join('')).toMatch(/43\d+\[\{"ok":false/);
    } finally {
      g.stop();
    }
    expect(gmTcp.writableCorked).toBe(0);
  });
});

describe('the websocket upgrade’s request and engine.io’s response for it', () => {
  it('are let go once the socket is connected: no engine.io close listener on the TCP socket, and the request is collected', async () => {
    const v8 = await import('node:v8');
    const vm = await import('node:vm');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const s = await startServer();
    const seen: Array<{ request: WeakRef<object>; tcp: NetSocket }> = [];
    s.server.io.engine.on('connection', (conn: { request: { socket: NetSocket } }) => {
      seen.push({ request: new WeakRef(conn.request), tcp: conn.request.socket });
    });
    const acc = await s.http('POST', '/accounts', { name: 'GM' });
    const client = await connect(s.url, acc.body.token as string);
    try {
      await until(() => seen.length === 1 && s.server.io.of('/').sockets.size === 1, 5000, 'the connection');
      const { request, tcp } = seen[0]!;
      // engine.io's listener is gone; the socket's own listeners are still there
      const bodies = tcp.rawListeners('close').map((l) => ((l as { listener?: () => void }).listener ?? l).toString().replace(/\s+/g, ''));
      expect(bodies).not.toContain('()=>this.emit("close")');
      expect(tcp.listenerCount('close')).toBeGreaterThan(0);
      for (let i = 0; i < 5 && request.deref(); i++) {
        await new Promise((r) => setImmediate(r));
        gc();
      }
      expect(request.deref(), 'the upgrade request is still reachable').toBeUndefined();
      // and the connection works as before
      const enc = await s.http('POST', '/encounters', { name: 'After', ruleset: 'skirmish', seed: 1 }, acc.body.token as string);
      const m = await client.join(enc.body.id as string);
      expect(m.version).toBe(0);
    } finally {
      client.close();
      await s.close();
    }
  });

  it('only engine.io’s exact listener is removed', async () => {
    const { EventEmitter } = await import('node:events');
    const tcp = new EventEmitter() as unknown as NetSocket;
    const owner = { emit: (_e: string) => true };
    const mine = () => owner.emit('closed');
    tcp.on('close', mine);
    tcp.once('close', function (this: unknown) {
      owner.emit('close');
    });
    expect(releaseUpgradeResponse(tcp)).toBe(0);
    const engines = function (this: { emit(e: string): void }) {
      return () => this.emit("close"); // prettier-ignore
    }.call(owner);
    tcp.once('close', engines);
    expect(releaseUpgradeResponse(tcp)).toBe(1);
    expect(tcp.listenerCount('close')).toBe(2);
    expect(releaseUpgradeResponse(undefined)).toBe(0);
  });
});
