/** A user pattern compiled for linear-time matching (RE2 semantics), the same in browser and server. */
export interface SafeRegex {
  readonly source: string;
  /** Search semantics, like RegExp.prototype.test and JSON Schema `pattern`: anchor with ^ and $. */
  test(value: string): boolean;
}

export type CompiledRegex = { ok: true; regex: SafeRegex } | { ok: false; message: string };

export function compileSafeRegex(pattern: string): CompiledRegex {
  void pattern;
  throw new Error('not implemented');
}
