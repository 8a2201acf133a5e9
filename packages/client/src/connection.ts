import type { Socket } from 'socket.io-client';
import { FrayError } from './errors.js';

/**
 * Resolves when `socket` connects; rejects with the server's reason (its `connect_error` data's
 * code, e.g. UNAUTHORIZED), or UNAVAILABLE naming `url` after `timeoutMs`. With `throughRetries`, a
 * transport error (nothing listens yet) does not reject: socket.io's jittered backoff tries the
 * same socket again until the timeout; the server's refusal rejects at once.
 */
export function whenConnected(socket: Socket, url: string, timeoutMs: number, throughRetries = false): Promise<void> {
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
    const bad = (err: Error & { data?: { code?: string } }) => {
      if (throughRetries && !err.data && socket.active) return;
      done(new FrayError({ code: err.data?.code ?? 'UNAVAILABLE', message: err.message }));
    };
    if (socket.connected) return resolve();
    socket.once('connect', ok);
    socket.on('connect_error', bad);
  });
}
