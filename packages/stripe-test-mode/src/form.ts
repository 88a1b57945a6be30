// Stripe's request encoding: application/x-www-form-urlencoded with bracketed keys
// (`line_items[0][price]=price_x`, `metadata[userId]=…`, `expand[0]=…`), as the SDK writes it.
// Decoded into nested objects; keys that are all indexes become arrays.

type Node = Record<string, unknown>;

function toArrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const node = value as Node;
  const keys = Object.keys(node);
  for (const k of keys) node[k] = toArrays(node[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => node[k]);
  }
  return node;
}

export function decodeForm(body: string): Record<string, unknown> {
  const root: Node = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!parts) continue;
    const path = [parts[1]!, ...[...parts[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i]!;
      // __proto__ and friends never become keys of anything.
      if (k === '__proto__' || k === 'constructor' || k === 'prototype') break;
      if (typeof node[k] !== 'object' || node[k] === null) node[k] = {};
      node = node[k] as Node;
    }
    const last = path[path.length - 1]!;
    if (last === '__proto__' || last === 'constructor' || last === 'prototype') continue;
    node[last] = value;
  }
  return toArrays(root) as Record<string, unknown>;
}
