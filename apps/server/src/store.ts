import type { Store } from '@fray/store';

/** The store the server runs on: `@fray/store`'s `Store` (Postgres or the embedded PGlite). */
export type ServerStore = Store;
