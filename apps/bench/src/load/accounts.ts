/** GM accounts for the generators' encounters, written straight into Fray's database (setup, not measured). */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * One GM account per encounter (as a table has its GM), written straight into the database:
 * setup, not measured, and POST /accounts is rate limited per address.
 */
export async function gmTokens(db: pg.Client, E: number): Promise<string[]> {
  const tokens: string[] = [];
  const run = randomBytes(4).toString('hex');
  for (let i = 0; i < E; i += 500) {
    const ids: string[] = [];
    const hashes: string[] = [];
    for (let k = i; k < Math.min(E, i + 500); k++) {
      const token = `fray_gm_bench${run}x${k}${randomBytes(12).toString('base64url')}`;
      tokens.push(token);
      ids.push(`acc_bench_${run}_${k}`);
      hashes.push(createHash('sha256').update(token).digest('hex'));
    }
    await db.query('INSERT INTO accounts (id, token_hash, name) SELECT * FROM unnest($1::text[], $2::text[], $1::text[])', [ids, hashes]);
  }
  return tokens;
}
