// The split of a schema's cross-field rules between the byte core and JavaScript, for the CSV
// and JSON byte paths alike (validate/csv-bytes.ts, validate/json-bytes.ts).

import type { CrossFieldRule } from '../model.ts';
import type { CompiledRules, RuleSubset } from '../validate/cross-field.ts';
import type { SeenValues } from '../validate/rules/unique.ts';
import type { CoreRule } from './csv-program.ts';
import { moveKeyTables, type KeyTableExports } from './key-tables.ts';
import { coreRule, type RuleField } from './rule-ops.ts';

/**
 * The bound rules split between the core and JavaScript: the conditions the core proves (some
 * rules hold for every record it takes and need none), with the keys' tables moved into the core
 * (a key rule whose table cannot move stays in JavaScript), and the rules left to JavaScript.
 */
export function proveRules(
  rules: CompiledRules,
  schemaRules: readonly CrossFieldRule[],
  fieldOf: (name: string) => RuleField,
  core: KeyTableExports,
): { coreRules: CoreRule[]; left: RuleSubset } {
  const taken = new Map<number, CoreRule | 'holds'>();
  for (const index of rules.bound()) {
    const proved = coreRule(schemaRules[index] as CrossFieldRule, fieldOf);
    if (proved !== null) taken.set(index, proved);
  }
  const keys = [...taken].filter(([, r]) => r !== 'holds' && r.kind === 'key');
  const tables = moveKeyTables(
    core,
    keys.map(([index]) => rules.seenOf(index) as SeenValues),
  );
  keys.forEach(([index, rule], k) => {
    if (tables === null) taken.delete(index);
    else (rule as Extract<CoreRule, { kind: 'key' }>).table = tables[k] as number;
  });
  const coreRules = [...taken.values()].filter((r) => r !== 'holds');
  return { coreRules, left: rules.without(new Set(taken.keys())) };
}
