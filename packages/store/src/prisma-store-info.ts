/** What a PrismaStore is told about its database (open.ts and testing.ts make it). */
export interface PrismaStoreInfo {
  kind: 'postgres' | 'embedded';
  description: string;
  /** the connection URL (may hold credentials: never display it) and Postgres schema, if any */
  url?: string;
  schema?: string;
  /** runs after the client disconnected (stops the embedded database, drops a test schema...) */
  onClose?: () => Promise<void>;
  /**
   * the pg pool under Prisma's adapter: the hot-path statements go straight through it as plain
   * parameterized queries (the log append, one call per group commit: through Prisma it cost 3–4 ms
   * more per commit, 4 ms against 7–8 ms at p50 on this machine; the snapshot; the lookup of an
   * entry by command id)
   */
  pool: { query<R extends object = object>(text: string, values: unknown[]): Promise<{ rowCount: number | null; rows: R[] }> };
}
