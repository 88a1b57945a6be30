// Schema fields as a tree over JSON property names: `address.zip` is property `zip` of the object
// in property `address`. Dotted names always mean nesting in JSON (a flat property whose name
// contains a dot cannot be addressed). Paths are precomputed so a record's walk builds none
// unless it reports something.

import { LosslessNumber } from '../model.ts';
import type { CompiledField } from './compile.ts';

export interface JsonNode {
  /** Property name within the parent object ('' for the record itself). */
  key: string;
  /** Dotted name from the record: 'address.zip' ('' for the record). */
  name: string;
  /** JSON path below the record: '.address.zip', `['first name']`. */
  relPath: string;
  /** The field checked on this property's value, if the schema names it. */
  field: CompiledField | undefined;
  children: JsonNode[];
  /** Property names the schema describes inside this object. */
  childKeys: Set<string>;
  /** Required fields at or below this node: reported when the whole object is absent. */
  requiredBelow: JsonNode[];
  /** The key is also an Object.prototype member (`constructor`, `__proto__`): look it up as own only. */
  inherited: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `.name` for identifiers, `['other name']` otherwise (JSONPath's normalised form). */
export function pathSegment(key: string): string {
  return IDENTIFIER.test(key)
    ? `.${key}`
    : `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

function node(key: string, parent: JsonNode | undefined): JsonNode {
  return {
    key,
    name: parent === undefined || parent.name === '' ? key : `${parent.name}.${key}`,
    relPath: parent === undefined ? '' : parent.relPath + pathSegment(key),
    field: undefined,
    children: [],
    childKeys: new Set(),
    requiredBelow: [],
    inherited: key in Object.prototype,
  };
}

export function buildJsonTree(fields: readonly CompiledField[]): JsonNode {
  const root = node('', undefined);
  for (const field of fields) {
    let current = root;
    const trail: JsonNode[] = [];
    for (const key of field.name.split('.')) {
      let child = current.children.find((c) => c.key === key);
      if (child === undefined) {
        child = node(key, current);
        current.children.push(child);
        current.childKeys.add(key);
      }
      trail.push(child);
      current = child;
    }
    current.field = field;
    if (field.required) for (const n of trail) n.requiredBelow.push(current);
  }
  return root;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof LosslessNumber)
  );
}
