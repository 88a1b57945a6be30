import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LosslessNumber, type FieldRules, type FieldSpec, type FieldType } from '../model.ts';
import { compileField, type Failure } from './compile.ts';

const NOW = new Date('2024-06-15T12:00:00Z');

function field(type: FieldType, rules: FieldRules = {}): ReturnType<typeof compileField> {
  const spec: FieldSpec = { name: 'f', type, required: false, rules };
  return compileField(spec, { now: NOW });
}

/** The failures of one CSV cell, as `code: message`. */
function text(type: FieldType, rules: FieldRules, value: string, row = 2): string[] {
  const out: Failure[] = [];
  field(type, rules).checkSpan(value, 0, value.length, row, out);
  return out.map((f) => `${f.code}: ${f.message}`);
}

function json(type: FieldType, rules: FieldRules, value: unknown): string[] {
  const out: Failure[] = [];
  field(type, rules).checkJson(value, 1, out);
  return out.map((f) => `${f.code}: ${f.message}`);
}

const codes = (type: FieldType, rules: FieldRules, value: string) =>
  text(type, rules, value).map((s) => s.slice(0, s.indexOf(':')));

describe('integer', () => {
  it.each(['0', '-1', '+5', '007', '12345678901234567890', '-0'])('accepts %j', (v) => {
    expect(text('integer', {}, v)).toEqual([]);
  });
  it.each([
    '1.0',
    '1e3',
    '1,000',
    ' 1',
    '1 ',
    '-',
    '+',
    '0x10',
    'NaN',
    'Infinity',
    '١',
    '１',
    '1_000',
    '--1',
  ])('refuses %j as a whole number', (v) => {
    expect(text('integer', {}, v)).toEqual(['type: Must be a whole number']);
  });
  it('compares beyond 2^53 exactly', () => {
    const rules = { maxValue: '9007199254740993' };
    expect(codes('integer', rules, '9007199254740993')).toEqual([]);
    expect(text('integer', rules, '9007199254740994')).toEqual([
      'maximum: Must be at most 9007199254740993',
    ]);
    expect(
      codes('integer', { minValue: '-99999999999999999999' }, '-100000000000000000000'),
    ).toEqual(['minimum']);
    expect(
      codes('integer', { minValue: '-99999999999999999999' }, '-99999999999999999999'),
    ).toEqual([]);
  });
  it('compares leading zeros by value', () => {
    expect(codes('integer', { maxValue: '10' }, '0000000000000000000010')).toEqual([]);
    expect(codes('integer', { maxValue: '10' }, '0000000000000000000011')).toEqual(['maximum']);
  });
});

describe('number', () => {
  it.each(['1', '1.5', '-1.5', '+.5', '5.', '1e3', '1E-3', '-0', '1.5e+10', '0.000'])(
    'accepts %j',
    (v) => {
      expect(text('number', {}, v)).toEqual([]);
    },
  );
  it.each([
    '1,000',
    '1,5',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x1F',
    ' 1',
    '1 ',
    '.',
    'e3',
    '1e',
    '1e+',
    '--1',
    '1.2.3',
    '١',
    '',
    '$5',
  ])('refuses %j', (v) => {
    expect(text('number', {}, v)).toEqual(['type: Must be a number']);
  });
  it.each([
    ['1.23', 2, true],
    ['1.234', 2, false],
    ['1.230', 2, false], // as written: three places
    ['100', 0, true],
    ['100.5', 0, false],
    ['1.5e1', 0, true], // 15
    ['1.234e1', 2, true], // 12.34
    ['1.234e1', 1, false],
    ['1e-3', 2, false],
    ['1e-3', 3, true],
  ] as const)('precision: %s with %i places → %s', (v, places, ok) => {
    expect(codes('number', { precision: places }, v)).toEqual(ok ? [] : ['precision']);
  });
  it('says how many places', () => {
    expect(text('number', { precision: 2 }, '1.234')).toEqual([
      'precision: Must have at most 2 decimal places',
    ]);
    expect(text('number', { precision: 1 }, '1.23')).toEqual([
      'precision: Must have at most 1 decimal place',
    ]);
    expect(text('number', { precision: 0 }, '1.2')).toEqual([
      'precision: Must have no decimal places',
    ]);
  });
  it.each([
    ['-0.01', { minValue: '0' }, ['minimum: Must be at least 0']],
    ['0', { minValue: '0' }, []],
    ['-0', { minValue: '0' }, []],
    ['100', { maxValue: '99.99' }, ['maximum: Must be at most 99.99']],
    ['99.99', { maxValue: '99.99' }, []],
    ['0', { exclusiveMinimum: '0' }, ['minimum: Must be greater than 0']],
    ['0.0001', { exclusiveMinimum: '0' }, []],
    ['10', { exclusiveMaximum: '10' }, ['maximum: Must be less than 10']],
    ['9.999', { exclusiveMaximum: '10' }, []],
    ['0.1', { minValue: '0.1' }, []],
    ['0.09999999999999999999', { minValue: '0.1' }, ['minimum: Must be at least 0.1']],
    ['0.10000000000000000001', { maxValue: '0.1' }, ['maximum: Must be at most 0.1']],
    ['1e400', { maxValue: '1e399' }, ['maximum: Must be at most 1e399']],
    ['-1e400', { minValue: '-1e399' }, ['minimum: Must be at least -1e399']],
    ['1.5e2', { minValue: '150', maxValue: '150' }, []],
    [
      '5',
      { minValue: '10', maxValue: '1' },
      ['minimum: Must be at least 10', 'maximum: Must be at most 1'],
    ],
  ] as const)('%s with %j', (v, rules, expected) => {
    expect(text('number', rules, v)).toEqual(expected);
  });
  it('reports precision and range together', () => {
    expect(codes('number', { precision: 2, minValue: '0' }, '-1.234')).toEqual([
      'precision',
      'minimum',
    ]);
  });
});

describe('boolean', () => {
  it.each([
    'true',
    'TRUE',
    'True',
    'tRuE',
    '1',
    'yes',
    'Yes',
    'on',
    'false',
    '0',
    'no',
    'OFF',
    'Off',
  ])('accepts %j', (v) => {
    expect(text('boolean', {}, v)).toEqual([]);
  });
  it.each(['y', 't', '2', ' true', 'true ', 'yes!', 'truee', 'ja'])('refuses %j', (v) => {
    expect(text('boolean', {}, v)).toEqual([
      'type: Must be true or false (true, 1, yes, on / false, 0, no, off)',
    ]);
  });
  it('uses the schema spellings instead of the defaults', () => {
    const rules = { truthy: ['Y', 'Ja'], falsy: ['N', 'Nein'] };
    expect(text('boolean', rules, 'y')).toEqual([]);
    expect(text('boolean', rules, 'JA')).toEqual([]);
    expect(text('boolean', rules, 'nEIN')).toEqual([]);
    expect(text('boolean', rules, 'true')).toEqual([
      'type: Must be true or false (Y, Ja / N, Nein)',
    ]);
  });
});

describe('date', () => {
  it.each(['2024-02-29', '2023-12-31', '0001-01-01'])('accepts %j', (v) => {
    expect(text('date', {}, v)).toEqual([]);
  });
  it.each(['2023-02-29', '2024-02-30', '2024-13-01', '2024-04-31', '2024-00-10'])(
    'refuses %j as not a real date',
    (v) => {
      expect(text('date', {}, v)).toEqual(['type: Not a real date: that day does not exist']);
    },
  );
  it.each(['2024-1-01', '24-01-01', '2024/01/01', '2024-01-01 ', ' 2024-01-01', '20240101'])(
    'refuses %j',
    (v) => {
      expect(text('date', {}, v)).toEqual(['type: Must be a date in the format YYYY-MM-DD']);
    },
  );
  it('uses the schema format', () => {
    expect(text('date', { format: 'DD/MM/YYYY' }, '31/12/2024')).toEqual([]);
    expect(text('date', { format: 'DD/MM/YYYY' }, '2024-12-31')).toEqual([
      'type: Must be a date in the format DD/MM/YYYY',
    ]);
    expect(text('date', { format: 'YYYY-MM-DD HH:mm:ss' }, '2024-12-31 24:00:00')).toEqual([
      'type: Not a real date and time: that day or time does not exist',
    ]);
    expect(text('date', { format: 'YYYY-MM-DD HH:mm:ss' }, '2024-12-31')).toEqual([
      'type: Must be a date and time in the format YYYY-MM-DD HH:mm:ss',
    ]);
  });
  it('checks minDate and maxDate inclusively, by day', () => {
    const rules = { minDate: '2024-01-01', maxDate: '2024-12-31' };
    expect(text('date', rules, '2023-12-31')).toEqual(['date_min: Must be on or after 2024-01-01']);
    expect(text('date', rules, '2024-01-01')).toEqual([]);
    expect(text('date', rules, '2024-12-31')).toEqual([]);
    expect(text('date', rules, '2025-01-01')).toEqual([
      'date_max: Must be on or before 2024-12-31',
    ]);
    const withTime = { ...rules, format: 'YYYY-MM-DD HH:mm:ss' };
    expect(text('date', withTime, '2024-12-31 23:59:59')).toEqual([]);
  });
  it('checks allowFuture and allowPast against today in UTC', () => {
    expect(text('date', { allowFuture: false }, '2024-06-15')).toEqual([]);
    expect(text('date', { allowFuture: false }, '2024-06-16')).toEqual([
      'date_future: Must not be in the future',
    ]);
    expect(text('date', { allowPast: false }, '2024-06-15')).toEqual([]);
    expect(text('date', { allowPast: false }, '2024-06-14')).toEqual([
      'date_past: Must not be in the past',
    ]);
    expect(text('date', { allowFuture: true, allowPast: true }, '1900-01-01')).toEqual([]);
  });
  it('takes "today" in UTC, not local time', () => {
    const lateEvening = new Date('2024-06-15T23:30:00-05:00'); // 2024-06-16 in UTC
    const f = compileField(
      { name: 'd', type: 'date', required: false, rules: { allowFuture: false } },
      { now: lateEvening },
    );
    const out: Failure[] = [];
    f.checkSpan('2024-06-16', 0, 10, 2, out);
    expect(out).toEqual([]);
  });
});

describe('email', () => {
  it.each([
    'a@b',
    'user@localhost',
    'first.last+tag@example.co.uk',
    '=cmd@example.com',
    "a!#$%&'*+/=?^_`{|}~-@x.io",
    '.a.@b.c',
    `a@${'x'.repeat(63)}.com`,
    'a@1.2.3.4',
  ])('accepts %j', (v) => {
    expect(text('email', {}, v)).toEqual([]);
  });
  it.each([
    'a',
    '@b.com',
    'a@',
    'a@b..com',
    'a@.b.com',
    'a@b.com.',
    'a@-b.com',
    'a@b-.com',
    'a b@c.com',
    'a@b.com ',
    ' a@b.com',
    'ä@b.com',
    'a@bü.com',
    'a@b_c.com',
    `a@${'x'.repeat(64)}.com`,
    'a@@b',
    'a@b@c',
    '"a"@b.com',
    'a@[1.2.3.4]',
  ])('refuses %j', (v) => {
    expect(text('email', {}, v)).toEqual(['type: Must be a valid email']);
  });
});

describe('url', () => {
  it.each([
    'https://example.com',
    'http://example.com/',
    'HTTP://EXAMPLE.COM/Path?q=1#frag',
    'http://localhost:8080/x',
    'https://a:65535',
    'https://shop.example.com/p/1?ref=a&utm_source=feed',
    'https://1.2.3.4/',
    'https://[::1]/',
    'https://münchen.de',
    'https://user:pw@host.com',
    'https://a_b.com',
    'https://example.com/%20x',
    'https://example.com/ü',
    'https://xn--mnchen-3ya.de',
    'https://a.b.c.d.e.f',
  ])('accepts %j', (v) => {
    expect(text('url', {}, v)).toEqual([]);
  });
  it.each([
    'ftp://x.com',
    'mailto:a@b.com',
    'javascript:alert(1)',
    'https://',
    'https:///x.com',
    'https:example.com',
    '//x.com',
    'www.example.com',
    'https://exa mple.com',
    ' https://x.com',
    'https://x.com ',
    'https://x.com/a b',
    'https://x.com/\ttab',
    'https://a..b',
    'https://.a.b',
    'https://x.com:99999',
    'https://x.com:65536',
    'https://example.123',
    'https://999.1.1.1',
    'https://a.0x1',
    'https://xn--a.com',
    'https:\\\\x.com',
    'https://x.com\\path',
  ])('refuses %j', (v) => {
    expect(text('url', {}, v)).toEqual([
      'type: Must be a valid URL starting with http:// or https://',
    ]);
  });
});

describe('string rules', () => {
  it('counts characters as code points', () => {
    expect(text('string', { minLength: 2 }, 'a')).toEqual([
      'min_length: Must be at least 2 characters',
    ]);
    expect(text('string', { minLength: 2 }, 'ab')).toEqual([]);
    expect(text('string', { minLength: 2 }, '😀')).toEqual([
      'min_length: Must be at least 2 characters',
    ]);
    expect(text('string', { minLength: 2 }, '😀😀')).toEqual([]);
    expect(text('string', { maxLength: 3 }, '😀😀😀')).toEqual([]);
    expect(text('string', { maxLength: 3 }, 'abcd')).toEqual([
      'max_length: Must be at most 3 characters',
    ]);
    expect(text('string', { maxLength: 1 }, 'ab')).toEqual([
      'max_length: Must be at most 1 character',
    ]);
    expect(text('string', { minLength: 1 }, 'x')).toEqual([]);
    expect(text('string', { maxLength: 100 }, 'x'.repeat(101))).toEqual([
      'max_length: Must be at most 100 characters',
    ]);
  });
  it('agrees with counting code points one by one', () => {
    const text = fc
      .array(fc.constantFrom('a', 'é', '😀', '\ud800', '\udc00', '漢'), { maxLength: 12 })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(
        text,
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (value, min, extra) => {
          const max = min + extra;
          const cp = Array.from(value).length;
          const expected = cp < min ? ['min_length'] : cp > max ? ['max_length'] : [];
          expect(codes('string', { minLength: min, maxLength: max }, value)).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
  it('matches the pattern as a search, anchored only by the pattern', () => {
    const sku = { pattern: '^[A-Z]{3}-\\d{4}$' };
    expect(text('string', sku, 'ABC-1234')).toEqual([]);
    expect(text('string', sku, 'abc-1234')).toEqual([
      'pattern: Must match the pattern ^[A-Z]{3}-\\d{4}$',
    ]);
    expect(text('string', { pattern: 'b' }, 'abc')).toEqual([]);
  });
  it('names the characters that are not allowed, once each', () => {
    expect(text('string', { allowedChars: 'abc' }, 'abcabc')).toEqual([]);
    expect(text('string', { allowedChars: 'abc' }, 'abd#d')).toEqual([
      'allowed_chars: Contains characters that are not allowed: d #',
    ]);
    expect(text('string', { allowedChars: 'ab' }, 'a b\tc')).toEqual([
      'allowed_chars: Contains characters that are not allowed: space tab c',
    ]);
    expect(text('string', { allowedChars: 'a😀' }, 'a😀a')).toEqual([]);
    expect(text('string', { allowedChars: 'a😀' }, 'a😁')).toEqual([
      'allowed_chars: Contains characters that are not allowed: 😁',
    ]);
    expect(text('string', { allowedChars: '0123456789' }, '12\u200b3')).toEqual([
      'allowed_chars: Contains characters that are not allowed: U+200B',
    ]);
  });
  it('reports every distinct rule failure of a cell', () => {
    const rules = { minLength: 5, pattern: '^[a-z]+$', allowedChars: 'abc' };
    expect(codes('string', rules, 'A')).toEqual(['min_length', 'pattern', 'allowed_chars']);
  });
});

describe('enum and values', () => {
  const categories = { values: ['Income', 'Expense', 'Transfer'] };
  it('compares as written', () => {
    expect(text('enum', categories, 'Income')).toEqual([]);
    expect(text('enum', categories, 'income')).toEqual([
      'enum: Must be one of: Income, Expense, Transfer. Did you mean "Income"?',
    ]);
    expect(text('enum', categories, 'Income ')).toEqual([
      'enum: Must be one of: Income, Expense, Transfer. Did you mean "Income"?',
    ]);
    expect(text('enum', categories, 'Refund')).toEqual([
      'enum: Must be one of: Income, Expense, Transfer',
    ]);
  });
  it('applies to other types after their type check, numbers compared by value', () => {
    expect(codes('integer', { values: ['1', '2'] }, '01')).toEqual([]);
    expect(codes('integer', { values: ['1', '2'] }, '3')).toEqual(['enum']);
    expect(codes('integer', { values: ['1', '2'] }, '2')).toEqual([]);
    expect(codes('integer', { values: ['1', '2'] }, 'x')).toEqual(['type']);
  });
  it('shortens a long list', () => {
    const values = Array.from({ length: 100 }, (_, i) => `value-${i}`);
    const [message] = text('enum', { values }, 'nope');
    expect(message).toMatch(/^enum: Must be one of: value-0, value-1, .* and \d+ more$/);
    expect((message as string).length).toBeLessThan(200);
  });
});

describe('a value that fails its type', () => {
  it('gets one type error and no further checks', () => {
    const rules = { minValue: '10', values: ['20'], minLength: 5, pattern: '^\\d+$', unique: true };
    expect(text('integer', rules, 'x')).toEqual(['type: Must be a whole number']);
    expect(codes('email', { maxLength: 2, values: ['a@b'] }, 'not an email')).toEqual(['type']);
  });
});

describe('unique', () => {
  it('reports the second and later occurrences with the row of the first', () => {
    const f = field('string', { unique: true });
    const run = (value: string, row: number) => {
      const out: Failure[] = [];
      f.checkSpan(value, 0, value.length, row, out);
      return out.map((x) => x.message);
    };
    expect(run('a', 2)).toEqual([]);
    expect(run('b', 3)).toEqual([]);
    expect(run('a', 4)).toEqual(['Duplicate value; first seen in row 2']);
    expect(run('a', 9)).toEqual(['Duplicate value; first seen in row 2']);
    expect(run('A', 10)).toEqual([]);
  });
  it('ignores values that failed their type', () => {
    const f = field('integer', { unique: true });
    const out: Failure[] = [];
    f.checkSpan('x', 0, 1, 2, out);
    f.checkSpan('x', 0, 1, 3, out);
    expect(out.map((x) => x.code)).toEqual(['type', 'type']);
  });
  it('keeps separate fields apart', () => {
    const a = field('string', { unique: true });
    const b = field('string', { unique: true });
    const out: Failure[] = [];
    a.checkSpan('same', 0, 4, 2, out);
    b.checkSpan('same', 0, 4, 2, out);
    expect(out).toEqual([]);
  });
});

describe('JSON typing', () => {
  it('takes JSON numbers for integer fields, integral values only', () => {
    expect(json('integer', {}, 1)).toEqual([]);
    expect(json('integer', {}, 1.0)).toEqual([]);
    expect(json('integer', {}, 1e21)).toEqual([]);
    expect(json('integer', {}, 1.5)).toEqual(['type: Must be a whole number']);
    expect(json('integer', {}, '2')).toEqual([
      'type: Must be a whole number, written without quotes',
    ]);
    expect(json('integer', {}, true)).toEqual(['type: Must be a whole number']);
    expect(json('integer', {}, { a: 1 })).toEqual(['type: Must be a whole number']);
    expect(json('integer', {}, [1])).toEqual(['type: Must be a whole number']);
  });
  it('reads big literals exactly', () => {
    const rules = { maxValue: '9007199254740992' };
    expect(json('integer', rules, new LosslessNumber('9007199254740993'))).toEqual([
      'maximum: Must be at most 9007199254740992',
    ]);
    expect(json('integer', {}, new LosslessNumber('9007199254740993.0'))).toEqual([]);
    expect(json('integer', {}, new LosslessNumber('1e400'))).toEqual([]);
    expect(json('integer', {}, new LosslessNumber('9007199254740993.5'))).toEqual([
      'type: Must be a whole number',
    ]);
    expect(json('number', { maxValue: '1e308' }, new LosslessNumber('1e400'))).toEqual([
      'maximum: Must be at most 1e308',
    ]);
  });
  it('checks a JSON number with the number rules', () => {
    expect(json('number', { precision: 2 }, 1.234)).toEqual([
      'precision: Must have at most 2 decimal places',
    ]);
    expect(json('number', { minValue: '0' }, -0.5)).toEqual(['minimum: Must be at least 0']);
    expect(json('number', {}, '1.5')).toEqual(['type: Must be a number, written without quotes']);
  });
  it('takes JSON booleans for boolean fields, whatever the CSV spellings', () => {
    expect(json('boolean', {}, true)).toEqual([]);
    expect(json('boolean', { truthy: ['Y'], falsy: ['N'] }, false)).toEqual([]);
    expect(json('boolean', {}, 'true')).toEqual([
      'type: Must be true or false, written without quotes',
    ]);
    expect(json('boolean', {}, 1)).toEqual(['type: Must be true or false']);
    expect(json('boolean', {}, {})).toEqual(['type: Must be true or false']);
  });
  it('takes JSON strings for the other types', () => {
    expect(json('string', {}, 'x')).toEqual([]);
    expect(json('string', {}, 5)).toEqual(['type: Must be text, written in quotes']);
    expect(json('string', {}, false)).toEqual(['type: Must be text, written in quotes']);
    expect(json('string', {}, { a: 1 })).toEqual(['type: Must be text']);
    expect(json('email', {}, 5)).toEqual(['type: Must be a valid email']);
    expect(json('date', {}, 20240101)).toEqual(['type: Must be a date in the format YYYY-MM-DD']);
    expect(json('url', {}, ['https://x.com'])).toEqual([
      'type: Must be a valid URL starting with http:// or https://',
    ]);
    expect(json('string', {}, '')).toEqual([]); // an empty JSON string is a value
    expect(json('string', { minLength: 1 }, '')).toEqual([
      'min_length: Must be at least 1 character',
    ]);
  });
  it('lets an enum list match numbers and booleans by their text', () => {
    const rules = { values: ['1', '2', 'true'] };
    expect(json('enum', rules, 1)).toEqual([]);
    expect(json('enum', rules, '2')).toEqual([]);
    expect(json('enum', rules, true)).toEqual([]);
    expect(json('enum', rules, 3)).toEqual(['enum: Must be one of: 1, 2, true']);
    expect(json('enum', rules, { a: 1 })).toEqual(['type: Must be one of: 1, 2, true']);
  });
  it('compares JSON numbers in a values list by their shortest text', () => {
    expect(json('integer', { values: ['1'] }, 1.0)).toEqual([]);
  });
});
