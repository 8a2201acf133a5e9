/**
 * A lean socket.io client for the capacity run: the engine.io v4 / socket.io v5 wire protocol over
 * one `ws` WebSocket, text packets only, the default namespace. A socket.io-client socket keeps a
 * Manager, an engine.io socket, reconnection timers and emitters per connection; this keeps the
 * WebSocket, one handler and the pending acks, so one generator process holds tens of thousands.
 *
 * Packets (engine.io type digit, then socket.io type digit for messages):
 *   0{sid,pingInterval,...} open        2 / 3          ping (server) / pong (client)
 *   40{auth}  connect (client)          40{sid}        connected     44{message,data} refused
 *   42<id>["event",payload] event       43<id>[answer] the ack of event <id>
 * The packets are encoded and decoded by socket.io-parser (the library the real client uses).
 */
import { Decoder, Encoder, PacketType, type Packet } from 'socket.io-parser';
import WebSocket from 'ws';

/** A refusal of the handshake: socket.io's CONNECT_ERROR, with the server's code (UNAUTHORIZED…). */
export class ConnectRefused extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

const encoder = new Encoder();
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export class LeanSocket {
  private readonly ws: WebSocket;
  private readonly acks = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private readonly decoder = new Decoder();
  private nextId = 0;
  /** called with every server event (its name, its arguments) */
  onEvent: ((name: string, args: unknown[]) => void) | null = null;
  /** called once when the connection closes (by either side) */
  onClose: (() => void) | null = null;

  private constructor(url: string, localAddress: string | undefined) {
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, {
      perMessageDeflate: false,
      ...(localAddress ? { localAddress } : {}),
    });
  }

  /**
   * Connects and authenticates (`auth`: socket.io's handshake auth, e.g. { token }). `localAddress`:
   * the source address (another 127.x.y.z: one source address has about 28,000 ephemeral ports to
   * one server port).
   */
  static connect(
    url: string,
    auth: Record<string, unknown> | undefined,
    o: { timeoutMs?: number; localAddress?: string } = {},
  ): Promise<LeanSocket> {
    const timeoutMs = o.timeoutMs ?? 30_000;
    const s = new LeanSocket(url, o.localAddress);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error('connect timeout')), timeoutMs);
      const fail = (e: Error) => {
        clearTimeout(timer);
        s.ws.terminate();
        reject(e);
      };
      s.decoder.on('decoded', (p: Packet) => {
        if (p.type === PacketType.CONNECT) {
          clearTimeout(timer);
          s.decoder.off('decoded');
          s.decoder.on('decoded', (q: Packet) => s.packet(q));
          resolve(s);
        } else if (p.type === PacketType.CONNECT_ERROR) {
          const code = isRecord(p.data) && isRecord(p.data.data) && typeof p.data.data.code === 'string' ? p.data.data.code : undefined;
          fail(new ConnectRefused(isRecord(p.data) ? String(p.data.message) : 'refused', code));
        }
      });
      s.ws.on('message', (data: Buffer) => s.frame(data.toString(), auth));
      s.ws.once('error', (e) => fail(e));
      s.ws.once('close', () => {
        for (const a of s.acks.values()) {
          clearTimeout(a.timer);
          a.reject(new Error('connection closed'));
        }
        s.acks.clear();
        s.onClose?.();
      });
    });
  }

  /** one engine.io frame: open, ping, or a socket.io message */
  private frame(text: string, auth: Record<string, unknown> | undefined): void {
    const kind = text.charCodeAt(0);
    if (kind === 0x32 /* 2: ping */) this.ws.send('3');
    else if (kind === 0x30 /* 0: open */) this.send({ type: PacketType.CONNECT, nsp: '/', ...(auth ? { data: auth } : {}) });
    else if (kind === 0x34 /* 4: message */) this.decoder.add(text.slice(1));
  }

  private packet(p: Packet): void {
    if (p.type === PacketType.ACK && p.id !== undefined) {
      const a = this.acks.get(p.id);
      if (!a) return;
      this.acks.delete(p.id);
      clearTimeout(a.timer);
      a.resolve(Array.isArray(p.data) ? p.data[0] : undefined);
    } else if (p.type === PacketType.EVENT && Array.isArray(p.data) && typeof p.data[0] === 'string') {
      this.onEvent?.(p.data[0], p.data.slice(1));
    }
  }

  private send(p: Packet): void {
    for (const part of encoder.encode(p)) this.ws.send(`4${String(part)}`);
  }

  /** Emits `event` with `payload` and waits for its ack (rejects after `timeoutMs` or when the socket closes). */
  request(event: string, payload: unknown, timeoutMs = 30_000): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.acks.delete(id);
        reject(new Error(`no ack for ${event} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.acks.set(id, { resolve, reject, timer });
      this.send({ type: PacketType.EVENT, nsp: '/', id, data: [event, payload] });
    });
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.ws.close();
  }
}
