import type { WireError } from '@fray/protocol';

/** A refusal from the server, as an Error: its code, the rule that forbids, and (NOT_OWNER) where the encounter runs. */
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
