// Cross-field rules against a brute-force oracle written here from docs/engine.md alone (regular
// expressions, BigInt fractions and Date.UTC; nothing from the engine), over generated rows of
// typed, empty, edge-decimal, edge-date and wrong-typed values. Each file is validated pushed
// whole (the CSV fast path takes clean records) and a byte at a time (no record is ever whole in
// one piece, so the normal path reads all of them): both must give the oracle's rule issues.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConditionOp, CrossFieldRule, Issue, RuleCondition, SchemaModel } from '../model.ts';
import { parseSchema } from '../schema/parse.ts';
import { createValidator, validateBytes } from './validator.ts';

const RULE_CODES = new Set([
  'required_when',
  'empty_when',
  'require_one_of',
  'compare',
  'allowed_values_when',
  'sum',
  'unique_together',
]);

type Kind = 'integer' | 'number' | 'date' | 'dmy' | 'boolean' | 'string' | 'enum';
const FIELDS: { name: string; kind: Kind }[] = [
  { name: 'i1', kind: 'integer' },
  { name: 'i2', kind: 'integer' },
  { name: 'n1', kind: 'number' },
  { name: 'n2', kind: 'number' },
  { name: 'd1', kind: 'date' },
  { name: 'd2', kind: 'dmy' },
  { name: 'b', kind: 'boolean' },
  { name: 's1', kind: 'string' },
  { name: 's2', kind: 'string' },
  // An enum reads as text; a rule's list that holds all its values takes what its check accepted.
  { name: 'e', kind: 'enum' },
];
const ENUM_VALUES = ['DE', 'FR'];
const NUMERIC = ['i1', 'i2', 'n1', 'n2'];
const kindOf = (name: string) => FIELDS.find((f) => f.name === name)?.kind as Kind;

const POOLS: Record<Kind, string[]> = {
  integer: [
    '',
    '0',
    '-0',
    '1',
    '01',
    '+1',
    '-1',
    '2',
    '9007199254740993',
    '9007199254740992',
    '12',
    'x',
    '1.5',
  ],
  number: [
    '',
    '0',
    '0.10',
    '0.1',
    '.1',
    '1',
    '1.0',
    '1e0',
    '1e-1',
    '-2.5',
    '0.3',
    '0.2',
    '9007199254740993.0',
    '1E400',
    'abc',
    '3.',
    '-0.0',
  ],
  date: ['', '2024-01-01', '2024-02-29', '2023-02-29', '2024-12-31', '2023-06-15', '2024-1-1', 'x'],
  dmy: ['', '01/01/2024', '29/02/2024', '31/12/2024', '15/06/2023', '30/02/2024', '2024-01-01'],
  boolean: ['', 'true', 'TRUE', 'yes', '0', 'false', 'No', 'maybe'],
  string: ['', 'DE', 'FR', 'US', 'de', 'a', 'b', 'ab', 'B'],
  enum: ['', 'DE', 'FR', 'US', 'de', 'D'],
};

// ---- the oracle's own readings ----------------------------------------------------------------

/** A decimal as a fraction num / 10^scale with BigInt, from its text; undefined if not one. */
function fraction(text: string, integer: boolean): { num: bigint; scale: number } | undefined {
  const m = integer
    ? /^([+-]?)(\d+)$/.exec(text)
    : /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m === null) return undefined;
  const int = m[2] ?? '';
  const frac = integer ? '' : (m[3] ?? '');
  if (int === '' && frac === '') return undefined;
  const exp = integer || m[4] === undefined ? 0 : Number(m[4]);
  let num = BigInt(int + frac || '0');
  if (m[1] === '-') num = -num;
  let scale = frac.length - exp;
  if (scale < 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { num, scale };
}

function cmpFraction(a: { num: bigint; scale: number }, b: { num: bigint; scale: number }): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.num * 10n ** BigInt(s - a.scale);
  const y = b.num * 10n ** BigInt(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

function realDay(y: number, m: number, d: number): number | undefined {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d
    ? y * 10000 + m * 100 + d
    : undefined;
}

/** A comparable reading of a cell for its field, or undefined (empty or not of the type). */
function reading(name: string, cell: string): { kind: string; v: unknown } | undefined {
  if (cell === '') return undefined;
  const kind = kindOf(name);
  switch (kind) {
    case 'integer':
    case 'number': {
      const f = fraction(cell, kind === 'integer');
      return f === undefined ? undefined : { kind: 'number', v: f };
    }
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(cell);
      const day = m === null ? undefined : realDay(+m[1]!, +m[2]!, +m[3]!);
      return day === undefined ? undefined : { kind: 'date', v: day };
    }
    case 'dmy': {
      const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(cell);
      const day = m === null ? undefined : realDay(+m[3]!, +m[2]!, +m[1]!);
      return day === undefined ? undefined : { kind: 'date', v: day };
    }
    case 'boolean': {
      const l = cell.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(l)) return { kind: 'boolean', v: true };
      if (['false', '0', 'no', 'off'].includes(l)) return { kind: 'boolean', v: false };
      return undefined;
    }
    default:
      return { kind: 'text', v: cell };
  }
}

/** A rule's constant read as a value of `name`'s field (dates as YYYY-MM-DD or the field's own). */
function constantReading(name: string, text: string) {
  const kind = kindOf(name);
  if (kind === 'dmy' || kind === 'date') return reading('d1', text) ?? reading('d2', text);
  return reading(name, text);
}

function cmp(a: { kind: string; v: unknown }, b: { kind: string; v: unknown }): number {
  if (a.kind === 'number') return cmpFraction(a.v as never, b.v as never);
  if (a.kind === 'boolean') return a.v === b.v ? 0 : a.v ? 1 : -1;
  const x = a.v as number | string;
  const y = b.v as number | string;
  return x < y ? -1 : x > y ? 1 : 0;
}

function opHolds(op: string, c: number): boolean {
  return { '=': c === 0, '!=': c !== 0, '>': c > 0, '>=': c >= 0, '<': c < 0, '<=': c <= 0 }[
    op
  ] as boolean;
}

type Row = Record<string, string>;

function conditionHolds(when: { field: string; op: string; value?: string | string[] }, row: Row) {
  const cell = row[when.field] as string;
  if (when.op === 'isEmpty') return cell === '';
  if (when.op === 'isNotEmpty') return cell !== '';
  const r = reading(when.field, cell);
  if (r === undefined) return false;
  if (when.op === 'in' || when.op === 'notIn') {
    const hit = (when.value as string[]).some((v) => cmp(r, constantReading(when.field, v)!) === 0);
    return when.op === 'in' ? hit : !hit;
  }
  return opHolds(when.op, cmp(r, constantReading(when.field, when.value as string)!));
}

/** Expected rule issues as `row:field:code` (uniqueTogether adds `@first`). */
function oracle(rules: CrossFieldRule[], rows: Row[]): string[] {
  return oracleInOrder(rules, rows).sort();
}

function oracleInOrder(rules: CrossFieldRule[], rows: Row[]): string[] {
  const out: string[] = [];
  const seen = rules.map(() => new Map<string, number>());
  rows.forEach((row, i) => {
    const n = i + 2;
    rules.forEach((rule, k) => {
      switch (rule.kind) {
        case 'requiredWhen':
          if (row[rule.field] === '' && conditionHolds(rule.when, row))
            out.push(`${n}:${rule.field}:required_when`);
          break;
        case 'emptyWhen':
          if (row[rule.field] !== '' && conditionHolds(rule.when, row))
            out.push(`${n}:${rule.field}:empty_when`);
          break;
        case 'allowedValuesWhen': {
          const r = reading(rule.field, row[rule.field] as string);
          if (r === undefined || !conditionHolds(rule.when, row)) break;
          if (!rule.values.some((v) => cmp(r, constantReading(rule.field, v)!) === 0))
            out.push(`${n}:${rule.field}:allowed_values_when`);
          break;
        }
        case 'requireOneOf': {
          const filled = rule.fields.filter((f) => row[f] !== '').length;
          const min = rule.min ?? (rule.max === undefined ? 1 : 0);
          const max = rule.max ?? Infinity;
          if (filled < min || filled > max) out.push(`${n}:${rule.fields[0]}:require_one_of`);
          break;
        }
        case 'compare': {
          const l = reading(rule.left, row[rule.left] as string);
          const r =
            rule.right !== undefined
              ? reading(rule.right, row[rule.right] as string)
              : constantReading(rule.left, rule.value as string);
          if (l !== undefined && r !== undefined && !opHolds(rule.op, cmp(l, r)))
            out.push(`${n}:${rule.left}:compare`);
          break;
        }
        case 'sum': {
          const parts = rule.fields.map((f) => reading(f, row[f] as string));
          const total =
            rule.equals !== undefined
              ? reading(rule.equals, row[rule.equals] as string)
              : reading('n1', rule.value as string);
          if (total === undefined || parts.some((p) => p === undefined)) break;
          // 1E400 and the like are skipped by the engine (too large to sum): not generated for sums.
          const all = [...parts, total].map((p) => p!.v as { num: bigint; scale: number });
          const tol = fraction(rule.tolerance ?? '0', false)!;
          const s = Math.max(...all.map((a) => a.scale), tol.scale);
          const at = (a: { num: bigint; scale: number }) => a.num * 10n ** BigInt(s - a.scale);
          let diff =
            all.slice(0, -1).reduce((acc, a) => acc + at(a), 0n) - at(all[all.length - 1]!);
          if (diff < 0n) diff = -diff;
          if (diff > at(tol))
            out.push(`${n}:${rule.equals ?? rule.fields[rule.fields.length - 1]}:sum`);
          break;
        }
        case 'uniqueTogether': {
          const parts = rule.fields.map((f) => reading(f, row[f] as string));
          if (parts.some((p) => p === undefined)) break;
          const key = JSON.stringify(
            parts.map((p) =>
              p!.kind === 'number'
                ? `${(p!.v as { num: bigint; scale: number }).num * 10n ** BigInt(40 - (p!.v as { scale: number }).scale)}`
                : String(p!.v),
            ),
          );
          const first = seen[k]!.get(key);
          if (first === undefined) seen[k]!.set(key, n);
          else out.push(`${n}:${rule.fields[rule.fields.length - 1]}:unique_together@${first}`);
          break;
        }
      }
    });
  });
  return out;
}

// ---- generators -------------------------------------------------------------------------------

const fieldName = fc.constantFrom(...FIELDS.map((f) => f.name));
const constantFor = (name: string) =>
  fc.constantFrom(...POOLS[kindOf(name)].filter((v) => constantReading(name, v) !== undefined));

const condition: fc.Arbitrary<RuleCondition> = fieldName.chain(
  (field): fc.Arbitrary<RuleCondition> => {
    const ordered = kindOf(field) !== 'boolean';
    const ops = [
      '=',
      '!=',
      'in',
      'notIn',
      'isEmpty',
      'isNotEmpty',
      ...(ordered ? ['>', '>=', '<', '<='] : []),
    ];
    return fc
      .constantFrom(...(ops as ConditionOp[]))
      .chain((op): fc.Arbitrary<RuleCondition> =>
        op === 'isEmpty' || op === 'isNotEmpty'
          ? fc.constant({ field, op })
          : op === 'in' || op === 'notIn'
            ? fc
                .uniqueArray(constantFor(field), { minLength: 1, maxLength: 3 })
                .map((value) => ({ field, op, value }))
            : constantFor(field).map((value) => ({ field, op, value })),
      );
  },
);

const sameKindPair = fc.constantFrom(
  ['i1', 'i2'],
  ['i1', 'n1'],
  ['n1', 'n2'],
  ['d1', 'd2'],
  ['s1', 's2'],
  ['e', 's1'],
  ['b', 'b'],
  ['n2', 'i2'],
);
const compareOp = fc.constantFrom('=', '!=', '>', '>=', '<', '<=');

const rule: fc.Arbitrary<CrossFieldRule> = fc.oneof(
  fc.record({ kind: fc.constant('requiredWhen' as const), field: fieldName, when: condition }),
  fc.record({ kind: fc.constant('emptyWhen' as const), field: fieldName, when: condition }),
  fieldName.chain((field) =>
    fc.record({
      kind: fc.constant('allowedValuesWhen' as const),
      field: fc.constant(field),
      when: condition,
      values: fc.uniqueArray(constantFor(field), { minLength: 1, maxLength: 3 }),
    }),
  ),
  fc
    .tuple(
      fc.uniqueArray(fieldName, { minLength: 1, maxLength: 4 }),
      fc.nat(4),
      fc.nat(4),
      fc.nat(2),
    )
    .map(([fields, a, b, mode]) => {
      const r: CrossFieldRule = { kind: 'requireOneOf', fields };
      const lo = Math.min(a, b, fields.length);
      const hi = Math.max(Math.min(a, fields.length), Math.min(b, fields.length), 1);
      if (mode !== 1) r.min = lo;
      if (mode !== 0) r.max = hi;
      if (r.max === 0 && r.min === undefined) r.min = 0;
      return r;
    }),
  fc.tuple(sameKindPair, compareOp).chain(([[l, r], op]) => {
    const ordered = kindOf(l!) !== 'boolean';
    const o = ordered ? op : op === '=' || op === '!=' ? op : '=';
    return fc.oneof(
      fc.constant<CrossFieldRule>({ kind: 'compare', left: l!, op: o as '=', right: r! }),
      constantFor(l!).map((value): CrossFieldRule => ({
        kind: 'compare',
        left: l!,
        op: o as '=',
        value,
      })),
    );
  }),
  fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...NUMERIC), { minLength: 1, maxLength: 3 }),
      fc.constantFrom(...NUMERIC),
      fc.constantFrom(undefined, '0', '0.01', '1'),
      fc.boolean(),
      fc.constantFrom('0', '1', '2.5', '-1'),
    )
    .map(([fields, equals, tolerance, useValue, value]) => {
      const r: CrossFieldRule = useValue
        ? { kind: 'sum', fields, value }
        : { kind: 'sum', fields, equals };
      if (tolerance !== undefined) r.tolerance = tolerance;
      return r;
    }),
  fc
    .uniqueArray(fieldName, { minLength: 2, maxLength: 3 })
    .map((fields): CrossFieldRule => ({ kind: 'uniqueTogether', fields })),
);

const row: fc.Arbitrary<Row> = fc.record(
  Object.fromEntries(FIELDS.map((f) => [f.name, fc.constantFrom(...POOLS[f.kind])])) as Record<
    string,
    fc.Arbitrary<string>
  >,
);

function schemaWith(rules: CrossFieldRule[]): SchemaModel {
  const parsed = parseSchema({
    name: 'p',
    fields: FIELDS.map((f) => ({
      name: f.name,
      type: f.kind === 'dmy' ? 'date' : f.kind,
      required: false,
      validation:
        f.kind === 'dmy'
          ? { format: 'DD/MM/YYYY' }
          : f.kind === 'enum'
            ? { values: ENUM_VALUES }
            : {},
    })),
    rules,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

// Within a row the engine reports uniqueTogether after the other rules: compared as sorted lists.
const ruleIssues = (issues: Issue[]) =>
  issues
    .filter((i) => RULE_CODES.has(i.code))
    .map((i) => {
      const first = i.code === 'unique_together' ? `@${/row (\d+)/.exec(i.message)?.[1]}` : '';
      return `${i.row}:${i.field}:${i.code}${first}`;
    })
    .sort();

function csvOf(rows: Row[]): string {
  return `${FIELDS.map((f) => f.name).join(',')}\n${rows.map((r) => FIELDS.map((f) => r[f.name]).join(',')).join('\n')}\n`;
}

function issuesOf(schema: SchemaModel, bytes: Uint8Array, byteAtATime: boolean): Issue[] {
  const all: Issue[] = [];
  const v = createValidator(schema, {
    fileType: 'csv',
    onIssue: (i) => all.push(i),
    delimiter: ',',
  });
  if (byteAtATime) for (let i = 0; i < bytes.length; i++) v.push(bytes.subarray(i, i + 1));
  else v.push(bytes);
  v.end();
  return all;
}

describe('cross-field rules against an independent oracle', () => {
  it('CSV: every rule kind, fast path and normal path alike', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 4 }),
        fc.array(row, { minLength: 1, maxLength: 25 }),
        (rules, rows) => {
          // Sums skip values too large to add (1E400): the oracle does not model that cut-off.
          const sums = rules.some((r) => r.kind === 'sum');
          const data = sums
            ? rows.map((r) => ({
                ...r,
                n1: r.n1 === '1E400' ? '1' : r.n1!,
                n2: r.n2 === '1E400' ? '2' : r.n2!,
              }))
            : rows;
          const schema = schemaWith(rules);
          const bytes = new TextEncoder().encode(csvOf(data));
          const expected = oracle(rules, data);
          expect(ruleIssues(issuesOf(schema, bytes, false))).toEqual(expected);
          expect(ruleIssues(issuesOf(schema, bytes, true))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('CSV past the 64 KiB the reader holds: the fast path reads most rows', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 5 }),
        fc.array(row, { minLength: 5, maxLength: 20 }),
        (rules, rows) => {
          const data = rows.map((r) => ({
            ...r,
            n1: r.n1 === '1E400' ? '1' : r.n1!,
            n2: r.n2 === '1E400' ? '2' : r.n2!,
          }));
          const many: Row[] = [];
          while (many.length * 60 < 80_000) many.push(...data);
          const schema = schemaWith(rules);
          const bytes = new TextEncoder().encode(csvOf(many));
          const expected = oracle(rules, many);
          expect(ruleIssues(issuesOf(schema, bytes, false))).toEqual(expected);
          // Pushed in odd-sized chunks, records straddle chunk boundaries.
          const v: Issue[] = [];
          const validator = createValidator(schema, { fileType: 'csv', onIssue: (i) => v.push(i) });
          for (let i = 0; i < bytes.length; i += 4093) validator.push(bytes.subarray(i, i + 4093));
          validator.end();
          expect(ruleIssues(v)).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('JSON: the same rules over typed records', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 4 }),
        fc.array(row, { minLength: 1, maxLength: 20 }),
        (rules, rows) => {
          const data: Row[] = rows.map((r) => ({
            ...r,
            n1: r.n1 === '1E400' ? '1' : r.n1!,
            n2: r.n2 === '1E400' ? '2' : r.n2!,
          }));
          // JSON typing: numbers as JSON numbers (only ones JSON can write), booleans as true/false.
          const records = data.map((r) => {
            const rec: Record<string, unknown> = {};
            for (const f of FIELDS) {
              const cell = r[f.name] as string;
              if (cell === '') continue;
              if (f.kind === 'integer' || f.kind === 'number') {
                if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(cell))
                  rec[f.name] = Number(cell);
                else r[f.name] = '';
              } else if (f.kind === 'boolean') {
                const l = cell.toLowerCase();
                if (l === 'true' || l === 'false') rec[f.name] = l === 'true';
                else r[f.name] = '';
              } else rec[f.name] = cell;
            }
            return rec;
          });
          // Oracle rows hold what JSON carries: a double's own text for numbers.
          const oracleRows = data.map((r, i) => {
            const o: Row = { ...r };
            for (const f of FIELDS) {
              const v = records[i]![f.name];
              o[f.name] = v === undefined ? '' : String(v);
            }
            return o;
          });
          const expected = oracleInOrder(rules, oracleRows)
            .map((s) =>
              s
                .replace(/^(\d+)/, (m) => String(Number(m) - 1))
                .replace(/@(\d+)/, (_m, d: string) => `@${Number(d) - 1}`),
            )
            .sort();
          const result = validateBytes(
            schemaWith(rules),
            new TextEncoder().encode(JSON.stringify(records)),
            {
              fileType: 'json',
              maxErrors: 100_000,
            },
          );
          expect(ruleIssues(result.errors)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
