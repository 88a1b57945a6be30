// Runs the official JSON-Schema-Test-Suite (draft 2020-12, vendored in fixtures/ with its licence)
// through the engine, for the keywords it supports. The engine validates files of records, so each
// case's schema becomes the schema of one property `v` of a record, and its instance that
// property's value: `{"type": "object", "properties": {"v": S}, "required": ["v"]}` against
// `[{"v": instance}]`. A case passes when the engine's verdict (no errors) equals the suite's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSchema } from '../src/schema/parse.ts';
import { validateBytes } from '../src/validate/validator.ts';

const DIR = fileURLToPath(
  new URL('./fixtures/JSON-Schema-Test-Suite/draft2020-12/', import.meta.url),
);

/** The files of the keywords the engine supports (docs/engine.md lists them). */
export const SUITE_FILES = [
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'required',
  'properties',
  'additionalProperties',
  'dependentRequired',
  'if-then-else',
  'optional/format/email',
  'optional/format/uri',
  'optional/format/date',
  'optional/format/date-time',
];

export interface SuiteCase {
  /** `file / group / test`, unique. */
  id: string;
  expected: boolean;
  /** The engine's verdict, or 'refused' when it refuses the schema. */
  actual: boolean | 'refused';
}

const OBJECT_KEYWORDS = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'dependentRequired',
];

interface Group {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

export function runSuite(): SuiteCase[] {
  const out: SuiteCase[] = [];
  for (const file of SUITE_FILES) {
    const groups = JSON.parse(readFileSync(`${DIR}${file}.json`, 'utf8')) as Group[];
    for (const group of groups) {
      const property =
        typeof group.schema === 'object' && group.schema !== null
          ? Object.fromEntries(
              Object.entries(group.schema).filter(([k]) => k !== '$schema' && k !== '$defs'),
            )
          : group.schema;
      const defs = (group.schema as { $defs?: unknown } | null)?.$defs;
      const wrapped = {
        type: 'object',
        properties: { v: property },
        required: ['v'],
        ...(defs === undefined ? {} : { $defs: defs }),
      };
      // A schema about an object's own properties describes the record itself.
      const recordLevel = OBJECT_KEYWORDS.some((k) => Object.hasOwn(property as object, k));
      const checked = parseSchema(
        recordLevel ? { type: 'object', ...(group.schema as object) } : wrapped,
        'jsonschema',
      );
      for (const test of group.tests) {
        const id = `${file} / ${group.description} / ${test.description}`;
        if (!checked.ok) {
          out.push({ id, expected: test.valid, actual: 'refused' });
          continue;
        }
        const record = recordLevel ? test.data : { v: test.data };
        const bytes = new TextEncoder().encode(JSON.stringify([record]));
        const result = validateBytes(checked.value, bytes, { fileType: 'json' });
        out.push({ id, expected: test.valid, actual: result.errorCount === 0 });
      }
    }
  }
  return out;
}
