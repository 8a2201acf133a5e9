/** The `code` of a thrown Node error (ENOENT, EPERM…), or undefined when it has none. */
export function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/** A package.json's `version`, when it is a string. */
export function versionOf(pkg: unknown): string | undefined {
  return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : undefined;
}
