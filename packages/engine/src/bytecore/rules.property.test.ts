// The cross-field rules the byte core proves (bytecore/rule-ops.ts, decision 249) change nothing
// but speed: for generated schemas (text, enum, integer, number, booleans with their own
// spellings, dates in several formats, one with a time of day) and rules of every kind with
// every condition operator and awkward constants, over files of a small vocabulary (so that
// conditions hit and uniqueTogether keys repeat, spelled differently: '01', '1', '+1'), pushed
// whole and in random chunks, validation with the core gives the same ValidationResult and the
// same issues in the same order as validation without it. The core's scan is counted, each kind
// of rule must be handed to the core and each rule's code must come up across the run, so that
// the comparison cannot pass with the core off, with no rule in it, or with rules that never fail.
// Most lines of a file repeat a few base lines; one in every few changes a cell or two of one, so
// that it fails a rule and little else: the core must stop at it for that rule alone.
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CrossFieldRule, ErrorCode, RuleCondition, SchemaModel } from '../model.ts';
import type { WebFieldValidation } from '../schema/web-types.ts';
import { parseSchema } from '../schema/parse.ts';
import { ENCODING_SAMPLE_BYTES } from '../text/detect-encoding.ts';
import { taken } from '../../test/counting-core.ts';
import { validateOutcome, type Outcome } from '../../test/outcome.ts';
import type * as RuleOps from './rule-ops.ts';

vi.mock('./load.ts', async (importOriginal) =>
  (await import('../../test/counting-core.ts')).countingLoad(importOriginal),
);
// The rules handed to the core, by kind: the run must give it some of each to hold it to them.
const proved = new Map<string, number>();
vi.mock('./rule-ops.ts', async (importOriginal) => {
  const real = await importOriginal<typeof RuleOps>();
  return {
    ...real,
    coreRule: (...args: Parameters<typeof real.coreRule>) => {
      const core = real.coreRule(...args);
      if (core !== null) proved.set(args[0].kind, (proved.get(args[0].kind) ?? 0) + 1);
      return core;
    },
  };
});

const NOW = new Date('2024-02-29T12:00:00Z');

// --- fields ---

type Kind = 'text' | 'number' | 'date' | 'boolean';
interface Template {
  type: 'string' | 'enum' | 'integer' | 'number' | 'date' | 'boolean';
  kind: Kind;
  validation: WebFieldValidation;
  /**
   * Cells the field mostly takes; '<k>' stands for a number that changes every few rows, '<day>'
   * and '<dmy>' for a day that does (YYYY-MM-DD, DD/MM/YYYY).
   */
  good: readonly string[];
  /** Cells of the field's kind that it rejects, or that read differently. */
  bad: readonly string[];
  /** Constants of rules and conditions on the field. */
  constants: readonly string[];
}

const TEXT_GOOD = [
  'DE',
  'FR',
  'de',
  'Fr',
  'a',
  'b',
  'Zoë',
  'é',
  '😀',
  'ｱ',
  'x y',
  'v<k>',
  'a"b',
  'a,b',
];
const TEXT_BAD = [' DE', 'DE ', 'dE', 'Zoe\u0308', 'a""b'];
const TEXT_CONSTANTS = ['DE', 'FR', 'a', 'Zoë', 'é', 'b', ' DE', 'a"b', 'a,b'];

const INT_GOOD = ['1', '01', '+1', '5', '05', '0', '-0', '7', '10', '<k>', '0<k>', '+<k>', '-5'];
const INT_LONG = [
  '1234567890123',
  '0000000000000000000001',
  '-9223372036854775808',
  '99999999999999999999',
];
const INT_BAD = ['1e3', '2.50', '1.0', 'abc', ' 5', '5 ', '0.5', '--1'];
const NUMBER_CONSTANTS = ['5', '0.5', '-0', '1e3', '007', '2.50', '1234567890123', '1', '10'];
const DEC_GOOD = [...INT_GOOD, '0.5', '2.5', '2.50', '-0.5', '0.50', '.5'];
const DEC_BAD = ['1.005', '1e3', 'abc', '1,5', '1234567890123.5'];

const ISO_GOOD = ['2024-02-29', '2024-02-28', '2024-03-01', '2023-12-31', '<day>'];
const ISO_BAD = ['2024-02-30', '2023-02-29', '29/02/2024', '2024-2-29', '2024-02-29 00:00'];
const ISO_CONSTANTS = ['2024-02-29', '2024-02-30', '29/02/2024', '2024-02-28', '2024-03-01'];
const DMY_GOOD = ['29/02/2024', '28/02/2024', '01/03/2024', '31/12/2023', '<dmy>'];
const DMY_BAD = ['30/02/2024', '29/02/2023', '2024-02-29', '1/3/2024', '29-02-2024'];
const DMY_CONSTANTS = ['29/02/2024', '2024-02-29', '28/02/2024', '01/03/2024', '2024-02-30'];
const TIME_GOOD = [
  '2024-02-29 00:00',
  '2024-02-29 12:30',
  '2024-02-28 23:59',
  '2024-03-01 00:00',
  '<day> 12:30',
];
const TIME_BAD = ['2024-02-29', '2024-02-29 24:00', '2024-02-30 00:00', '2024-02-29T00:00'];
const TIME_CONSTANTS = ['2024-02-29', '2024-02-29 12:30', '2024-02-29 00:00', '2024-03-01'];

const BOOL_GOOD = ['true', 'TRUE', 'True', 'yes', 'YES', '1', '0', 'no', 'false', 'FALSE', 'on'];
const BOOL_BAD = ['Y', 'N', 'maybe', 'si', 't'];
const CUSTOM_GOOD = ['Y', 'y', 'si', 'SI', 'Si', 'N', 'n'];
const CUSTOM_BAD = ['TRUE', 'true', 'false', 'yes', 'maybe', 'no'];
const BOOL_CONSTANTS = ['TRUE', 'yes', 'Y', 'maybe', 'false', 'N', 'si', 'true'];

const TEMPLATES: Template[] = [
  {
    type: 'string',
    kind: 'text',
    validation: {},
    good: TEXT_GOOD,
    bad: TEXT_BAD,
    constants: TEXT_CONSTANTS,
  },
  {
    type: 'string',
    kind: 'text',
    validation: { unique: true },
    good: ['v<k>', 'w<k>', 'DE'],
    bad: TEXT_BAD,
    constants: TEXT_CONSTANTS,
  },
  {
    type: 'enum',
    kind: 'text',
    validation: { values: ['DE', 'FR', 'Zoë', 'a'] },
    good: ['DE', 'FR', 'Zoë', 'a'],
    bad: ['b', 'é', 'de', 'Zoe'],
    constants: TEXT_CONSTANTS,
  },
  {
    type: 'integer',
    kind: 'number',
    validation: {},
    good: [...INT_GOOD, ...INT_LONG],
    bad: INT_BAD,
    constants: NUMBER_CONSTANTS,
  },
  {
    type: 'integer',
    kind: 'number',
    validation: { minValue: -5, maxValue: 10 },
    good: INT_GOOD.filter((v) => !v.includes('<k>')),
    bad: [...INT_BAD, '11', '-6'],
    constants: NUMBER_CONSTANTS,
  },
  {
    type: 'number',
    kind: 'number',
    validation: { precision: 2 },
    good: DEC_GOOD,
    bad: DEC_BAD,
    constants: NUMBER_CONSTANTS,
  },
  {
    type: 'date',
    kind: 'date',
    validation: {},
    good: ISO_GOOD,
    bad: ISO_BAD,
    constants: ISO_CONSTANTS,
  },
  {
    type: 'date',
    kind: 'date',
    validation: { format: 'DD/MM/YYYY' },
    good: DMY_GOOD,
    bad: DMY_BAD,
    constants: DMY_CONSTANTS,
  },
  // Columns the core does not check (unique): the rules read their values on their own.
  {
    type: 'date',
    kind: 'date',
    validation: { unique: true },
    good: ['<day>'],
    bad: ISO_BAD,
    constants: ISO_CONSTANTS,
  },
  {
    type: 'date',
    kind: 'date',
    validation: { unique: true, format: 'DD/MM/YYYY' },
    good: ['<dmy>'],
    bad: DMY_BAD,
    constants: DMY_CONSTANTS,
  },
  {
    type: 'date',
    kind: 'date',
    validation: { format: 'YYYY-MM-DD HH:mm' },
    good: TIME_GOOD,
    bad: TIME_BAD,
    constants: TIME_CONSTANTS,
  },
  {
    type: 'boolean',
    kind: 'boolean',
    validation: {},
    good: BOOL_GOOD,
    bad: BOOL_BAD,
    constants: BOOL_CONSTANTS,
  },
  {
    type: 'boolean',
    kind: 'boolean',
    validation: { truthy: ['Y', 'si'], falsy: ['N'] },
    good: CUSTOM_GOOD,
    bad: CUSTOM_BAD,
    constants: BOOL_CONSTANTS,
  },
];

interface Field {
  name: string;
  template: Template;
  required: boolean;
}

const field = (name: string): fc.Arbitrary<Field> =>
  fc.record({
    name: fc.constant(name),
    // Text twice as often: its equality is by bytes, the spelling the core must get exactly right.
    template: fc.constantFrom(...TEMPLATES, TEMPLATES[0] as Template, TEMPLATES[2] as Template),
    required: fc.nat(3).map((n) => n === 0),
  });

// --- rules ---

const VALUE_OPS = ['=', '!=', '>', '>=', '<', '<='] as const;
const CONDITION_OPS = [...VALUE_OPS, 'in', 'notIn', 'isEmpty', 'isNotEmpty'] as const;

const options = fc.record(
  {
    severity: fc.constant<'warning'>('warning'),
    message: fc.constant('{field} ({value}) vs {other}'),
  },
  { requiredKeys: [] },
);

/** A constant of the field's kind: an awkward one, or one the field's cells are written as. */
const constant = (f: Field) => {
  const written = f.template.good.filter((v) => !v.includes('<'));
  const awkward = fc.constantFrom(...f.template.constants);
  return written.length === 0 ? awkward : fc.oneof(awkward, fc.constantFrom(...written));
};

/** A list of constants of the field's kind, duplicates likely. */
const constantList = (f: Field) => fc.array(constant(f), { minLength: 1, maxLength: 4 });

function condition(fields: readonly Field[]): fc.Arbitrary<RuleCondition> {
  return fc.constantFrom(...fields).chain((f) => {
    // Order operators on booleans are refused by the schema reader.
    const ops =
      f.template.kind === 'boolean'
        ? CONDITION_OPS.filter((op) => !['>', '>=', '<', '<='].includes(op))
        : CONDITION_OPS;
    return fc.constantFrom(...ops).chain((op): fc.Arbitrary<RuleCondition> => {
      if (op === 'isEmpty' || op === 'isNotEmpty') return fc.constant({ field: f.name, op });
      if (op === 'in' || op === 'notIn')
        return constantList(f).map((value) => ({ field: f.name, op, value }));
      return constant(f).map((value) => ({ field: f.name, op, value }));
    });
  });
}

function rulesFor(fields: readonly Field[]): fc.Arbitrary<CrossFieldRule[]> {
  const pick = fc.constantFrom(...fields);
  const names = fields.map((f) => f.name);
  const numeric = fields.filter((f) => f.template.kind === 'number');
  const kinds: fc.Arbitrary<CrossFieldRule>[] = [
    fc.tuple(pick, condition(fields), fc.boolean(), options).map(([f, when, required, o]) => ({
      kind: required ? 'requiredWhen' : 'emptyWhen',
      field: f.name,
      when,
      ...o,
    })),
    fc.tuple(pick, condition(fields), options).chain(([f, when, o]) =>
      constantList(f).map((values): CrossFieldRule => ({
        kind: 'allowedValuesWhen',
        field: f.name,
        when,
        values,
        ...o,
      })),
    ),
    fc
      .tuple(
        fc.shuffledSubarray(names, { minLength: 1, maxLength: 3 }),
        fc.constantFrom<{ min?: number; max?: number }>(
          {},
          { min: 2 },
          { max: 1 },
          { min: 1, max: 2 },
          { min: 0, max: 1 },
          { min: 3 },
          { min: 2, max: 2 },
        ),
        options,
      )
      .map(([list, counts, o]) => ({ kind: 'requireOneOf', fields: list, ...counts, ...o })),
    pick.chain((f) =>
      fc
        .tuple(
          fc.constantFrom(...(f.template.kind === 'boolean' ? ['=', '!='] : VALUE_OPS)),
          constant(f),
          options,
        )
        .map(([op, value, o]): CrossFieldRule => ({
          kind: 'compare',
          left: f.name,
          op: op as (typeof VALUE_OPS)[number],
          value,
          ...o,
        })),
    ),
    fc
      .tuple(fc.shuffledSubarray([...fields], { minLength: 2, maxLength: 3 }), options)
      .map(([list, o]) => ({ kind: 'uniqueTogether', fields: list.map((f) => f.name), ...o })),
  ];
  // Two fields read alike (dates perhaps in two formats, an integer and a number): compare.
  for (const kind of ['text', 'number', 'date', 'boolean'] as const) {
    const alike = fields.filter((f) => f.template.kind === kind);
    if (alike.length < 2) continue;
    kinds.push(
      fc
        .tuple(
          fc.shuffledSubarray(alike, { minLength: 2, maxLength: 2 }),
          fc.constantFrom(...(kind === 'boolean' ? ['=', '!='] : VALUE_OPS)),
        )
        .map(([[left, right], op]) => ({
          kind: 'compare',
          left: (left as Field).name,
          op: op as (typeof VALUE_OPS)[number],
          right: (right as Field).name,
        })),
    );
  }
  if (numeric.length > 0)
    kinds.push(
      fc
        .tuple(
          fc.shuffledSubarray(numeric, { minLength: 1, maxLength: Math.min(2, numeric.length) }),
          fc.constantFrom('10', '1'),
        )
        .map(([list, value]) => ({
          kind: 'sum',
          fields: list.map((f) => f.name),
          value,
          tolerance: '0.5',
        })),
    );
  return fc.array(fc.oneof(...kinds), { minLength: 1, maxLength: 4 });
}

interface SchemaCase {
  fields: Field[];
  rules: CrossFieldRule[];
}

const schemaCase: fc.Arbitrary<SchemaCase> = fc
  .integer({ min: 3, max: 6 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, k) => field(`f${k}`))))
  .chain((fields) => fc.record({ fields: fc.constant(fields), rules: rulesFor(fields) }));

function parsed(fields: readonly Field[], rules: readonly CrossFieldRule[]) {
  return parseSchema(
    {
      name: 'rules',
      fields: fields.map((f) => ({
        name: f.name,
        type: f.template.type,
        required: f.required,
        validation: f.template.validation,
      })),
      rules,
    },
    'web',
  );
}

/** The schema with the rules the schema reader takes (a constant like '2024-02-30' is refused). */
function schemaOf(c: SchemaCase): SchemaModel {
  const whole = parsed(c.fields, c.rules);
  if (whole.ok) return whole.value;
  const kept = c.rules.filter((r) => parsed(c.fields, [r]).ok);
  const some = parsed(c.fields, kept);
  if (!some.ok) throw new Error(JSON.stringify(some.problems));
  return some.value;
}

// --- files ---

interface CellPick {
  from: 'good' | 'bad' | 'empty' | 'space';
  pick: number;
  quote: boolean;
}

interface FileCase {
  /** The header: indexes into the schema's fields (reordered, one maybe left out), -1 an extra. */
  columns: number[];
  /** Most lines, in turn (mostly values the fields take, so that the core reads on). */
  base: CellPick[][];
  /**
   * One line in `every`, in turn: a base line with a cell or two changed to any value, so that
   * it fails a rule or two and little else (a line the core must stop at for the rule alone).
   */
  rare: { base: number; changes: { column: number; cell: CellPick }[] }[];
  every: number;
  /** Lines that share one value of '<k>'. */
  span: number;
  crlf: boolean;
  maxErrors: number | undefined;
  chunks: number[];
}

const cellPick = (weights: [good: number, empty: number, bad: number, odd: number]) =>
  fc.record<CellPick>({
    from: fc.oneof(
      { weight: weights[0], arbitrary: fc.constant<'good'>('good') },
      { weight: weights[1], arbitrary: fc.constant<'empty'>('empty') },
      { weight: weights[2], arbitrary: fc.constant<'bad'>('bad') },
      { weight: weights[3], arbitrary: fc.constant<'space'>('space') },
    ),
    pick: fc.nat(),
    quote: fc.nat(7).map((n) => n === 0),
  });

const chunkSize = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 64 }) },
  { weight: 2, arbitrary: fc.integer({ min: 65, max: 8192 }) },
  { weight: 3, arbitrary: fc.integer({ min: 8193, max: 100 * 1024 }) },
);

const fileCase = (width: number): fc.Arbitrary<FileCase> => {
  const row = fc.array(cellPick([20, 2, 0, 0]), { minLength: width, maxLength: width });
  // Rules read their fields' columns wherever the header puts them; a rule on a missing column
  // is not run at all.
  const columns = fc
    .tuple(
      fc.shuffledSubarray(
        Array.from({ length: width }, (_, k) => k),
        { minLength: width - 1 },
      ),
      fc.nat(12),
    )
    .map(([kept, extraAt]) =>
      kept.length < width || extraAt > kept.length
        ? kept
        : [...kept.slice(0, extraAt), -1, ...kept.slice(extraAt)],
    );
  return fc.record({
    columns: fc.oneof(
      { weight: 2, arbitrary: fc.constant<number[]>([...Array(width).keys()]) },
      columns,
    ),
    base: fc.array(row, { minLength: 1, maxLength: 4 }),
    rare: fc.array(
      fc.record({
        base: fc.nat(),
        changes: fc.array(fc.record({ column: fc.nat(), cell: cellPick([6, 3, 2, 1]) }), {
          minLength: 1,
          maxLength: 2,
        }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    every: fc.constantFrom(2, 4, 8, 16),
    span: fc.integer({ min: 1, max: 3 }),
    crlf: fc.boolean(),
    maxErrors: fc.option(fc.constantFrom(0, 7, 300), { freq: 4, nil: undefined }),
    chunks: fc
      .tuple(fc.array(chunkSize, { maxLength: 3 }), fc.integer({ min: 8193, max: 100 * 1024 }))
      .map(([sizes, large]) => [...sizes, large]),
  });
};

/** The k-th day from 2024-01-01, as YYYY-MM-DD. */
const isoDay = (k: number) =>
  new Date(Date.UTC(2024, 0, 1) + k * 86_400_000).toISOString().slice(0, 10);

function cellText(f: Field, c: CellPick, k: number): string {
  let value: string;
  if (c.from === 'empty') value = '';
  else if (c.from === 'space') value = [' ', 'é', '  x', '""', 'a""b'][c.pick % 5] as string;
  else {
    const pool = f.template[c.from];
    value = (pool[c.pick % pool.length] as string)
      .replaceAll('<k>', String(k))
      .replaceAll('<day>', isoDay(k))
      .replaceAll('<dmy>', isoDay(k).split('-').reverse().join('/'));
  }
  return c.quote || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const encoder = new TextEncoder();

function fileBytes(s: SchemaCase, f: FileCase): Uint8Array {
  const end = f.crlf ? '\r\n' : '\n';
  const lines = [f.columns.map((c) => (c < 0 ? 'extra' : (s.fields[c] as Field).name)).join(',')];
  let bytes = 0;
  // Past the sample that the reader keeps as text: what follows it the core reads.
  const target = ENCODING_SAMPLE_BYTES + 24 * 1024;
  for (let i = 0; bytes < target; i++) {
    let row: CellPick[];
    if (i % f.every === f.every - 1) {
      const rare = f.rare[Math.floor(i / f.every) % f.rare.length] as FileCase['rare'][number];
      row = [...(f.base[rare.base % f.base.length] as CellPick[])];
      for (const { column, cell } of rare.changes) row[column % row.length] = cell;
    } else row = f.base[i % f.base.length] as CellPick[];
    const k = Math.floor(i / f.span);
    const line = f.columns
      .map((c) => (c < 0 ? `e${k % 3}` : cellText(s.fields[c] as Field, row[c] as CellPick, k)))
      .join(',');
    lines.push(line);
    bytes += encoder.encode(line).length + end.length;
  }
  return encoder.encode(lines.join(end) + end);
}

// --- comparison ---

function validate(
  schema: SchemaModel,
  bytes: Uint8Array,
  byteCore: boolean,
  chunks?: readonly number[],
  maxErrors = 100_000,
): Outcome {
  return validateOutcome(schema, bytes, { fileType: 'csv', now: NOW, maxErrors, byteCore }, chunks);
}

const RULE_CODES: ErrorCode[] = [
  'required_when',
  'empty_when',
  'allowed_values_when',
  'require_one_of',
  'compare',
  'unique_together',
];
const produced = new Map<string, number>();
const PROVED_KINDS: CrossFieldRule['kind'][] = [
  'requiredWhen',
  'emptyWhen',
  'allowedValuesWhen',
  'requireOneOf',
  'compare',
  'uniqueTogether',
];

function sameWithAndWithout(
  schema: SchemaModel,
  bytes: Uint8Array,
  chunks?: number[],
  maxErrors?: number,
): Outcome {
  const reference = validate(schema, bytes, false, undefined, maxErrors);
  for (const i of reference.issues) produced.set(i.code, (produced.get(i.code) ?? 0) + 1);
  expect(validate(schema, bytes, true, undefined, maxErrors)).toEqual(reference);
  if (chunks !== undefined)
    expect(validate(schema, bytes, true, chunks, maxErrors)).toEqual(reference);
  return reference;
}

const cases = schemaCase.chain((s) => fc.tuple(fc.constant(s), fileCase(s.fields.length)));

describe('cross-field rules in the byte core give the same results as the JavaScript path', () => {
  afterAll(() => {
    console.log(
      `byte core (rules): ${taken.records} records in ${taken.scans} scans; rules proved there ${JSON.stringify(Object.fromEntries(proved))}; issues ${JSON.stringify(Object.fromEntries(produced))}`,
    );
  });

  it('generated schemas, rules and files, whole and in random chunks', () => {
    const before = taken.records;
    fc.assert(
      fc.property(cases, ([s, f]) => {
        sameWithAndWithout(schemaOf(s), fileBytes(s, f), f.chunks, f.maxErrors);
      }),
      { numRuns: 150, seed: 249 },
    );
    // Otherwise the comparison holds the core to nothing.
    expect(taken.records - before).toBeGreaterThan(20_000);
    for (const code of RULE_CODES) expect(produced.get(code) ?? 0, code).toBeGreaterThan(0);
    for (const kind of PROVED_KINDS) expect(proved.get(kind) ?? 0, kind).toBeGreaterThan(0);
  });
});

// --- regressions ---

/**
 * A file past the sample: mostly `clean` lines in turn, one of `rare` every `every` lines (the
 * core stops at each, so they stay few, or it gives up); '<k>' is the line's number, '<pN>' that
 * of the last line written from clean[N], '<nN>' that of the next one.
 */
function repeated(
  header: string,
  clean: readonly string[],
  rare: readonly string[],
  every = 8,
): Uint8Array {
  const isRare = (i: number) => i % every === every - 1;
  const cleanAt = (i: number) => i - Math.floor((i + 1) / every);
  const lineOf = (i: number, n: number, step: number): number => {
    let at = i + step;
    while (at >= 0 && (isRare(at) || cleanAt(at) % clean.length !== n)) at += step;
    return Math.max(0, at);
  };
  const lines = [header];
  let bytes = 0;
  for (let i = 0; bytes < 192 * 1024; i++) {
    const line = (
      isRare(i)
        ? (rare[Math.floor(i / every) % rare.length] as string)
        : (clean[cleanAt(i) % clean.length] as string)
    )
      .replaceAll('<k>', String(i))
      .replace(/<([pn])(\d)>/g, (_, dir: string, n: string) =>
        String(lineOf(i, Number(n), dir === 'p' ? -1 : 1)),
      );
    lines.push(line);
    bytes += line.length + 1;
  }
  return encoder.encode(`${lines.join('\n')}\n`);
}

function schemaFrom(fields: unknown[], rules: unknown[]): SchemaModel {
  const p = parseSchema({ name: 'regression', fields, rules }, 'web');
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  return p.value;
}

function coreTakes(schema: SchemaModel, bytes: Uint8Array): Outcome {
  const before = taken.records;
  const reference = sameWithAndWithout(schema, bytes, [4096, 333, 65_536]);
  expect(taken.records - before).toBeGreaterThan(1000);
  return reference;
}

describe('cross-field rules in the byte core: edges', () => {
  it("an integer key part '01' is the same value as '1' and '+1'", () => {
    const schema = schemaFrom(
      [
        { name: 'id', type: 'integer', required: false },
        { name: 'code', type: 'string', required: false },
      ],
      [{ kind: 'uniqueTogether', fields: ['id', 'code'] }],
    );
    // Keys first written plainly, by the core, then again as '0<j>' and '+<j>'; and keys first
    // written '0<k>' (read by JavaScript or the core), then plainly.
    const bytes = repeated(
      'id,code',
      ['<k>,a', '<k>,b'],
      [
        '0<p0>,a',
        '+<p1>,b',
        '00<n0>,a',
        '+<n1>,b',
        '-0,a',
        '007,b',
        '<p0>,b',
        '0<p1>,a',
        '00000000000000000000<p0>,a',
        '+0000000000000000000<n1>,b',
      ],
    );
    const { result, issues } = coreTakes(schema, bytes);
    // In the second half of the file, well past the sample: where the core reads.
    const late = issues.filter((i) => i.row > result.totalRows / 2 && i.code === 'unique_together');
    expect(late.length).toBeGreaterThan(100);
  });

  it('booleans and dates in a key by reading', () => {
    const schema = schemaFrom(
      [
        { name: 'n', type: 'integer', required: false },
        { name: 'b', type: 'boolean', required: false },
        { name: 'd', type: 'date', required: false, validation: { format: 'DD/MM/YYYY' } },
        { name: 't', type: 'date', required: false, validation: { format: 'YYYY-MM-DD HH:mm' } },
        { name: 'i', type: 'date', required: false },
      ],
      [
        { kind: 'uniqueTogether', fields: ['n', 'b', 'd'] },
        { kind: 'uniqueTogether', fields: ['n', 't'] },
        { kind: 'uniqueTogether', fields: ['i', 'n'], severity: 'warning' },
      ],
    );
    const bytes = repeated(
      'n,b,d,t,i',
      [
        '<k>,yes,29/02/2024,2024-02-29 10:00,2024-02-29',
        '<k>,TRUE,28/02/2024,2024-02-29 10:01,2024-02-28',
        '<k>,no,29/02/2024,2024-02-29 10:02,2024-03-01',
        '<k>,0,28/02/2024,2024-02-29 10:03,2023-12-31',
      ],
      [
        '<p0>,true,29/02/2024,2024-02-29 09:00,2024-02-28',
        '<p1>,1,28/02/2024,2024-02-29 10:01,2024-03-01',
        '<p2>,On,28/02/2024,2024-02-29 09:59,2024-03-01',
        '<n3>,FALSE,28/02/2024,2024-02-29 10:00,2023-12-31',
        '<n0>,Yes,29/02/2024,2024-02-29 10:03,2024-01-01',
      ],
    );
    const { result, issues } = coreTakes(schema, bytes);
    const fields = new Set(
      issues
        .filter((i) => i.row > result.totalRows / 2 && i.code === 'unique_together')
        .map((i) => i.field),
    );
    expect([...fields].sort()).toEqual(['d', 'n', 't']);
  });

  it("a condition on 'TRUE' where the field's truthy spellings lack 'true'", () => {
    const schema = schemaFrom(
      [
        {
          name: 'flag',
          type: 'boolean',
          required: false,
          validation: { truthy: ['Y', 'si'], falsy: ['N'] },
        },
        { name: 'note', type: 'string', required: false },
        { name: 'n', type: 'integer', required: false },
      ],
      [
        { kind: 'requiredWhen', field: 'note', when: { field: 'flag', op: '=', value: 'TRUE' } },
        { kind: 'emptyWhen', field: 'n', when: { field: 'flag', op: '!=', value: 'true' } },
        { kind: 'requiredWhen', field: 'n', when: { field: 'flag', op: 'in', value: ['true'] } },
        { kind: 'compare', left: 'flag', op: '!=', value: 'N', severity: 'warning' },
      ],
    );
    const bytes = repeated(
      'flag,note,n',
      ['Y,x,<k>', 'si,y,1', 'SI,z,2', 'y,a,1', ',,'],
      ['Y,,1', 'N,,<k>', 'n,x,', 'TRUE,,', 'si,x,', 'true,x,1', 'N,,'],
    );
    const { issues } = coreTakes(schema, bytes);
    const codes = new Set(issues.map((i) => i.code));
    expect(codes).toEqual(new Set(['required_when', 'empty_when', 'compare', 'type']));
  });

  it('a date condition on a format with a time of day', () => {
    const schema = schemaFrom(
      [
        { name: 't', type: 'date', required: false, validation: { format: 'YYYY-MM-DD HH:mm' } },
        { name: 'note', type: 'string', required: false },
      ],
      [
        { kind: 'requiredWhen', field: 'note', when: { field: 't', op: '>', value: '2024-02-29' } },
        { kind: 'emptyWhen', field: 'note', when: { field: 't', op: '=', value: '2024-02-28' } },
        { kind: 'compare', left: 't', op: '<=', value: '2024-02-29 12:30' },
      ],
    );
    const bytes = repeated(
      't,note',
      ['2024-02-29 00:01,x', '2024-02-28 00:01,', '2024-02-29 12:30,y', ',z'],
      ['2024-02-29 00:00,', '2024-02-29 00:01,', '2024-02-29 12:31,x', '2024-02-28 00:00,x'],
    );
    const { issues } = coreTakes(schema, bytes);
    const codes = new Set(issues.map((i) => i.code));
    expect(codes).toEqual(new Set(['required_when', 'empty_when', 'compare']));
  });

  it('bounds of order conditions, counts with a default, and text by its exact bytes', () => {
    const schema = schemaFrom(
      [
        { name: 'n', type: 'integer', required: false },
        { name: 'x', type: 'number', required: false, validation: { precision: 2 } },
        { name: 's', type: 'string', required: false },
        { name: 'd', type: 'date', required: false, validation: { format: 'DD/MM/YYYY' } },
        { name: 'note', type: 'string', required: false },
      ],
      [
        { kind: 'compare', left: 'n', op: '>', value: '5' },
        { kind: 'compare', left: 'x', op: '<', value: '2.50' },
        { kind: 'compare', left: 's', op: '=', value: 'DE', severity: 'warning' },
        {
          kind: 'requiredWhen',
          field: 'note',
          when: { field: 'd', op: '>=', value: '2024-02-29' },
        },
        { kind: 'requireOneOf', fields: ['note', 'd'] },
        { kind: 'requireOneOf', fields: ['n', 'x', 's'], max: 2 },
      ],
    );
    const bytes = repeated(
      'n,x,s,d,note',
      ['<k>6,1.25,,28/02/2024,', '6,,DE,29/02/2024,y', '7,2.49,,01/03/2024,y'],
      [
        '5,,,28/02/2024,',
        '6,2.5,,28/02/2024,',
        '6,,de,28/02/2024,',
        '6,,,29/02/2024,',
        '6,,,,',
        '6,1,DE,28/02/2024,',
        '05,,,28/02/2024,',
        '6,2.50,,28/02/2024,',
        '6,,De,,y',
      ],
    );
    const { issues } = coreTakes(schema, bytes);
    const codes = new Set(issues.map((i) => i.code));
    expect(codes).toEqual(new Set(['compare', 'required_when', 'require_one_of']));
  });

  it('quoted cells against constants with a quote or a comma', () => {
    const schema = schemaFrom(
      [
        { name: 's', type: 'string', required: false },
        { name: 'n', type: 'integer', required: false },
        { name: 't', type: 'string', required: false },
      ],
      [
        { kind: 'compare', left: 's', op: '!=', value: 'a"b', severity: 'warning' },
        { kind: 'requiredWhen', field: 'n', when: { field: 's', op: '=', value: 'a,b' } },
        { kind: 'emptyWhen', field: 't', when: { field: 's', op: 'in', value: ['a"b', 'c'] } },
        {
          kind: 'allowedValuesWhen',
          field: 't',
          when: { field: 'n', op: '>', value: '5' },
          values: ['a"b', 'a,b'],
        },
        { kind: 'uniqueTogether', fields: ['t', 'n'] },
      ],
    );
    const bytes = repeated(
      's,n,t',
      // A key part with a doubled quote stops the core, so only the rare lines have them.
      ['x,<k>,', '"a,b",<k>,', 'y,,', 'z,<k>,"a,b"'],
      [
        '"a""b",1,',
        '"a""b",,z',
        '"a,b",,',
        'y,6,"a""""b"',
        'z,<p3>,"a,b"',
        'c,,z',
        'y,9,"a""b"',
        '"x",,',
      ],
    );
    const { issues } = coreTakes(schema, bytes);
    const codes = new Set(issues.map((i) => i.code));
    expect(codes).toEqual(
      new Set(['compare', 'required_when', 'empty_when', 'allowed_values_when', 'unique_together']),
    );
  });

  it('compare of two fields: numbers of two types, dates in two formats, text', () => {
    const schema = schemaFrom(
      [
        { name: 'a', type: 'integer', required: false },
        { name: 'x', type: 'number', required: false, validation: { precision: 2 } },
        { name: 'd', type: 'date', required: false },
        { name: 'e', type: 'date', required: false, validation: { format: 'DD/MM/YYYY' } },
        { name: 't', type: 'date', required: false, validation: { format: 'YYYY-MM-DD HH:mm' } },
        { name: 's', type: 'string', required: false },
        { name: 'u', type: 'string', required: false },
      ],
      [
        { kind: 'compare', left: 'a', op: '<=', right: 'x' },
        { kind: 'compare', left: 'd', op: '<', right: 'e' },
        { kind: 'compare', left: 'e', op: '>=', right: 't', severity: 'warning' },
        { kind: 'compare', left: 's', op: '!=', right: 'u' },
      ],
    );
    const bytes = repeated(
      'a,x,d,e,t,s,u',
      [
        '1,1.5,2024-02-28,29/02/2024,2024-02-29 00:00,a,b',
        '<k>,<k>.25,2023-12-31,01/01/2024,2023-12-31 23:59,"x,y",x',
        '2,2.00,2024-02-28,29/02/2024,2024-02-28 23:59,A,a',
        '-0,0,,29/02/2024,,,b',
      ],
      [
        '02,1.99,2024-02-28,29/02/2024,2024-02-29 00:00,a,b',
        '1,1.5,2024-02-29,29/02/2024,2024-02-29 00:00,a,b',
        '1,1.5,2024-02-28,29/02/2024,2024-02-29 00:01,a,b',
        '1,1.5,2024-02-28,29/02/2024,2024-02-29 00:00,Zoë,Zoë',
        '1,1.5,2024-02-28,29/02/2024,2024-02-29 00:00,a,"a"',
        '3,,2024-03-01,,2024-02-29 00:00,,b',
        '3,-0.5,2024-03-01,01/03/2024,2024-03-01 00:00,"a""b","a""b"',
      ],
    );
    const { issues } = coreTakes(schema, bytes);
    const fields = new Set(issues.filter((i) => i.code === 'compare').map((i) => i.field));
    expect([...fields].sort()).toEqual(['a', 'd', 'e', 's']);
  });

  it('text order is by UTF-16 code units, which UTF-8 bytes do not keep past U+FFFF', () => {
    const schema = schemaFrom(
      [
        { name: 's', type: 'string', required: false },
        { name: 'u', type: 'string', required: false },
      ],
      [{ kind: 'compare', left: 's', op: '<', right: 'u' }],
    );
    // '😀' (U+1F600) is below 'ｱ' (U+FF71) and U+E000 as code units, above them as bytes.
    const bytes = repeated(
      's,u',
      ['a,b', 'a<k>,b', 'A,a'],
      ['😀,ｱ', 'ｱ,😀', 'é,😀', '😀,é', '\uE000,😀', '😀,\uE000', 'b,a', 'ab,a'],
    );
    const { issues } = coreTakes(schema, bytes);
    expect(new Set(issues.map((i) => i.value))).toEqual(new Set(['ｱ', '😀', '\uE000', 'b', 'ab']));
  });

  it('date columns the core does not check (unique) in compare and in keys', () => {
    const schema = schemaFrom(
      [
        { name: 'd', type: 'date', required: false, validation: { unique: true } },
        {
          name: 'f',
          type: 'date',
          required: false,
          validation: { unique: true, format: 'DD/MM/YYYY' },
        },
        { name: 'e', type: 'date', required: false },
        { name: 'n', type: 'integer', required: false },
      ],
      [
        { kind: 'compare', left: 'd', op: '<', right: 'e' },
        { kind: 'compare', left: 'f', op: '>=', right: 'd' },
        { kind: 'uniqueTogether', fields: ['d', 'n'] },
        { kind: 'uniqueTogether', fields: ['e', 'f'] },
      ],
    );
    // Each line's own day, so that the unique columns hold; a value the rules need from the
    // line before would be a stale one.
    const iso = (k: number) =>
      new Date(Date.UTC(1900, 0, 1) + k * 86_400_000).toISOString().slice(0, 10);
    const dmy = (k: number) => iso(k).split('-').reverse().join('/');
    const lines = ['d,f,e,n'];
    let bytes = 0;
    for (let i = 0; bytes < 192 * 1024; i++) {
      const line =
        i % 8 === 7
          ? `${iso(i)},${dmy(i - 1)},${iso(i - 1)},${i}`
          : i % 8 === 5
            ? `${iso(i)},${dmy(i + 40_000)},,`
            : `${iso(i)},${dmy(i + 40_000)},${iso(i + 1)},${i % 4}`;
      lines.push(line);
      bytes += line.length + 1;
    }
    const { issues } = coreTakes(schema, encoder.encode(`${lines.join('\n')}\n`));
    expect(new Set(issues.map((i) => i.code))).toEqual(new Set(['compare']));
  });

  it('!= conditions on empty cells of every kind', () => {
    const schema = schemaFrom(
      [
        { name: 's', type: 'string', required: false },
        { name: 'n', type: 'number', required: false },
        { name: 'd', type: 'date', required: false },
        { name: 'b', type: 'boolean', required: false },
        { name: 'x', type: 'string', required: false },
      ],
      [
        { kind: 'requiredWhen', field: 'x', when: { field: 's', op: '!=', value: 'DE' } },
        { kind: 'requiredWhen', field: 'x', when: { field: 'n', op: '!=', value: '5' } },
        { kind: 'requiredWhen', field: 'x', when: { field: 'd', op: '!=', value: '2024-02-29' } },
        { kind: 'emptyWhen', field: 'x', when: { field: 'b', op: '!=', value: 'true' } },
        {
          kind: 'requiredWhen',
          field: 'x',
          when: { field: 's', op: 'notIn', value: ['DE', 'DE'] },
        },
      ],
    );
    const bytes = repeated(
      's,n,d,b,x',
      [',,,,', 'DE,5,2024-02-29,true,', '"",,,,', 'DE,5.0,,yes,', ',,,,', 'DE,,,TRUE,y'],
      ['FR,,,,', ',4,,,', ',,2024-03-01,,', ',,,no,y', ',,,false,', 'é,,,,', ' ,,,,'],
    );
    const { issues } = coreTakes(schema, bytes);
    expect(issues.some((i) => i.code === 'required_when')).toBe(true);
    expect(issues.some((i) => i.code === 'empty_when')).toBe(true);
  });
});
