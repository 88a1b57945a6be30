// Properties of the streaming JSON reader: the pieces a file arrives in never change what it
// reads, what it reads equals JSON.parse, and broken input is reported the same way however it
// is cut (and however early the reader checks a large open record).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LosslessNumber } from '../model.ts';
import { parseExact } from './exact-parser.ts';
import { parseKeepingLongNumbers } from './long-numbers.ts';
import { VALUE_CONTINUES, ValueScanner } from './value-scanner.ts';
import { readJsonEvents, type JsonEvent } from './read-events.ts';

const encoder = new TextEncoder();

// Characters that stress the scanner: quotes, backslashes, control characters, multibyte ones,
// a lone surrogate (JSON.stringify escapes it), and U+2028.
const character = fc.oneof(
  fc.constantFrom(
    'a',
    ' ',
    '"',
    '\\',
    '/',
    '\n',
    '\t',
    '\u0000',
    '\u001f',
    'é',
    '€',
    '😀',
    '\u2028',
    '\ufeff',
    '\ud800',
    '{',
    ']',
    ',',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit: character, maxLength: 10 });
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 0.1, 1e21, 5e-324, 1.7976931348623157e308, 9007199254740991, -1.5e-7),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
}));
const record = fc.dictionary(
  fc.oneof(text, fc.constantFrom('__proto__', 'constructor', 'id')),
  value,
  { maxKeys: 6 },
);
const element = fc.oneof({ weight: 4, arbitrary: record }, { weight: 1, arbitrary: value });
const indent = fc.constantFrom<string | number | undefined>(undefined, 0, 1, 2, '\t');

/** Up to `max` ascending cut offsets inside [1, length). */
const cutsOf = (length: number, picks: number[]): number[] =>
  length < 2 ? [] : [...new Set(picks.map((p) => 1 + (p % (length - 1))))].sort((a, b) => a - b);
const picks = fc.array(fc.nat(), { maxLength: 8 });

interface Document {
  kind: 'array' | 'ndjson' | 'single';
  text: string;
}
const arrayDocument = fc
  .tuple(fc.array(element, { maxLength: 6 }), indent)
  .map(([elements, space]): Document => ({
    kind: 'array',
    text: JSON.stringify(elements, null, space),
  }));
const ndjsonDocument = fc
  .tuple(
    fc.array(record, { minLength: 2, maxLength: 6 }),
    fc.constantFrom('\n', '\r\n', '\n\n'),
    fc.boolean(),
  )
  .map(([lines, newline, trailing]): Document => ({
    kind: 'ndjson',
    text: lines.map((line) => JSON.stringify(line)).join(newline) + (trailing ? newline : ''),
  }));
const singleDocument = fc.tuple(record, indent).map(([object, space]): Document => ({
  kind: 'single',
  text: JSON.stringify(object, null, space),
}));
const document = fc.oneof(arrayDocument, ndjsonDocument, singleDocument);

/** What JSON.parse makes of a document, as the reader should deliver it. */
function expectedRecords(doc: Document): [number, string, unknown][] {
  if (doc.kind === 'single') return [[1, '$', JSON.parse(doc.text)]];
  const values: unknown[] =
    doc.kind === 'array'
      ? (JSON.parse(doc.text) as unknown[])
      : doc.text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as unknown);
  return values.map((v, i) => [i + 1, `$[${i}]`, v]);
}

const recordsOf = (events: JsonEvent[]) =>
  events.filter((e) => e.kind === 'record').map((e) => [e.row, e.path, e.value]);

describe('reading valid documents', () => {
  it('equals JSON.parse, however the bytes are cut', () => {
    fc.assert(
      fc.property(document, picks, (doc, chosen) => {
        const bytes = encoder.encode(doc.text);
        const events = readJsonEvents(bytes, {}, cutsOf(bytes.length, chosen));
        expect(events.filter((e) => e.kind !== 'record')).toEqual([]);
        expect(recordsOf(events)).toEqual(expectedRecords(doc));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the same for every single cut of a small document', () => {
    fc.assert(
      fc.property(document, (doc) => {
        const bytes = encoder.encode(doc.text);
        fc.pre(bytes.length <= 300);
        const whole = readJsonEvents(bytes);
        for (let cut = 1; cut < bytes.length; cut++) {
          expect(readJsonEvents(bytes, {}, [cut])).toEqual(whole);
        }
      }),
      { numRuns: 60 },
    );
  });
});

/** A document with one thing broken: a character dropped, one inserted, or a bad byte. */
const brokenDocument = fc
  .tuple(
    document,
    fc.nat(),
    fc.constantFrom('drop', 'insert', 'bad byte'),
    fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '\n', ' ', '1', 'e', '-', 'x', '/'),
  )
  .map(([doc, at, how, insert]) => {
    const bytes = encoder.encode(doc.text);
    const i = bytes.length === 0 ? 0 : at % bytes.length;
    if (how === 'drop') return new Uint8Array([...bytes.subarray(0, i), ...bytes.subarray(i + 1)]);
    const inserted = how === 'insert' ? [...encoder.encode(insert)] : [0xff];
    return new Uint8Array([...bytes.subarray(0, i), ...inserted, ...bytes.subarray(i)]);
  });

describe('reading broken documents', () => {
  it('reports the same, however the bytes are cut and however early open records are checked', () => {
    fc.assert(
      fc.property(brokenDocument, picks, (bytes, chosen) => {
        const whole = readJsonEvents(bytes);
        expect(readJsonEvents(bytes, {}, cutsOf(bytes.length, chosen))).toEqual(whole);
        expect(
          readJsonEvents(bytes, {}, cutsOf(bytes.length, chosen), { firstSyntaxCheckChars: 4 }),
        ).toEqual(whole);
        for (const event of whole) {
          if (event.kind === 'issue') expect(event.message).toMatch(/line \d+, column \d+/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reports an array or a single value at most once and emits nothing after it', () => {
    const shaped = fc.oneof(
      arrayDocument.map((doc) => ({ doc, shape: 'array' as const })),
      singleDocument.map((doc) => ({ doc, shape: 'object' as const })),
    );
    fc.assert(
      fc.property(shaped, fc.nat(), fc.boolean(), ({ doc, shape }, at, forced) => {
        const bytes = encoder.encode(doc.text);
        // Left to detection, an array stays one while it starts with '['. (A single value can
        // turn into NDJSON: `{}` inserted on the first line of a pretty-printed object is a
        // complete first line.)
        const detect = !forced && shape === 'array';
        const i = detect ? 1 + (at % bytes.length) : at % (bytes.length + 1);
        const broken = new Uint8Array([
          ...bytes.subarray(0, i),
          0x7d /* } */,
          ...bytes.subarray(i),
        ]);
        const events = readJsonEvents(broken, detect ? {} : { shape });
        const firstIssue = events.findIndex((e) => e.kind === 'issue');
        if (firstIssue >= 0) expect(events.slice(firstIssue + 1)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

/** LosslessNumber → the double JSON.parse gives, to compare the exact parser with JSON.parse. */
function asDoubles(v: unknown): unknown {
  if (v instanceof LosslessNumber) return Number(v.raw);
  if (Array.isArray(v)) return v.map(asDoubles);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v))
      Object.defineProperty(out, k, {
        value: asDoubles(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return v;
}

describe('the exact parser', () => {
  it('accepts what JSON.parse accepts, with the same values', () => {
    const mutated = fc
      .tuple(
        document,
        fc.nat(),
        fc.constantFrom('{', '}', '"', ',', ':', '\\', '0', '.', 'e', '-', '+', ' ', ''),
      )
      .map(([doc, at, insert]) => {
        const i = doc.text.length === 0 ? 0 : at % doc.text.length;
        return insert === ''
          ? doc.text.slice(0, i) + doc.text.slice(i + 1)
          : doc.text.slice(0, i) + insert + doc.text.slice(i);
      });
    fc.assert(
      fc.property(
        fc.oneof(
          document.map((d) => d.text),
          mutated,
        ),
        (source) => {
          let expected: { ok: boolean; value?: unknown };
          try {
            expected = { ok: true, value: JSON.parse(source) as unknown };
          } catch {
            expected = { ok: false };
          }
          const result = parseExact(source, 0, source.length, { maxDepth: 1000, endName: 'file' });
          expect(result.ok).toBe(expected.ok);
          if (result.ok) expect(asDoubles(result.value)).toEqual(expected.value);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keeps long integer literals exactly: a number only when String() of it shows the literal', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (n) => {
        const literal = n.toString();
        const result = parseExact(`[${literal}]`, 0, literal.length + 2, {
          maxDepth: 64,
          endName: 'file',
        });
        expect(result.ok).toBe(true);
        const [parsed] = (result as { value: unknown[] }).value;
        const shownExactly = integerValue(String(Number(literal))) === n;
        if (shownExactly) expect(parsed).toBe(Number(literal));
        else expect(parsed).toEqual(new LosslessNumber(literal));
      }),
      { numRuns: 500 },
    );
  });
});

/** The integer a JS number's text ("-12", "1.5e+25") stands for. */
function integerValue(text: string): bigint {
  const [mantissa = '', exponent = '0'] = text.split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  return BigInt(whole + fraction) * 10n ** BigInt(Number(exponent) - fraction.length);
}

describe('long number literals through JSON.parse', () => {
  const longLiteral = fc.oneof(
    fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
    fc.stringMatching(/^-?[1-9]\d{0,20}(\.\d{1,20})?([eE][+-]?\d{1,4})?$/),
    fc.constantFrom(
      '1e400',
      '-1e-400',
      '9007199254740993',
      '9007199254740992',
      '0.30000000000000004',
    ),
  );
  const { rawValue } = fc.letrec((tie) => ({
    rawValue: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      longLiteral,
      text.map((t) => JSON.stringify(t)),
      fc.constantFrom('true', 'null', '1.5', '"\\u0000"'),
      fc.array(tie('rawValue'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
      fc
        .array(fc.tuple(text, tie('rawValue')), { maxLength: 4 })
        .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    ),
  }));
  const source = fc.oneof(
    rawValue,
    fc
      .tuple(
        rawValue,
        fc.nat(),
        fc.constantFrom('+', '-', '.', 'e', '0', ' ', ',', ':', '"', '{', '}', ''),
      )
      .map(([t, at, insert]) => {
        const i = t.length === 0 ? 0 : at % t.length;
        return insert === '' ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + insert + t.slice(i);
      }),
  );

  it('gives what the exact parser gives, or leaves the text to it', () => {
    let valid = 0;
    let viaJsonParse = 0;
    fc.assert(
      fc.property(source, (t) => {
        const exact = parseExact(t, 0, t.length, { maxDepth: 64, endName: 'file' });
        const kept = parseKeepingLongNumbers(t, longNumberSpans(t));
        if (!exact.ok) {
          expect(kept).toBeUndefined();
          return;
        }
        valid++;
        // Left to the exact parser when a marker could be forged (\u0000) or got lost (a
        // duplicate key dropped one); otherwise the same value.
        if (kept === undefined) return;
        viaJsonParse++;
        expect(kept).toEqual({ ok: true, value: exact.value });
      }),
      { numRuns: 2000 },
    );
    expect(viaJsonParse).toBeGreaterThan(valid * 0.7);
  });
});

/** Where the ValueScanner finds long number literals in the value that `text` starts with. */
function longNumberSpans(text: string): number[] {
  const scanner = new ValueScanner(64);
  scanner.reset();
  let start = 0;
  while (start < text.length && ' \t\n\r'.includes(text[start]!)) start++;
  if (start === text.length) return [];
  if (scanner.scan(text, start) === VALUE_CONTINUES) scanner.finish(text.length);
  return [...scanner.longNumbers];
}
