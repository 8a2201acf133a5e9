export function newCommandId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Codes after which a command may be sent again (same commandId) once the encounter is joined again. */
export const MOVED = new Set(['NOT_JOINED', 'UNAVAILABLE', 'ENCOUNTER_BUSY', 'NOT_OWNER']);
