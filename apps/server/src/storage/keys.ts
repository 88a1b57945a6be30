/** Keys are path-like, server-made: segments of letters, digits, `-`, `_` and `.`; no `..`. */
export function assertKey(key: string): void {
  if (
    !/^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/.test(key) ||
    key.split('/').some((s) => s === '.' || s === '..') ||
    key.length > 500
  ) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}
