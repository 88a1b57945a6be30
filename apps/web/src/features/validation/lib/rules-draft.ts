import type { CrossFieldRule } from '@schemacheck/engine';

// The builder's cross-field rules (docs/engine.md, "Cross-field rules"; docs/decisions/204): one
// draft shape for every kind, each input kept as typed; the engine names what is missing or
// wrong by path (rules[2].right), shown above the fields like any schema problem.

export const RULE_KINDS = [
  'requiredWhen',
  'emptyWhen',
  'allowedValuesWhen',
  'compare',
  'requireOneOf',
  'sum',
  'uniqueTogether',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export const RULE_KIND_LABELS: Record<RuleKind, string> = {
  requiredWhen: 'is required when',
  emptyWhen: 'must be empty when',
  allowedValuesWhen: 'must be one of … when',
  compare: 'compared with',
  requireOneOf: 'at least one of these is filled in',
  sum: 'these add up to',
  uniqueTogether: 'these are unique together',
};

export const CONDITION_OPS = [
  ['=', 'is'],
  ['!=', 'is not'],
  ['in', 'is one of'],
  ['notIn', 'is none of'],
  ['isEmpty', 'is empty'],
  ['isNotEmpty', 'is not empty'],
  ['>', 'is greater than'],
  ['>=', 'is at least'],
  ['<', 'is less than'],
  ['<=', 'is at most'],
] as const;

export const COMPARE_OPS = [
  ['=', 'equal to'],
  ['!=', 'not equal to'],
  ['>', 'greater than'],
  ['>=', 'on or after / at least'],
  ['<', 'less than'],
  ['<=', 'on or before / at most'],
] as const;

export interface RuleDraft {
  kind: RuleKind;
  /** The dependent field: `field`, compare's `left`, or sum's `equals`. */
  field: string;
  whenField: string;
  whenOp: string;
  /** Comma-separated for is one of / is none of. */
  whenValue: string;
  /** requireOneOf, sum, uniqueTogether: the fields taking part. */
  fields: string[];
  op: string;
  /** compare: the other field, or empty to compare with `value`. */
  right: string;
  /** compare or sum: a constant; allowedValuesWhen: the values, comma-separated. */
  value: string;
  tolerance: string;
  severity: 'error' | 'warning';
  message: string;
}

export function emptyRule(kind: RuleKind = 'requiredWhen'): RuleDraft {
  return {
    kind,
    field: '',
    whenField: '',
    whenOp: '=',
    whenValue: '',
    fields: [],
    op: '>=',
    right: '',
    value: '',
    tolerance: '',
    severity: 'error',
    message: '',
  };
}

const csv = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

const listOps = new Set(['in', 'notIn']);
const noValueOps = new Set(['isEmpty', 'isNotEmpty']);

function condition(d: RuleDraft) {
  if (noValueOps.has(d.whenOp)) return { field: d.whenField, op: d.whenOp };
  return {
    field: d.whenField,
    op: d.whenOp,
    value: listOps.has(d.whenOp) ? csv(d.whenValue) : d.whenValue.trim(),
  };
}

/** One draft as the engine's rule; incomplete drafts go as they are, for the engine to name. */
export function toWebRule(d: RuleDraft): CrossFieldRule {
  const rule: Record<string, unknown> = { kind: d.kind };
  switch (d.kind) {
    case 'requiredWhen':
    case 'emptyWhen':
      Object.assign(rule, { field: d.field, when: condition(d) });
      break;
    case 'allowedValuesWhen':
      Object.assign(rule, { field: d.field, when: condition(d), values: csv(d.value) });
      break;
    case 'compare':
      Object.assign(rule, { left: d.field, op: d.op });
      if (d.right !== '') rule.right = d.right;
      else rule.value = d.value.trim();
      break;
    case 'requireOneOf':
    case 'uniqueTogether':
      rule.fields = d.fields;
      break;
    case 'sum':
      rule.fields = d.fields;
      if (d.field !== '') rule.equals = d.field;
      else rule.value = d.value.trim();
      if (d.tolerance.trim() !== '') rule.tolerance = d.tolerance.trim();
      break;
  }
  if (d.severity === 'warning') rule.severity = 'warning';
  if (d.message.trim() !== '') rule.message = d.message;
  return rule as unknown as CrossFieldRule;
}

export function fromWebRule(rule: CrossFieldRule): RuleDraft {
  const r = rule as unknown as Record<string, unknown>;
  const d = emptyRule(RULE_KINDS.includes(r.kind as RuleKind) ? (r.kind as RuleKind) : 'compare');
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  const when = (r.when ?? {}) as Record<string, unknown>;
  d.field = text(r.field ?? r.left ?? r.equals);
  d.whenField = text(when.field);
  d.whenOp = text(when.op) || '=';
  d.whenValue = Array.isArray(when.value) ? when.value.join(', ') : text(when.value);
  d.fields = Array.isArray(r.fields) ? r.fields.map(String) : [];
  d.op = text(r.op) || '>=';
  d.right = text(r.right);
  d.value = Array.isArray(r.values) ? r.values.join(', ') : text(r.value);
  d.tolerance = text(r.tolerance);
  d.severity = r.severity === 'warning' ? 'warning' : 'error';
  d.message = text(r.message);
  return d;
}
