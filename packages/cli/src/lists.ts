import { readListValues } from '@schemacheck/engine';
import { readBytes, UsageError } from './io.ts';

// `--list NAME=FILE` (repeatable): the reference lists a schema's `inList` names
// (docs/decisions/203). FILE is a text file, one value a line, or a .csv file whose first
// column (or the column named after `#`: `codes.csv#iso2`, by header or 1-based position)
// holds the values. Each file is read once, into the engine's ValidateOptions.lists: a file of one
// value a line as its bytes, which the engine's set keeps as they are (no string per value).

export async function loadLists(
  specs: readonly string[] | undefined,
): Promise<Record<string, ReadonlySet<string>> | undefined> {
  if (!specs || specs.length === 0) return undefined;
  const lists: Record<string, ReadonlySet<string>> = {};
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = eq > 0 ? spec.slice(0, eq) : '';
    const target = eq > 0 ? spec.slice(eq + 1) : '';
    if (name === '' || target === '')
      throw new UsageError(
        `--list takes NAME=FILE (one value a line, or FILE.csv#column): ${spec}`,
      );
    if (name in lists) throw new UsageError(`--list ${name} is given twice`);
    const hash = target.lastIndexOf('#');
    const path = hash > 0 ? target.slice(0, hash) : target;
    const column = hash > 0 ? target.slice(hash + 1) : undefined;
    const csv = column !== undefined || /\.csv$/i.test(path);
    const read = readListValues(await readBytes(path), {
      csv,
      ...(column !== undefined && column !== '' ? { column } : {}),
    });
    if (!read.ok) throw new UsageError(`--list ${name}: ${path}: ${read.message}`);
    lists[name] = read.values;
  }
  return lists;
}
