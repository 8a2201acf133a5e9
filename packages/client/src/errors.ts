import type { WireError } from '@fray/protocol';

export class FrayError extends Error {
  readonly code: string;
  readonly rule: string | undefined;
  /** NOT_OWNER: the URL of the server process that runs the encounter */
  readonly ownerUrl: string | undefined;
  constructor(error: WireError & { ownerUrl?: string }) {
    super(error.message);
    this.name = 'FrayError';
    this.code = error.code;
    this.rule = error.rule;
    this.ownerUrl = typeof error.ownerUrl === 'string' ? error.ownerUrl : undefined;
  }
}

export function newCommandId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
