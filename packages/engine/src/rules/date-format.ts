export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export interface DateFormat {
  readonly format: string;
  /** The value's parts when it matches the format exactly and is a real calendar date/time. */
  parse(value: string): DateParts | null;
}

export type CompiledDateFormat = { ok: true; dateFormat: DateFormat } | { ok: false; message: string };

/** Tokens: YYYY MM DD HH mm ss; anything else that is a letter is an unknown token. */
export function compileDateFormat(format: string): CompiledDateFormat {
  void format;
  throw new Error('not implemented');
}
