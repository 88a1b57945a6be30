// A file the engine will not read at all (a zip bomb, an .xls, an encrypted workbook): one clear
// reason, found before memory or disk is spent. Unlike validation issues, which are data, a
// refusal ends the read, so it travels as an exception the caller turns into exit 2 or a 4xx.

export type RefusalCode =
  | 'too_large'
  | 'compression_ratio'
  | 'too_many_entries'
  | 'nested_archive'
  | 'encrypted'
  | 'unsupported_compression'
  | 'corrupt_archive'
  | 'no_data_entry'
  | 'entry_not_found'
  | 'several_entries'
  | 'xls'
  | 'xlsb'
  | 'encrypted_workbook'
  | 'not_a_workbook'
  | 'sheet_not_found'
  | 'workbook_too_large';

export class InputRefusedError extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'InputRefusedError';
  }
}

export const refuse = (code: RefusalCode, message: string): never => {
  throw new InputRefusedError(code, message);
};
