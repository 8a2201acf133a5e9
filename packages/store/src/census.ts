import { connectLike } from './backup.js';
import type { Store } from './types.js';

/** Every encounter id in the store's database with its version (for checks after a copy). */
export async function allEncounters(store: Store): Promise<Array<{ id: string; version: number }>> {
  const client = await connectLike(store);
  try {
    const { rows } = await client.query<{ id: string; version: number }>('SELECT id, version FROM encounters ORDER BY id');
    return rows;
  } finally {
    await client.end().catch(() => {});
  }
}
