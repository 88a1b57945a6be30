import { describe, expect, it } from 'vitest';
import { LosslessNumber } from '../model.ts';
import { readJsonEvents, type JsonEvent } from './read-events.ts';
import { createJsonReaderWithLimits, DEFAULT_JSON_READER_LIMITS } from './reader.ts';

const records = (events: JsonEvent[]) =>
  events.filter((e) => e.kind === 'record').map((e) => [e.row, e.path, e.value]);
const issues = (events: JsonEvent[]) =>
  events.filter((e) => e.kind === 'issue').map((e) => [e.row, e.path, e.code, e.message]);
const warnings = (events: JsonEvent[]) =>
  events.filter((e) => e.kind === 'warning').map((e) => e.code);

/** Every way of cutting the input in two, and one byte at a time, must read the same. */
function expectSameForEverySplit(input: string | Uint8Array, options = {}): JsonEvent[] {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const whole = readJsonEvents(bytes, options);
  for (let cut = 1; cut < bytes.length; cut++) {
    expect(readJsonEvents(bytes, options, [cut]), `cut at byte ${cut}`).toEqual(whole);
  }
  const everyByte = Array.from({ length: bytes.length }, (_, i) => i + 1);
  expect(readJsonEvents(bytes, options, everyByte), 'one byte at a time').toEqual(whole);
  return whole;
}

describe('shapes', () => {
  it('reads a top-level array one element at a time, rows from 1, paths $[i]', () => {
    const events = readJsonEvents('[\n  {"id": 1},\n  {"id": 2},\n  {"id": 3}\n]\n');
    expect(records(events)).toEqual([
      [1, '$[0]', { id: 1 }],
      [2, '$[1]', { id: 2 }],
      [3, '$[2]', { id: 3 }],
    ]);
    expect(issues(events)).toEqual([]);
  });

  it('reads a single top-level object as record 1 at path $', () => {
    const events = readJsonEvents('{\n  "id": 1,\n  "tags": ["a", "b"]\n}\n');
    expect(records(events)).toEqual([[1, '$', { id: 1, tags: ['a', 'b'] }]]);
    expect(issues(events)).toEqual([]);
  });

  it('detects NDJSON when a second value starts on a later line', () => {
    const events = readJsonEvents('{"id":1}\r\n\r\n  {"id":2}\n{"id":3}');
    expect(records(events)).toEqual([
      [1, '$[0]', { id: 1 }],
      [2, '$[1]', { id: 2 }],
      [3, '$[2]', { id: 3 }],
    ]);
    expect(issues(events)).toEqual([]);
  });

  it('emits elements that are not objects, for the validator to report', () => {
    expect(records(readJsonEvents('[1, "two", null, [3]]'))).toEqual([
      [1, '$[0]', 1],
      [2, '$[1]', 'two'],
      [3, '$[2]', null],
      [4, '$[3]', [3]],
    ]);
    expect(records(readJsonEvents(' "just text" '))).toEqual([[1, '$', 'just text']]);
    expect(records(readJsonEvents('42'))).toEqual([[1, '$', 42]]);
    expect(records(readJsonEvents('1\n2\n'))).toEqual([
      [1, '$[0]', 1],
      [2, '$[1]', 2],
    ]);
  });

  it('warns about an empty file and reads no records', () => {
    for (const input of ['', '  \n\t\r\n']) {
      const events = readJsonEvents(input);
      expect(warnings(events)).toEqual(['empty_file']);
      expect(records(events)).toEqual([]);
      expect(issues(events)).toEqual([]);
    }
    expect(readJsonEvents('[]')).toEqual([]);
  });

  it('follows a forced shape', () => {
    expect(records(readJsonEvents('[1,2]\n[3]', { shape: 'ndjson' }))).toEqual([
      [1, '$[0]', [1, 2]],
      [2, '$[1]', [3]],
    ]);
    expect(records(readJsonEvents('[1,2]', { shape: 'object' }))).toEqual([[1, '$', [1, 2]]]);
    expect(issues(readJsonEvents('{"a":1}', { shape: 'array' }))).toEqual([
      [
        1,
        '$',
        'parse_error',
        "Invalid JSON at line 1, column 1: expected '[' at the start of a JSON array, found '{'",
      ],
    ]);
    expect(issues(readJsonEvents('{"a":1}\n{"a":2}', { shape: 'object' }))).toEqual([
      [
        2,
        '$',
        'parse_error',
        "Invalid JSON at line 2, column 1: unexpected '{' after the JSON value",
      ],
    ]);
  });

  it('does not take a value spread over several lines followed by more data for NDJSON', () => {
    const events = readJsonEvents('{\n  "a": 1\n}\n{\n  "a": 2\n}\n');
    expect(records(events)).toEqual([[1, '$', { a: 1 }]]);
    expect(issues(events)).toEqual([
      [
        2,
        '$',
        'parse_error',
        "Invalid JSON at line 4, column 1: unexpected '{' after the JSON value",
      ],
    ]);
  });
});

describe('syntax errors', () => {
  it('names line and column and stops reading an array at the first one', () => {
    const events = readJsonEvents('[\n  {"id": 10},\n  {"id": 30} {"id": 40},\n  {"id": 50}\n]');
    expect(records(events)).toEqual([
      [1, '$[0]', { id: 10 }],
      [2, '$[1]', { id: 30 }],
    ]);
    expect(issues(events)).toEqual([
      [
        3,
        '$[2]',
        'parse_error',
        "Invalid JSON at line 3, column 14: expected ',' or ']' after an array element, found '{'",
      ],
    ]);
  });

  it('reports an error inside a record on that record, with its path', () => {
    const events = readJsonEvents('[{"a": 1},\n {"a": 2, "b": tru},\n {"a": 3}]');
    expect(records(events)).toEqual([[1, '$[0]', { a: 1 }]]);
    expect(issues(events)).toEqual([
      [
        2,
        '$[1]',
        'parse_error',
        "Invalid JSON at line 2, column 16: invalid value 'tru' (only true, false and null are allowed without quotes)",
      ],
    ]);
  });

  it.each([
    [
      '[1,]',
      "Invalid JSON at line 1, column 4: expected a value after ',' (trailing commas are not allowed)",
    ],
    [
      '[{"a":1,}]',
      "Invalid JSON at line 1, column 9: expected a property name after ',' (trailing commas are not allowed)",
    ],
    [
      '[1 /* two */]',
      "Invalid JSON at line 1, column 4: expected ',' or ']' after an array element, found '/'",
    ],
    [
      "[{'a':1}]",
      `Invalid JSON at line 1, column 3: expected a property name in double quotes, found "'"`,
    ],
    [
      '[NaN]',
      "Invalid JSON at line 1, column 2: invalid value 'NaN' (only true, false and null are allowed without quotes)",
    ],
    ['[{"n": 012}]', 'Invalid JSON at line 1, column 8: numbers must not have leading zeros'],
    ['[{"n": -}]', "Invalid JSON at line 1, column 9: expected a digit after '-', found '}'"],
    ['["a\tb"]', 'Invalid JSON at line 1, column 4: a tab must be escaped inside a string'],
    ['["\\x"]', "Invalid JSON at line 1, column 3: invalid escape '\\x' in a string"],
    [
      '[{"a" 1}]',
      "Invalid JSON at line 1, column 7: expected ':' after a property name, found '1'",
    ],
    [
      '[{"a":1]',
      "Invalid JSON at line 1, column 8: expected ',' or '}' after a property value, found ']'",
    ],
    ['[{"a":', 'Invalid JSON at line 1, column 7: the file ends where a value was expected'],
    ['[{"a":"b', 'Invalid JSON at line 1, column 9: the file ends inside a string'],
    [
      '[1, 2',
      "Invalid JSON at line 1, column 6: the file ends before the top-level array is closed with ']'",
    ],
    [
      '[1] x',
      "Invalid JSON at line 1, column 5: unexpected 'x' after the end of the top-level array",
    ],
  ])('rejects %j', (input, message) => {
    const found = issues(expectSameForEverySplit(input));
    expect(found).toHaveLength(1);
    expect(found[0]![3]).toBe(message);
  });

  it('counts columns in characters, so an emoji is one column', () => {
    expect(issues(readJsonEvents('["😀😀", x]'))[0]![3]).toBe(
      "Invalid JSON at line 1, column 8: invalid value 'x' (only true, false and null are allowed without quotes)",
    );
  });

  it('reports data after a single value once, after the record', () => {
    const events = readJsonEvents('{"a":1} {"b":2}');
    expect(records(events)).toEqual([[1, '$', { a: 1 }]]);
    expect(issues(events)).toEqual([
      [
        2,
        '$',
        'parse_error',
        "Invalid JSON at line 1, column 9: unexpected '{' after the JSON value",
      ],
    ]);
  });

  it('reports a broken single object on row 1 and reads nothing more', () => {
    const events = readJsonEvents('{\n  "a": 1,\n  "b": 2,\n}\n');
    expect(records(events)).toEqual([]);
    expect(issues(events)).toEqual([
      [
        1,
        '$',
        'parse_error',
        "Invalid JSON at line 4, column 1: expected a property name after ',' (trailing commas are not allowed)",
      ],
    ]);
  });
});

describe('NDJSON', () => {
  it('reports a bad line on its row and goes on with the next lines', () => {
    const input = '{"id":1}\n{"id":2,}\n\n{"id":3}\n[}\n{"id":4}\n';
    const events = expectSameForEverySplit(input);
    expect(records(events)).toEqual([
      [1, '$[0]', { id: 1 }],
      [3, '$[2]', { id: 3 }],
      [5, '$[4]', { id: 4 }],
    ]);
    expect(issues(events)).toEqual([
      [
        2,
        '$[1]',
        'parse_error',
        "Invalid JSON at line 2, column 9: expected a property name after ',' (trailing commas are not allowed)",
      ],
      [4, '$[3]', 'parse_error', "Invalid JSON at line 5, column 2: expected a value, found '}'"],
    ]);
  });

  it('treats a bad first line as line 1 of NDJSON when more lines follow', () => {
    const events = expectSameForEverySplit('{"id":1,,}\n{"id":2}\n');
    expect(records(events)).toEqual([[2, '$[1]', { id: 2 }]]);
    expect(issues(events)).toEqual([
      [
        1,
        '$[0]',
        'parse_error',
        "Invalid JSON at line 1, column 9: expected a property name in double quotes, found ','",
      ],
    ]);
  });

  it('reports data after the value on a line', () => {
    const events = expectSameForEverySplit('{"id":1} x\n{"id":2} {"id":3}\n{"id":4}');
    expect(records(events)).toEqual([[3, '$[2]', { id: 4 }]]);
    expect(issues(events)).toEqual([
      [
        1,
        '$[0]',
        'parse_error',
        "Invalid JSON at line 1, column 10: unexpected 'x' after the JSON value",
      ],
      [
        2,
        '$[1]',
        'parse_error',
        "Invalid JSON at line 2, column 10: unexpected '{' after the JSON value",
      ],
    ]);
  });

  it('takes a broken first line for one broken value when the next line does not start alike', () => {
    const cases: [string | Uint8Array, string][] = [
      [
        'x{\n  "a": 1\n}\n',
        "Invalid JSON at line 1, column 1: invalid value 'x' (only true, false and null are allowed without quotes)",
      ],
      [
        '{"a": tru, "b":\n  2\n}',
        "Invalid JSON at line 1, column 7: invalid value 'tru' (only true, false and null are allowed without quotes)",
      ],
      [
        new Uint8Array([
          ...new TextEncoder().encode('{"name": "caf'),
          0xe9,
          ...new TextEncoder().encode('",\n  "b": 2\n}'),
        ]),
        'Invalid UTF-8 at line 1, column 14 (byte offset 13)',
      ],
    ];
    for (const [input, message] of cases) {
      const events = expectSameForEverySplit(input);
      expect(records(events)).toEqual([]);
      expect(issues(events)).toEqual([[1, '$', expect.stringMatching(/_error$/), message]]);
    }
  });

  it('keeps reading NDJSON after an encoding error on the first line', () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"name":"caf'),
      0xe9,
      ...new TextEncoder().encode('"}\n{"name":"ok"}\n'),
    ]);
    const events = expectSameForEverySplit(bytes);
    expect(records(events)).toEqual([[2, '$[1]', { name: 'ok' }]]);
    expect(issues(events)).toEqual([
      [1, '$[0]', 'encoding_error', 'Invalid UTF-8 at line 1, column 13 (byte offset 12)'],
    ]);
  });

  it('says that a line ended early, not the file', () => {
    expect(issues(readJsonEvents('{"id":1}\n{"id":\n{"id":3}'))).toEqual([
      [
        2,
        '$[1]',
        'parse_error',
        'Invalid JSON at line 2, column 7: the line ends where a value was expected',
      ],
    ]);
  });

  it('limits an encoding error to its line', () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"id":1}\n{"name":"caf'),
      0xe9,
      ...new TextEncoder().encode('"}\n{"id":3}\n'),
    ]);
    const events = expectSameForEverySplit(bytes);
    expect(records(events)).toEqual([
      [1, '$[0]', { id: 1 }],
      [3, '$[2]', { id: 3 }],
    ]);
    expect(issues(events)).toEqual([
      [2, '$[1]', 'encoding_error', 'Invalid UTF-8 at line 2, column 13 (byte offset 21)'],
    ]);
  });
});

describe('nesting depth', () => {
  it('stops a 100,000-deep array with one clear error, without recursion', () => {
    const events = readJsonEvents('['.repeat(100_000) + ']'.repeat(100_000));
    expect(events).toEqual([
      {
        kind: 'issue',
        row: 1,
        path: '$[0]',
        code: 'parse_error',
        message: 'Nesting deeper than 64 levels at line 1, column 66',
      },
    ]);
  });

  it('counts from the record: the top-level array does not count', () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(issues(readJsonEvents(`[${nested(64)}]`))).toEqual([]);
    expect(issues(readJsonEvents(`[${nested(65)}]`))[0]![3]).toBe(
      'Nesting deeper than 64 levels at line 1, column 66',
    );
    // A single value is the record itself, so its own brackets count from column 1.
    expect(issues(readJsonEvents(nested(64), { shape: 'object' }))).toEqual([]);
    expect(issues(readJsonEvents(nested(65), { shape: 'object' }))[0]![3]).toBe(
      'Nesting deeper than 64 levels at line 1, column 65',
    );
  });

  it('follows options.maxDepth', () => {
    expect(issues(readJsonEvents('[{"a":{"b":[1]}}]', { maxDepth: 2 }))).toEqual([
      [1, '$[0]', 'parse_error', 'Nesting deeper than 2 levels at line 1, column 12'],
    ]);
    expect(records(readJsonEvents('[{"a":[1]}]', { maxDepth: 2 }))).toEqual([
      [1, '$[0]', { a: [1] }],
    ]);
  });

  it('reports a too deep NDJSON line and reads the next one', () => {
    const deep = '{"a":'.repeat(100) + '1' + '}'.repeat(100);
    const events = readJsonEvents(`{"id":1}\n${deep}\n{"id":3}\n`);
    expect(records(events).map((r) => r[0])).toEqual([1, 3]);
    expect(issues(events)).toEqual([
      [2, '$[1]', 'parse_error', 'Nesting deeper than 64 levels at line 2, column 321'],
    ]);
  });

  it('reports a syntax error before the nesting gets too deep first', () => {
    expect(issues(readJsonEvents('[[1 2' + '['.repeat(100)))[0]![3]).toBe(
      "Invalid JSON at line 1, column 5: expected ',' or ']' after an array element, found '2'",
    );
  });
});

describe('numbers', () => {
  const value = (literal: string) => {
    const found = records(readJsonEvents(`[{"n": ${literal}}]`));
    return (found[0]![2] as { n: unknown }).n;
  };

  it('keeps literals a double cannot hold as LosslessNumber', () => {
    for (const literal of [
      '9007199254740993',
      '12345678901234567890',
      '-12345678901234567890',
      '1e400',
      '-1e400',
      '1e-400',
      '1.00000000000000001',
      '0.1234567890123456789',
    ]) {
      expect(value(literal), literal).toEqual(new LosslessNumber(literal));
    }
  });

  it('gives plain numbers when the double is exact', () => {
    expect(value('9007199254740992')).toBe(9007199254740992);
    expect(value('100000000000000000000')).toBe(1e20);
    expect(value('1.0000000000000002')).toBe(1.0000000000000002);
    expect(value('123456789012345')).toBe(123456789012345);
    expect(value('-0.5e-3')).toBe(-0.0005);
    expect(value('1E2')).toBe(100);
    expect(Object.is(value('-0'), -0)).toBe(true);
  });

  it('keeps the other values of such a record as JSON.parse gives them', () => {
    const text =
      '[{"big": [1, 12345678901234567890], "s": "12345678901234567890", "t": true, "u": "\\u00e9"}]';
    expect(records(readJsonEvents(text))).toEqual([
      [
        1,
        '$[0]',
        {
          big: [1, new LosslessNumber('12345678901234567890')],
          s: '12345678901234567890',
          t: true,
          u: 'é',
        },
      ],
    ]);
  });

  it('works in every shape', () => {
    const big = new LosslessNumber('9007199254740993');
    expect(records(readJsonEvents('9007199254740993'))).toEqual([[1, '$', big]]);
    expect(records(readJsonEvents('[9007199254740993]'))).toEqual([[1, '$[0]', big]]);
    expect(records(readJsonEvents('{"n":1}\n{"n":9007199254740993}'))).toEqual([
      [1, '$[0]', { n: 1 }],
      [2, '$[1]', { n: big }],
    ]);
  });
});

describe('objects', () => {
  it('makes a __proto__ key an own property and pollutes nothing', () => {
    // The second record takes the exact parser's path (a long number), the first JSON.parse's.
    const events = readJsonEvents(
      '[{"__proto__": {"polluted": true}, "a": 1}, {"__proto__": {"polluted": true}, "n": 12345678901234567890}]',
    );
    const [first, second] = records(events).map((r) => r[2] as Record<string, unknown>);
    for (const record of [first!, second!]) {
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(Object.keys(record)).toContain('__proto__');
      expect(
        '__proto__' in record && Object.prototype.hasOwnProperty.call(record, '__proto__'),
      ).toBe(true);
      expect(record['__proto__']).toEqual({ polluted: true });
      expect((record as { polluted?: unknown }).polluted).toBeUndefined();
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('keeps the last of duplicate keys, in the position of the first', () => {
    for (const extra of ['', ', "n": 12345678901234567890']) {
      const found = records(readJsonEvents(`[{"a": 1, "b": 2, "a": 3${extra}}]`));
      const record = found[0]![2] as Record<string, unknown>;
      expect(record['a']).toBe(3);
      expect(Object.keys(record).slice(0, 2)).toEqual(['a', 'b']);
    }
  });
});

describe('encoding', () => {
  it('accepts a UTF-8 BOM with a warning', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('[{"a":1}]')]);
    const events = expectSameForEverySplit(bytes);
    expect(warnings(events)).toEqual(['bom']);
    expect(records(events)).toEqual([[1, '$[0]', { a: 1 }]]);
    expect(warnings(readJsonEvents(new Uint8Array([0xef, 0xbb, 0xbf])))).toEqual([
      'bom',
      'empty_file',
    ]);
  });

  it('takes U+FEFF anywhere else for what it is: not whitespace', () => {
    expect(issues(readJsonEvents('[1,\uFEFF2]'))[0]![3]).toBe(
      'Invalid JSON at line 1, column 4: expected a value, found U+FEFF',
    );
  });

  it('reports invalid UTF-8 with its line, column and byte offset, and stops', () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('[{"a":"é"},\n {"a":"x'),
      0xff,
      ...new TextEncoder().encode('"}, {"a":3}]'),
    ]);
    const events = expectSameForEverySplit(bytes);
    expect(records(events)).toEqual([[1, '$[0]', { a: 'é' }]]);
    expect(issues(events)).toEqual([
      [2, '$[1]', 'encoding_error', 'Invalid UTF-8 at line 2, column 9 (byte offset 21)'],
    ]);
  });

  it('reports a multibyte sequence cut off by the end of the file', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('["ab'), 0xe2, 0x82]);
    expect(issues(expectSameForEverySplit(bytes))).toEqual([
      [1, '$[0]', 'encoding_error', 'Invalid UTF-8 at line 1, column 5 (byte offset 4)'],
    ]);
  });

  it('never turns bad bytes into U+FFFD: overlong, surrogate and out-of-range forms are errors', () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0x80],
      [0xf8],
    ]) {
      const bytes = new Uint8Array([0x5b, 0x22, ...bad, 0x22, 0x5d]);
      expect(issues(readJsonEvents(bytes)), bad.join(' ')).toEqual([
        [1, '$[0]', 'encoding_error', 'Invalid UTF-8 at line 1, column 3 (byte offset 2)'],
      ]);
    }
  });

  it('hints at UTF-16', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x5b, 0x00, 0x5d, 0x00]);
    expect(issues(readJsonEvents(bytes))[0]![3]).toBe(
      'Invalid UTF-8 at line 1, column 1 (byte offset 0); the file looks like UTF-16, save it as UTF-8',
    );
  });
});

describe('streaming', () => {
  it('reads the same for every split of tricky text', () => {
    const inputs = [
      '[{"s":"a\\"b\\\\","t":"\\\\\\"","u":"\\u00e9\\ud83d\\ude00"}, "x\\\\"]',
      '[{"e":"é€😀"}, 12345678901234567890, -1.5e+300, 1e400, true, false, null]',
      '{"a":[1,{"b":null}]}\n{"a":2}\n',
      '\n\n {"n": 9007199254740993} \n',
      '[1, 2, {"a": [} ]',
      'true false',
    ];
    for (const input of inputs) expectSameForEverySplit(input);
  });

  it('gives up on a record that never ends without holding the rest of the file', () => {
    const messages: string[] = [];
    const reader = createJsonReaderWithLimits(
      {
        record: () => undefined,
        issue: (_row, _code, message) => messages.push(message),
        warning: () => undefined,
      },
      undefined,
      { ...DEFAULT_JSON_READER_LIMITS, maxDepth: 64, firstSyntaxCheckChars: 1024 },
    );
    const encoder = new TextEncoder();
    reader.push(encoder.encode('[{"a": 1 "b": 2, '));
    const more = encoder.encode('"x": "yyyyyyyy", '.repeat(100));
    let pushes = 0;
    while (messages.length === 0 && pushes < 10_000) {
      reader.push(more);
      pushes++;
    }
    // Found once the open record passed 1 KB, not at the end of a never-ending file.
    expect(pushes).toBe(1);
    expect(messages).toEqual([
      "Invalid JSON at line 1, column 10: expected ',' or '}' after a property value, found '\"'",
    ]);
  });

  it('reads a whole file pushed as one chunk like one pushed in small ones', () => {
    const records = Array.from({ length: 30_000 }, (_, i) => ({ id: i, name: `Café n°${i} 😀` }));
    const bytes = new TextEncoder().encode(JSON.stringify(records));
    expect(bytes.length).toBeGreaterThan(1 << 20);
    const whole = readJsonEvents(bytes);
    expect(whole).toHaveLength(30_000);
    expect(whole[29_999]).toEqual({
      kind: 'record',
      row: 30_000,
      path: '$[29999]',
      value: records[29_999],
    });
    const cuts = Array.from({ length: Math.floor(bytes.length / 4099) }, (_, i) => (i + 1) * 4099);
    expect(readJsonEvents(bytes, {}, cuts)).toEqual(whole);
  });

  it('reports a record larger than the record limit and reads the next ones', () => {
    const big = `[{"a": "${'x'.repeat(5000)}"}, {"a": 1}]`;
    const limits = { maxRecordChars: 2500, firstSyntaxCheckChars: 1024 };
    const whole = readJsonEvents(big, {}, [], limits);
    for (const cuts of [[1000, 2000, 3000, 4000], [7, 2501, 5003, 5006], [5010]]) {
      expect(readJsonEvents(big, {}, cuts, limits)).toEqual(whole);
    }
    expect(whole).toEqual([
      {
        kind: 'issue',
        row: 1,
        path: '$[0]',
        code: 'record_too_large',
        message:
          'Record too large: the record that starts at line 1, column 2 is longer than 2,500 characters, the most one record may have; it was not checked',
      },
      { kind: 'record', row: 2, path: '$[1]', value: { a: 1 } },
    ]);
  });

  it('reports a record with too many members without building it, in every shape', () => {
    const wide = `{${Array.from({ length: 300 }, (_, i) => `"k${i}":1`).join(',')}}`;
    const tiny = `{"a":[${Array(300).fill('{}').join(',')}]}`;
    const limits = { maxRecordMembers: 200, firstSyntaxCheckChars: 64 };
    const message = (column: number) =>
      `Record too large: the record that starts at line 1, column ${column} has more than 200 values and properties, the most one record may have; it was not checked`;
    const array = `[${wide},${tiny},{"ok":true}]`;
    for (const cuts of [[], [50, 100, 1000, 2000, 3000], [1, 2, 3]]) {
      expect(readJsonEvents(array, {}, cuts, limits)).toEqual([
        { kind: 'issue', row: 1, path: '$[0]', code: 'record_too_large', message: message(2) },
        {
          kind: 'issue',
          row: 2,
          path: '$[1]',
          code: 'record_too_large',
          message: message(wide.length + 3),
        },
        { kind: 'record', row: 3, path: '$[2]', value: { ok: true } },
      ]);
    }
    const ndjson = `${wide}\n{"ok":1}\n${tiny}\n`;
    expect(issues(readJsonEvents(ndjson, { shape: 'ndjson' }, [100], limits))).toEqual([
      [1, '$[0]', 'record_too_large', message(1)],
      [3, '$[2]', 'record_too_large', expect.stringContaining('line 3, column 1 has more')],
    ]);
    expect(issues(readJsonEvents(wide, {}, [100], limits))).toEqual([
      [1, '$', 'record_too_large', message(1)],
    ]);
    // At the limit it is an ordinary record.
    expect(readJsonEvents(`[${wide}]`, {}, [], { maxRecordMembers: 300 })).toHaveLength(1);
  });

  it('stops on broken nesting inside a record it is skipping', () => {
    const big = `[{"a":[${Array(600).fill('1').join(',')}}]`;
    // Found too large at the end of the second piece; the bad bracket comes in the third.
    expect(issues(readJsonEvents(big, {}, [200, 400], { maxRecordMembers: 100 }))).toEqual([
      [1, '$[0]', 'record_too_large', expect.stringContaining('has more than 100 values')],
      [1, '$[0]', 'parse_error', expect.stringContaining("unexpected '}'")],
    ]);
  });
});
