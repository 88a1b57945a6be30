import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import {
  allEngineExamples,
  exampleJsonSchema,
  type EngineExample,
} from '../../../apps/web/src/features/marketing/content/engine-examples.ts';
import { ruleMessages } from '../../../apps/web/src/features/marketing/content/rule-messages.ts';
import { schemaTemplates } from '../../../apps/web/src/features/marketing/content/templates.ts';
import {
  parseSchema,
  parseSchemaText,
  validateBytes,
  type ValidationResult,
} from '../src/index.ts';

// Every error the public site shows is what the engine really reports: each example's "before"
// file gives exactly the listed errors and warnings, its "after" file gives none, and each
// template's downloadable sample gives exactly the errors its card announces.

/** Windows-1252 agrees with Latin-1 for the characters the examples use (all below U+0100). */
function encode(text: string, encoding: EngineExample['beforeEncoding']): Uint8Array {
  if (encoding !== 'windows-1252') return new TextEncoder().encode(text);
  return Uint8Array.from(text, (ch) => {
    const code = ch.charCodeAt(0);
    if (code > 0xff) throw new Error(`not in Latin-1: ${ch}`);
    return code;
  });
}

function run(schemaInput: unknown, bytes: Uint8Array): ValidationResult {
  const schema = parseSchema(schemaInput, 'web');
  if (!schema.ok) throw new Error(`schema refused: ${JSON.stringify(schema.problems)}`);
  const fileType = schema.value.fileType ?? 'csv';
  return validateBytes(schema.value, bytes, { fileType, now: new Date('2024-06-01T00:00:00Z') });
}

const plain = (result: ValidationResult) => ({
  errors: result.errors.map((issue) => ({ ...issue })),
  warnings: result.warnings.map(({ code, message }) => ({ code, message })),
});

describe('examples shown on the public site', () => {
  it('has examples with unique ids', () => {
    const ids = allEngineExamples.map((example) => example.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(12);
  });

  for (const example of allEngineExamples) {
    it(`${example.id}: the shown errors are the engine's`, () => {
      const result = run(example.schema, encode(example.before, example.beforeEncoding));
      expect(plain(result)).toEqual({ errors: example.errors, warnings: example.warnings ?? [] });
      expect(result.valid).toBe(example.errors.length === 0);
    });

    it(`${example.id}: the fixed file passes cleanly`, () => {
      const result = run(example.schema, encode(example.after, 'utf-8'));
      expect(plain(result)).toEqual({ errors: [], warnings: [] });
    });
  }
});

describe('schema templates', () => {
  it('has eight templates with unique ids, four or more CSV and two or more JSON', () => {
    const ids = schemaTemplates.map((template) => template.id);
    expect(new Set(ids).size).toBe(8);
    expect(schemaTemplates.filter((t) => t.schema.fileType === 'csv').length).toBeGreaterThan(3);
    expect(schemaTemplates.filter((t) => t.schema.fileType === 'json').length).toBeGreaterThan(1);
  });

  for (const template of schemaTemplates) {
    it(`${template.id}: the sample file gives exactly the errors its card lists`, () => {
      const url = new URL(`../../../apps/web/public${template.sampleUrl}`, import.meta.url);
      const result = run(template.schema, readFileSync(url));
      expect(plain(result)).toEqual({ errors: template.sampleErrors, warnings: [] });
    });
  }
});

describe('the rule table of the validator pages', () => {
  // A second column keeps an empty cell from being a blank line (which is skipped).
  for (const row of ruleMessages) {
    it(`${row.rule}: the rejected value gets the shown message`, () => {
      const schema = { name: 'rule', fileType: 'csv', fields: [row.field] };
      const cell = /[",\n]/.test(row.rejected)
        ? `"${row.rejected.replace(/"/g, '""')}"`
        : row.rejected;
      const result = run(schema, new TextEncoder().encode(`id,${row.field.name}\n1,${cell}\n`));
      expect(result.errors.map((issue) => issue.message)).toEqual([row.message]);
    });
  }
});

describe('the JSON Schema shown on the JSON schema validator page', () => {
  it('imports with no warning and keeps what the page says carries over', () => {
    const parsed = parseSchemaText(exampleJsonSchema);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.warnings).toEqual([]);
    expect(parsed.value.additionalProperties).toBe(false);
    expect(parsed.value.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['id', 'integer', true],
      ['email', 'email', true],
      ['role', 'enum', true],
      ['created_at', 'date', false],
    ]);
  });
});
