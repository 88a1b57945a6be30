// Rules that every record the core takes meets already need no work per record there: a rule
// that names only filled cells (required CSV columns, which the core stops at when empty).
import { describe, expect, it } from 'vitest';
import type { CrossFieldRule, FieldSpec } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { coreRule, type RuleField } from './rule-ops.ts';

const parsed = parseSchema({
  name: 'filled',
  fileType: 'csv',
  fields: [
    { name: 'a', type: 'string', required: true },
    { name: 'b', type: 'string', required: false },
    { name: 'c', type: 'string', required: false },
  ],
});
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
const specs = parsed.value.fields;

function fieldOf(name: string): RuleField {
  const column = specs.findIndex((f) => f.name === name);
  const spec = specs[column] as FieldSpec;
  return { spec, column, checked: true, filled: spec.required };
}

const kindOf = (rule: CrossFieldRule) => {
  const core = coreRule(rule, fieldOf);
  return core === null || core === 'holds' ? core : core.kind;
};

describe('rules the core proves without a check per record', () => {
  it('requiredWhen of a filled field holds; of another it is checked', () => {
    const when = { field: 'c', op: '=', value: 'x' } as const;
    expect(kindOf({ kind: 'requiredWhen', field: 'a', when })).toBe('holds');
    expect(kindOf({ kind: 'requiredWhen', field: 'b', when })).toBe('any');
    expect(kindOf({ kind: 'emptyWhen', field: 'a', when })).toBe('any');
  });

  it('requireOneOf holds when filled fields reach min and all of them stay within max', () => {
    expect(kindOf({ kind: 'requireOneOf', fields: ['a', 'b'] })).toBe('holds');
    expect(kindOf({ kind: 'requireOneOf', fields: ['b', 'c'] })).toBe('count');
    expect(kindOf({ kind: 'requireOneOf', fields: ['a', 'b'], min: 2 })).toBe('count');
    expect(kindOf({ kind: 'requireOneOf', fields: ['a', 'b'], max: 1 })).toBe('count');
    expect(kindOf({ kind: 'requireOneOf', fields: ['a', 'b'], min: 1, max: 2 })).toBe('holds');
  });
});
