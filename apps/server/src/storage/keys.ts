// Storage keys (docs/decisions/064). Keys are path-like and made by the server only, never from
// a user's file name. EVERYTHING stored for a user lives under that user's prefix, so that
// deleting the account removes it all with one `deletePrefix(userPrefix(id))`, whether or not a
// database row points to it, and the periodic sweep can remove what an account left behind:
//
//   <userId>/<resultId>.csv          full error report of a validation result
//   <userId>/<area>/<name>           anything else of the user's (e.g. `jobs/<jobId>.upload`);
//                                    pick an area folder of your own, keep names server-made
//
// Build keys with userKey(); a top-level key outside a user prefix would survive the account.

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

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

/** The prefix (folder) that holds everything of one user: `<userId>`. */
export function userPrefix(userId: string): string {
  if (!SEGMENT.test(userId) || userId === '.' || userId === '..') {
    throw new Error(`Invalid user id for a storage key: ${JSON.stringify(userId)}`);
  }
  return userId;
}

/** A key under the user's prefix: userKey(id, 'jobs', `${jobId}.upload`). */
export function userKey(userId: string, ...parts: string[]): string {
  const key = [userPrefix(userId), ...parts].join('/');
  assertKey(key);
  return key;
}
