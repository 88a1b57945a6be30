// Every message a validation issue can carry, in one place: plain English for people who
// fix spreadsheets, not for developers. Values from the schema are quoted as the schema wrote them.

const MAX_LISTED_CHARS = 160;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const messages = {
  required: 'Is required',

  // types
  integer: 'Must be a whole number',
  number: 'Must be a number',
  boolean: (truthy: readonly string[], falsy: readonly string[]) =>
    `Must be true or false (${truthy.join(', ')} / ${falsy.join(', ')})`,
  date: (format: string) =>
    /[Hms]/.test(format)
      ? `Must be a date and time in the format ${format}`
      : `Must be a date in the format ${format}`,
  /** Written in the format, but no such day or time (30 February, month 13, 25:00). */
  dateNotReal: (format: string) =>
    /[Hms]/.test(format)
      ? 'Not a real date and time: that day or time does not exist'
      : 'Not a real date: that day does not exist',
  email: 'Must be a valid email',
  url: 'Must be a valid URL starting with http:// or https://',
  /** JSON only: a CSV cell is always text. */
  text: 'Must be text',
  jsonInteger: 'Must be a whole number, written without quotes',
  jsonNumber: 'Must be a number, written without quotes',
  jsonBoolean: 'Must be true or false, written without quotes',
  jsonText: 'Must be text, written in quotes',
  jsonTrueFalse: 'Must be true or false',
  /** JSON Schema's type list: `Must be text or a whole number`. */
  oneOfTypes: (names: readonly string[]) =>
    `Must be ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] as string}` : (names[0] ?? '')}`,
  jsonObject: (children: readonly string[]) =>
    children.length === 0
      ? 'Must be an object'
      : `Must be an object containing ${quotedList(children)}`,

  // rules
  minLength: (n: number) => `Must be at least ${plural(n, 'character', 'characters')}`,
  maxLength: (n: number) => `Must be at most ${plural(n, 'character', 'characters')}`,
  pattern: (source: string) => `Must match the pattern ${source}`,
  allowedChars: (found: readonly string[]) =>
    `Contains characters that are not allowed: ${found.map(showChar).join(' ')}`,
  minimum: (bound: string) => `Must be at least ${bound}`,
  maximum: (bound: string) => `Must be at most ${bound}`,
  exclusiveMinimum: (bound: string) => `Must be greater than ${bound}`,
  exclusiveMaximum: (bound: string) => `Must be less than ${bound}`,
  precision: (places: number) =>
    places === 0
      ? 'Must have no decimal places'
      : `Must have at most ${plural(places, 'decimal place', 'decimal places')}`,
  enum: (values: readonly string[]) => `Must be one of: ${shortList(values)}`,
  dateMin: (date: string) => `Must be on or after ${date}`,
  dateMax: (date: string) => `Must be on or before ${date}`,
  dateFuture: 'Must not be in the future',
  datePast: 'Must not be in the past',
  unique: (firstRow: number) => `Duplicate value; first seen in row ${firstRow}`,

  // structure
  missingColumn: (name: string) => `Column '${name}' is missing`,
  unexpectedColumn: (name: string) => `Unexpected column '${name}'`,
  columnAfter: (name: string, previous: string) =>
    `Column '${name}' should come after '${previous}'`,
  columnBefore: (name: string, next: string) => `Column '${name}' should come before '${next}'`,
  duplicateColumn: (name: string) => `Column '${name}' appears more than once`,
  blankHeader: (position: number) => `Column ${position} has no name in the header`,
  cellCount: (cells: number, header: number) =>
    `Row has ${plural(cells, 'cell', 'cells')} but the header has ${header}`,
  notAnObject: (found: string) => `Each record must be an object; found ${found}`,
  additionalProperty: (name: string) => `Unexpected property '${name}'`,

  // warnings
  errorsTruncated: (kept: number, total: number) =>
    `Only the first ${grouped(kept)} of ${grouped(total)} errors are listed; the full report has them all`,
  ignoredOption: (option: string, fileType: string) =>
    `The ${option} option does not apply to ${fileType} files`,
};

type Kind = 'number' | 'date' | 'boolean' | 'text';

const ORDER_WORDS: Record<string, string> = {
  '=': 'equal to',
  '!=': 'different from',
  '>': 'greater than',
  '>=': 'at least',
  '<': 'less than',
  '<=': 'at most',
};
const DATE_WORDS: Record<string, string> = {
  '=': 'the same as',
  '!=': 'different from',
  '>': 'after',
  '>=': 'on or after',
  '<': 'before',
  '<=': 'on or before',
};
const opWords = (op: string, kind: Kind) => (kind === 'date' ? DATE_WORDS : ORDER_WORDS)[op] ?? op;
const quoted = (v: string) => `"${v}"`;

/** Messages of cross-field rules: they name the other field and its value. */
export const ruleMessages = {
  /** The condition as it held in the row: `country is "DE"`. */
  condition: (
    when: { field: string; op: string; value?: string | string[] },
    kind: Kind,
    actual: string,
  ): string => {
    const f = when.field;
    switch (when.op) {
      case 'isEmpty':
        return `${f} is empty`;
      case 'isNotEmpty':
      case '=':
      case 'in':
        return `${f} is ${quoted(actual)}`;
      case 'notIn':
        return `${f} is ${quoted(actual)}, not one of ${shortList(when.value as string[])}`;
      default:
        return `${f} is ${quoted(actual)}, ${opWords(when.op, kind)} ${quoted(when.value as string)}`;
    }
  },
  requiredWhen: (condition: string) => `Required when ${condition}`,
  emptyWhen: (condition: string) => `Must be empty when ${condition}`,
  allowedValuesWhen: (values: readonly string[], condition: string) =>
    `Must be one of: ${shortList(values)} when ${condition}`,
  requireOneOf: (names: readonly string[], min: number, max: number): string => {
    const list = names.join(', ');
    if (max === Infinity)
      return min === 1
        ? `At least one of ${list} is required`
        : `At least ${min} of ${list} are required`;
    if (min === max) return `Exactly ${min === 1 ? 'one' : min} of ${list} must be filled in`;
    if (min === 0) return `At most ${max === 1 ? 'one' : max} of ${list} may be filled in`;
    return `Between ${min} and ${max} of ${list} must be filled in`;
  },
  compareField: (op: string, kind: Kind, other: string, otherValue: string) =>
    `Must be ${opWords(op, kind)} ${other} (${quoted(otherValue)})`,
  compareValue: (op: string, kind: Kind, value: string) =>
    `Must be ${opWords(op, kind)} ${kind === 'text' ? quoted(value) : value}`,
  sumField: (label: string, total: string, tolerance: string | undefined) =>
    `Must equal ${label} = ${total}${tolerance === undefined ? '' : ` (within ${tolerance})`}`,
  sumValue: (label: string, value: string, total: string, tolerance: string | undefined) =>
    `${label} must add up to ${value}${tolerance === undefined ? '' : ` (within ${tolerance})`}; it is ${total}`,
  uniqueTogether: (names: readonly string[], firstRow: number) =>
    `Duplicate combination of ${names.join(', ')}; first seen in row ${firstRow}`,
  /** "Did you mean" appended to an enum or list message. */
  didYouMean: (message: string, suggestion: string) => `${message}. Did you mean "${suggestion}"?`,
  inList: (list: string) => `Must be a value of the list ${list}`,
  listNotGiven: (list: string, field: string) =>
    `The list '${list}' of field '${field}' was not given, so its values were not checked against it`,
};

/**
 * A rule's own message: `{field}`, `{value}` and `{other}` are replaced by the field's name, its
 * value and the other value the rule looked at; anything else is kept as written.
 */
export function renderTemplate(
  template: string,
  field: string,
  value: string,
  other: string,
): string {
  return template.replace(/\{(field|value|other)\}/g, (_m, key: string) =>
    key === 'field' ? field : key === 'value' ? value : other,
  );
}

/** 12,345 — by hand: toLocaleString loads locale data, which costs milliseconds on first use. */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `a, b, c`, shortened to about MAX_LISTED_CHARS with "and N more" so a long enum stays readable. */
function shortList(values: readonly string[]): string {
  let text = '';
  for (let i = 0; i < values.length; i++) {
    const next = i === 0 ? (values[i] as string) : `${text}, ${values[i] as string}`;
    if (i > 0 && next.length > MAX_LISTED_CHARS) return `${text} and ${values.length - i} more`;
    text = next;
  }
  return text;
}

function quotedList(names: readonly string[]): string {
  return shortList(names.map((n) => `'${n}'`));
}

/** Whitespace and control characters are named, since they are invisible in a message. */
function showChar(ch: string): string {
  if (ch === ' ') return 'space';
  if (ch === '\t') return 'tab';
  if (ch === '\n') return 'line break';
  if (ch === '\r') return 'carriage return';
  const code = ch.codePointAt(0) as number;
  if (
    code < 0x20 ||
    (code >= 0x7f && code <= 0xa0) ||
    code === 0xfeff ||
    (code >= 0x2000 && code <= 0x200f)
  ) {
    return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return ch;
}
