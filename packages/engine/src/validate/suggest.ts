// "Did you mean": for a value that misses an allowed-value list (an enum or a reference list) by
// case, spacing, accents or a small typo, the listed value it nearly is. The index is built once
// per list, on its first miss, and a lookup never scans the list:
// - a normalised key (accents stripped, lower case, spaces collapsed) → the first value with it;
// - a symmetric-delete index (SymSpell's idea): every normalised value of 4+ characters is stored
//   under itself and each string made by deleting one or two of its characters; a miss looks up
//   its own deletions the same way, and each candidate found is confirmed by computing the edit
//   distance (Damerau–Levenshtein, at most 2). Two strings within distance 2 always share such a
//   deletion, so nothing within reach is missed.
// The deletion index costs about L²/2 entries per value of length L; a list whose total would pass
// MAX_DELETIONS keeps only the normalised-key part (large reference lists still get case, spacing
// and accent suggestions, in bounded memory).

/** Values shorter than this (after normalising) get no edit-distance suggestions. */
const MIN_TYPO_LENGTH = 4;
const MAX_DISTANCE = 2;
/** Upper bound on deletion entries for one list (≈ tens of MB at most). */
const MAX_DELETIONS = 2_000_000;
/** Longer values are matched by normalised key only: their deletions would cost too much. */
const MAX_TYPO_LENGTH = 64;

export interface Suggester {
  /** The listed value `value` nearly is, or undefined. */
  suggest(value: string): string | undefined;
}

const COMBINING = /\p{M}+/gu;
const SPACES = /\s+/g;

/** Already normal: printable ASCII without capitals, single inner spaces, no outer ones. */
const PLAIN = /^[!-@[-~]+(?: [!-@[-~]+)*$/;

export function normaliseForSuggestion(value: string): string {
  // Most list values are plain already; only the rest pay for NFD and the replacements.
  if (PLAIN.test(value)) return value;
  return value.normalize('NFD').replace(COMBINING, '').toLowerCase().replace(SPACES, ' ').trim();
}

/** The suggester of one list, built on its first use. */
export function lazySuggester(values: () => Iterable<string>): Suggester {
  let built: Suggester | undefined;
  return {
    suggest(value) {
      built ??= buildSuggester(values());
      return built.suggest(value);
    },
  };
}

export function buildSuggester(list: Iterable<string>): Suggester {
  const values: ReadonlySet<string> = list instanceof Set ? list : new Set(list);
  // Plain values are their own key: only the others are kept in a map, so a large reference list
  // of plain codes costs one pass and no second copy.
  const byKey = new Map<string, string>();
  let deletionBudget = 0;
  for (const value of values) {
    const key = normaliseForSuggestion(value);
    if (key !== value && !byKey.has(key)) byKey.set(key, value);
    const n = key.length;
    if (n >= MIN_TYPO_LENGTH && n <= MAX_TYPO_LENGTH) deletionBudget += 1 + n + (n * (n - 1)) / 2;
  }
  const keyed = (key: string): string | undefined =>
    byKey.get(key) ?? (values.has(key) ? key : undefined);

  let deletions: Map<string, number | number[]> | undefined;
  const keys: string[] = [];
  const originals: string[] = [];
  if (deletionBudget <= MAX_DELETIONS) {
    deletions = new Map();
    const index = deletions;
    const ids = new Map<string, number>();
    for (const value of values) {
      const key = normaliseForSuggestion(value);
      if (ids.has(key)) continue;
      const id = keys.length;
      ids.set(key, id);
      keys.push(key);
      originals.push(value);
      if (key.length < MIN_TYPO_LENGTH || key.length > MAX_TYPO_LENGTH) continue;
      for (const d of deletionsOf(key)) {
        const known = index.get(d);
        if (known === undefined) index.set(d, id);
        else if (typeof known === 'number') index.set(d, [known, id]);
        else known.push(id);
      }
    }
  }
  return {
    suggest(value) {
      const key = normaliseForSuggestion(value);
      const same = keyed(key);
      if (same !== undefined) return same === value ? undefined : same;
      if (
        deletions === undefined ||
        key.length < MIN_TYPO_LENGTH ||
        key.length > MAX_TYPO_LENGTH + MAX_DISTANCE
      )
        return undefined;
      let best = -1;
      let bestDistance = MAX_DISTANCE + 1;
      for (const d of deletionsOf(key)) {
        const found = deletions.get(d);
        if (found === undefined) continue;
        for (const id of typeof found === 'number' ? [found] : found) {
          if (id === best) continue;
          const distance = editDistance(key, keys[id] as string, bestDistance + 1);
          // Closest first; between equals, the one listed first.
          if (distance < bestDistance || (distance === bestDistance && id < best)) {
            best = id;
            bestDistance = distance;
          }
        }
      }
      return best < 0 ? undefined : originals[best];
    },
  };
}

/** The string itself and every string made by deleting one or two of its characters. */
function deletionsOf(key: string): Set<string> {
  const out = new Set<string>([key]);
  for (let i = 0; i < key.length; i++) {
    const one = key.slice(0, i) + key.slice(i + 1);
    out.add(one);
    for (let j = i; j < one.length; j++) out.add(one.slice(0, j) + one.slice(j + 1));
  }
  return out;
}

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions, adjacent swaps), or
 * `limit` (or more) as soon as it cannot be below `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      )
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= limit) return limit;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n] as number, limit);
}
