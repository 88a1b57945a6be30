// Text that PostgreSQL cannot hold (docs/decisions/060): `text` and `jsonb` refuse U+0000, and
// `jsonb` refuses an escaped lone UTF-16 surrogate (`"\ud800"`), which JSON.parse accepts and
// JSON.stringify writes back. Request input with either is refused before it reaches the
// database; what the engine reports about a user's file (values, field names, paths) is stored
// with each such character replaced by U+FFFD.

/** U+0000, or a surrogate that is not half of a pair (the pattern reads UTF-16 code units). */
const UNSTORABLE_SOURCE =
  '\\u0000|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const UNSTORABLE_ONE = new RegExp(UNSTORABLE_SOURCE);
const UNSTORABLE = new RegExp(UNSTORABLE_SOURCE, 'g');

/** True when `s` holds U+0000 or a lone surrogate. */
export function isUnstorable(s: string): boolean {
  return UNSTORABLE_ONE.test(s);
}

/** `s` with U+0000 and lone surrogates replaced by U+FFFD. */
export function storableString(s: string): string {
  return isUnstorable(s) ? s.replace(UNSTORABLE, '\ufffd') : s;
}

/**
 * The first string (value or object key) in a parsed JSON value that cannot be stored, as a
 * path such as `fields.2.name`, or null. `maxDepth` bounds the walk (bodies are depth-capped
 * before parsing, so it is never reached in practice).
 */
export function findUnstorable(value: unknown, maxDepth = 200): string | null {
  const walk = (v: unknown, path: string, depth: number): string | null => {
    if (typeof v === 'string') return isUnstorable(v) ? path : null;
    if (typeof v !== 'object' || v === null || depth > maxDepth) return null;
    // Raw bodies (a webhook's signed bytes) are not text fields.
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], path === '' ? String(i) : `${path}.${i}`, depth + 1);
        if (found !== null) return found;
      }
      return null;
    }
    for (const [key, item] of Object.entries(v)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (isUnstorable(key)) return storableString(at);
      const found = walk(item, at, depth + 1);
      if (found !== null) return found;
    }
    return null;
  };
  return walk(value, '', 0);
}

/** A copy of a JSON-like value whose strings and keys are all storable. */
export function storableJson<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return storableString(v);
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) out[storableString(key)] = walk(item);
    return out;
  };
  return walk(value) as T;
}

/**
 * Where an exact copy matters (an answer replayed to an idempotent retry, the schema a queued job
 * will run with), a value that cannot be stored as it is goes into jsonb as its JSON text under
 * this one key: JSON.stringify writes U+0000 and lone surrogates as `\u` escapes, plain text
 * that jsonb accepts. `fromStorableJsonb` gives the value back unchanged.
 */
const JSON_TEXT_KEY = '$schemacheck:json';

/** `value` itself when storable; otherwise its JSON text wrapped so that jsonb accepts it. */
export function toStorableJsonb(value: unknown): unknown {
  if (findUnstorable(value) === null && !isWrapped(value)) return value;
  return { [JSON_TEXT_KEY]: JSON.stringify(value) ?? 'null' };
}

/** The value `toStorableJsonb` was given. */
export function fromStorableJsonb(stored: unknown): unknown {
  return isWrapped(stored) ? JSON.parse(stored[JSON_TEXT_KEY]) : stored;
}

function isWrapped(v: unknown): v is Record<typeof JSON_TEXT_KEY, string> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as Record<string, unknown>)[JSON_TEXT_KEY] === 'string' &&
    Object.keys(v).length === 1
  );
}
