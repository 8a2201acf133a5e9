import { FrayError } from './errors.js';
import type { FraySocket } from './options.js';

/** Resolves when `socket` connects; rejects with the server's reason or on timeout. */
export function whenConnected(socket: FraySocket, url: string, timeoutMs: number, throughRetries = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(
          () => done(new FrayError({ code: 'UNAVAILABLE', message: `No connection to ${url} within ${timeoutMs} ms.` })),
          timeoutMs,
        )
      : undefined;
    const done = (err?: Error) => {
      clearTimeout(timer);
      socket.off('connect', ok);
      socket.off('connect_error', bad);
      if (err) reject(err);
      else resolve();
    };
    const ok = () => done();
    // throughRetries: a transport error (nothing listens yet) does not reject: socket.io's jittered
    // backoff tries the same socket again until the timeout; the server's refusal rejects at once
    const bad = (err: Error & { data?: { code?: string } }) => {
      if (throughRetries && !err.data && socket.active) return;
      done(new FrayError({ code: err.data?.code ?? 'UNAVAILABLE', message: err.message }));
    };
    if (socket.connected) return resolve();
    socket.once('connect', ok);
    socket.on('connect_error', bad);
  });
}
