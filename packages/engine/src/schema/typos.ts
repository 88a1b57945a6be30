// Keys that are certainly misspellings of a known one. A rule the reader does not know is
// ignored with a warning; but `maxLenght` or `patern` is a rule the user meant to have checked,
// and going on without it would pass data the user wanted refused. Such a key is a problem that
// names the key meant (docs/decisions/131).

/**
 * The known key `key` was certainly meant to be: the same letters in another case, or within an
 * edit (insert, delete, change, swap of neighbours) of a short key and two of a long one. Only an
 * unambiguous nearest key counts; `note` is not taken for `name`.
 */
export function misspeltKey(key: string, known: Iterable<string>): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const candidate of known) {
    if (candidate === key) return undefined;
    if (candidate.toLowerCase() === lower) return candidate;
    const allowed = candidate.length >= 6 ? 2 : 1;
    const d = editDistance(lower, candidate.toLowerCase(), allowed);
    if (d > allowed) continue;
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

/** The problem's message for a misspelt key. */
export function misspeltMessage(meant: string, kind: 'rule' | 'option'): string {
  return `unknown ${kind}; did you mean "${meant}"?`;
}

/**
 * Optimal string alignment distance (Levenshtein with swaps of neighbours), giving up above
 * `limit`: keys are short, and anything further than the limit is not a typo.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      }
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
