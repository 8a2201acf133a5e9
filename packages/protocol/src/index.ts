/**
 * Every message that crosses the wire, as zod schemas: the HTTP bodies and replies, and the
 * socket.io events. The server validates everything it receives with these; the typed client
 * (`@fray/client`) and the web client share them. See docs/protocol.md.
 */
export * from './accounts.js';
export * from './errors.js';
export * from './common.js';
export * from './http.js';
export * from './socket.js';
