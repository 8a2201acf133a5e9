/**
 * The transport floor: a bare socket.io server. A client joins a room; a `cmd` makes the server
 * broadcast one message of BENCH_PAYLOAD bytes (Fray's average patch frame) to the room and ack.
 * Prints `LISTENING <port>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const size = Math.max(32, Number(process.env.BENCH_PAYLOAD ?? 600));
// the frame is 2["msg","r123",456,"xxx…"]: the filler makes it `size` bytes in all
const filler = 'x'.repeat(Math.max(1, size - 24));
const httpServer = createServer();
const io = new Server(httpServer, { serveClient: false, transports: ['websocket'] });
io.on('connection', (socket) => {
  socket.on('join', (room: string, ack: (x: unknown) => void) => {
    void socket.join(room);
    ack(true);
  });
  socket.on('cmd', (m: { room: string; seq: number }, ack: (x: unknown) => void) => {
    io.to(m.room).emit('msg', m.room, m.seq, filler);
    ack({ ok: true });
  });
});
// the same accept queue as Fray's server (apps/server/src/server.ts LISTEN_BACKLOG)
httpServer.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1', backlog: 4096 }, () => {
  console.log(`LISTENING ${(httpServer.address() as AddressInfo).port}`);
});
// exit on SIGTERM through process.exit, so that a --cpu-prof given by BENCH_PEER_NODE_ARGS is written
process.on('SIGTERM', () => process.exit(0));
