import type { ExampleField, ExampleSchema } from '../content/engine-examples';

// Schemas in words, for the cards that show a template or an example schema.

const TYPE_LABEL: Record<ExampleField['type'], string> = {
  string: 'text',
  integer: 'whole number',
  number: 'number',
  boolean: 'true/false',
  date: 'date',
  email: 'email',
  url: 'URL',
  enum: 'one of a list',
};

export function typeLabel(field: ExampleField): string {
  if (field.type === 'date') {
    const format = field.validation?.format ?? 'YYYY-MM-DD';
    return /[Hms]/.test(format) ? `date-time (${format})` : `date (${format})`;
  }
  return TYPE_LABEL[field.type];
}

/** The field's rules, shortest first: "required · unique · 2 decimals · ≥ 0". */
export function ruleList(field: ExampleField): string[] {
  const v = field.validation ?? {};
  const rules: string[] = [];
  if (field.required) rules.push('required');
  if (v.unique) rules.push('unique');
  if (v.minLength !== undefined && v.maxLength !== undefined) {
    rules.push(`${v.minLength}–${v.maxLength} characters`);
  } else if (v.maxLength !== undefined) rules.push(`≤ ${v.maxLength} characters`);
  else if (v.minLength !== undefined) rules.push(`≥ ${v.minLength} characters`);
  if (v.minValue !== undefined && v.maxValue !== undefined) {
    rules.push(`${v.minValue} to ${v.maxValue}`);
  } else if (v.minValue !== undefined) rules.push(`≥ ${v.minValue}`);
  else if (v.maxValue !== undefined) rules.push(`≤ ${v.maxValue}`);
  if (v.precision !== undefined) rules.push(`≤ ${v.precision} decimals`);
  if (v.values) rules.push(v.values.join(' | '));
  if (v.pattern) rules.push(`pattern ${v.pattern}`);
  return rules;
}

/** The schema as the validators import it (the web form's JSON). */
export function schemaJson(schema: ExampleSchema): string {
  return JSON.stringify(
    {
      ...schema,
      fields: schema.fields.map((field) => ({
        name: field.name,
        type: field.type,
        required: field.required,
        validation: field.validation ?? {},
      })),
    },
    null,
    2,
  );
}
