/** Read-only replay links over the Prisma client (the contract: replay-links-types.ts). */
import type { PrismaClient } from './generated/prisma/client.js';
import { mapError } from './errors.js';
import type { ReplayLinkRecord, ReplayLinksStore } from './replay-links-types.js';

const select = { id: true, encounterId: true, viewer: true, branch: true, revoked: true, expiresAt: true, createdAt: true } as const;

/** The replay links over the Prisma client. */
export class PrismaReplayLinks implements ReplayLinksStore {
  constructor(private readonly prisma: PrismaClient) {}

  private async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw mapError(error, what);
    }
  }

  create(input: Omit<ReplayLinkRecord, 'createdAt' | 'revoked'> & { tokenHash: string }): Promise<ReplayLinkRecord> {
    return this.run('createReplayLink', () => this.prisma.replayLink.create({ data: input, select }));
  }

  findByTokenHash(tokenHash: string): Promise<ReplayLinkRecord | null> {
    return this.run('findReplayLink', () => this.prisma.replayLink.findUnique({ where: { tokenHash }, select }));
  }

  list(encounterId: string): Promise<ReplayLinkRecord[]> {
    return this.run('listReplayLinks', () =>
      this.prisma.replayLink.findMany({ where: { encounterId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select }),
    );
  }

  revoke(encounterId: string, id: string): Promise<boolean> {
    return this.run(
      'revokeReplayLink',
      async () => (await this.prisma.replayLink.updateMany({ where: { encounterId, id }, data: { revoked: true } })).count > 0,
    );
  }
}
