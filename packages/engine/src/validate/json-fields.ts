// Schema fields as a tree over JSON property names: `address.zip` is property `zip` of the object
// in property `address`, unless the field's own `path` says otherwise (a JSON Schema property
// named `a.b` is `["a.b"]`). Paths are precomputed so a record's walk builds none unless it
// reports something.

import { LosslessNumber, type FieldSpec, type SchemaModel } from '../model.ts';
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
  /** Required fields and objects at or below this node: reported when the whole object is absent. */
  requiredBelow: JsonNode[];
  /** Its value must be an object (nested fields or an object the schema describes). */
  object: boolean;
  /** As an object, properties it does not describe are reported (additionalProperties false). */
  strict: boolean;
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

function node(key: string, parent: JsonNode | undefined, strict: boolean): JsonNode {
  return {
    key,
    name: parent === undefined || parent.name === '' ? key : `${parent.name}.${key}`,
    relPath: parent === undefined ? '' : parent.relPath + pathSegment(key),
    field: undefined,
    children: [],
    childKeys: new Set(),
    requiredBelow: [],
    object: false,
    strict,
    inherited: key in Object.prototype,
  };
}

/**
 * `fields` are the schema's fields compiled, in the same order. The record is strict when the
 * schema's `additionalProperties` is false; a nested object only when its own ObjectSpec says so
 * or, with none, like the record (web forms and the public API have one setting for every level).
 */
export function buildJsonTree(schema: SchemaModel, fields: readonly CompiledField[]): JsonNode {
  const strict = !schema.additionalProperties;
  const root = node('', undefined, strict);
  root.object = true;
  /** The node at `keys`, made with every object on the way; `trail` gets the nodes below root. */
  const reach = (keys: readonly string[], trail: JsonNode[]): JsonNode => {
    let current = root;
    for (const key of keys) {
      let child = current.children.find((c) => c.key === key);
      if (child === undefined) {
        child = node(key, current, strict);
        current.children.push(child);
        current.childKeys.add(key);
        current.object = true;
      }
      trail.push(child);
      current = child;
    }
    return current;
  };
  fields.forEach((field, i) => {
    const trail: JsonNode[] = [];
    const at = reach(schema.fields[i]?.path ?? field.name.split('.'), trail);
    at.field = field;
    // Absent objects above requiredWithin are optional: the field is not reported then.
    const spec = schema.fields[i];
    if (spec?.required === true)
      for (const n of trail.slice(spec.requiredWithin ?? 0)) n.requiredBelow.push(at);
  });
  for (const object of schema.objects ?? []) {
    const trail: JsonNode[] = [];
    const at = reach(object.path, trail);
    at.object = true;
    if (object.additionalProperties !== undefined) at.strict = !object.additionalProperties;
    if (object.required === true)
      for (const n of trail.slice(object.requiredWithin ?? 0)) n.requiredBelow.push(at);
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

/**
 * Which JSON scalars a cross-field rule reads as their text in a field of this spec: a string for
 * the text types, a number for number fields, true or false for booleans, and any scalar for a
 * field of any type or an enum. Any other value is present but never compared (already a `type`
 * error). One reading for the normal path (json-records.ts) and the fast path (json-quick.ts).
 */
export interface SlotReading {
  strings: boolean;
  numbers: boolean;
  booleans: boolean;
}

export function slotReading(spec: FieldSpec): SlotReading {
  const numeric = spec.type === 'integer' || spec.type === 'number';
  const loose = spec.anyValue === true || spec.type === 'enum';
  return {
    strings: !numeric && spec.type !== 'boolean',
    numbers: numeric || loose,
    booleans: spec.type === 'boolean' || loose,
  };
}

/** A scalar's text as a rule reads it (slotReading); undefined: present but never compared. */
export function slotText(reading: SlotReading, value: unknown): string | undefined {
  if (typeof value === 'string') return reading.strings ? value : undefined;
  if (typeof value === 'number') return reading.numbers ? String(value) : undefined;
  if (value instanceof LosslessNumber) return reading.numbers ? value.raw : undefined;
  if (typeof value === 'boolean') return reading.booleans ? String(value) : undefined;
  return undefined;
}
