/** Run by make.sh with this checkout's code: the previous release's database, backed up as it is (no migration). */
import { backupToFile, openStore } from '@fray/store';

const store = await openStore({ dataDir: process.env.FIXTURE_DATA_DIR!, skipMigrations: true, poolSize: 1 });
await backupToFile(store, process.env.FIXTURE_FILE!);
await store.close();
process.exit(0);
