import { exportLosses, exportSchema } from '@schemacheck/engine';
import type { CliOptions } from '../main.ts';
import { type Io, UsageError, loadSchema, parseSchemaFormat } from '../io.ts';

const TARGETS = ['web', 'jsonschema', 'tableschema'] as const;

export async function convertCommand(positionals: string[], options: CliOptions, io: Io) {
  const [path, ...extra] = positionals;
  if (path === undefined) throw new UsageError('convert needs a schema file', true);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`, true);
  const to = options.to as (typeof TARGETS)[number] | undefined;
  if (to === undefined || !TARGETS.includes(to)) {
    throw new UsageError(`convert needs --to ${TARGETS.join('|')}`);
  }
  // The schema's warnings name what it says that the engine does not check (an `if` with `else`):
  // the converted schema leaves that out, so they are printed as validate prints them.
  const schema = await loadSchema(path, parseSchemaFormat(options['schema-format']), io);
  for (const loss of exportLosses(schema, to))
    io.stderr.write(`schemacheck: warning: ${path} --to ${to}: ${loss}\n`);
  io.stdout.write(`${JSON.stringify(exportSchema(schema, to), null, 2)}\n`);
  return 0;
}
