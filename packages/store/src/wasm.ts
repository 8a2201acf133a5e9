/**
 * Node's WebAssembly global as this package uses it: PGlite's Postgres compiled once per process
 * (embedded.ts) and Prisma's schema engine instantiated (migrate.ts). The project's lib settings
 * (ES2023, no DOM) do not declare it.
 */
declare global {
  var WebAssembly: {
    compile(bytes: Uint8Array): Promise<object>;
    instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
  };
}

export const wasmApi = globalThis.WebAssembly;
