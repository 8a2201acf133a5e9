import { randomUUID } from 'node:crypto';

/** The room every socket of an invite joins (for revocation across processes). */
export function inviteRoom(inviteId: string): string {
  return `invite:${inviteId}`;
}

/**
 * This process's lease owner id: its instance id (a new `fray-<uuid>` when none is given), with a
 * public URL `<instance>@<url>` (see ownerUrlOf). The store compares instances by the part before `@`.
 */
export function ownerIdFor(publicUrl: string | undefined, instanceId: string = `fray-${randomUUID()}`): string {
  return publicUrl ? `${instanceId}@${publicUrl}` : instanceId;
}

/** The advertised URL in a lease's owner id, or null when that process advertised none. */
export function ownerUrlOf(ownerId: string): string | null {
  const at = ownerId.indexOf('@');
  return at >= 0 ? ownerId.slice(at + 1) : null;
}
