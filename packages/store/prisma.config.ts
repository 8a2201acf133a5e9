// For operators with Prisma's native engines (`npx prisma migrate deploy|status`, run from this
// folder). Fray itself applies the migrations at start through the wasm engine (see
// docs/persistence.md) and needs none of this.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: '../../prisma/schema.prisma',
  migrations: { path: '../../prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/fray' },
});
