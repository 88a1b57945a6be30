import { once } from 'node:events';
import {
  createCsvReportWriter,
  createValidator,
  type FileType,
  type Issue,
  type ValidateOptions,
} from '@schemacheck/engine';
import type { CliOptions } from '../main.ts';
import {
  type Io,
  UsageError,
  loadSchema,
  openInput,
  parseFileType,
  parsePositiveInteger,
  parseSchemaFormat,
} from '../io.ts';
import { createProgress } from '../progress.ts';
import { FieldCodeCounts, formatText } from '../text-report.ts';

const FORMATS = ['text', 'json', 'csv'] as const;
type OutputFormat = (typeof FORMATS)[number];

const DELIMITERS: Record<string, string> = {
  ',': ',',
  ';': ';',
  '|': '|',
  tab: '\t',
  '\t': '\t',
  '\\t': '\t',
};

export async function validateCommand(positionals: string[], options: CliOptions, io: Io) {
  const [path, ...extra] = positionals;
  if (path === undefined)
    throw new UsageError('validate needs a file (or - for standard input)', true);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`, true);
  if (options.schema === undefined) throw new UsageError('validate needs --schema <file>', true);
  const format = (options.format ?? 'text') as OutputFormat;
  if (!FORMATS.includes(format)) throw new UsageError('--format must be text, json or csv');
  const maxErrors = parsePositiveInteger('--max-errors', options['max-errors'], 1000);
  let delimiter: string | undefined;
  if (options.delimiter !== undefined) {
    delimiter = DELIMITERS[options.delimiter];
    if (delimiter === undefined) throw new UsageError('--delimiter must be , ; | or tab');
  }

  const schema = await loadSchema(options.schema, parseSchemaFormat(options['schema-format']));
  const input = await openInput(path, io);
  const chunks = input.chunks[Symbol.asyncIterator]();
  const first = await nextChunk(chunks, input.name);
  const fileType =
    parseFileType(options['file-type']) ??
    fileTypeFromName(input.name) ??
    schema.fileType ??
    sniffFileType(first);

  const counts = new FieldCodeCounts();
  const report =
    format === 'csv'
      ? createCsvReportWriter((text) => io.stdout.write(text), { withPath: fileType === 'json' })
      : undefined;
  const validatorOptions: ValidateOptions = {
    fileType,
    maxErrors,
    onIssue: (issue: Issue) => {
      counts.add(issue);
      report?.add(issue);
    },
  };
  if (delimiter !== undefined) validatorOptions.delimiter = delimiter;
  if (/\.(ndjson|jsonl)$/i.test(input.name)) validatorOptions.jsonShape = 'ndjson';
  const validator = createValidator(schema, validatorOptions);

  const progress = createProgress(io, input.size);
  const started = performance.now();
  let bytes = 0;
  for (let chunk = first; chunk !== undefined; chunk = await nextChunk(chunks, input.name)) {
    validator.push(chunk);
    bytes += chunk.byteLength;
    progress.update(bytes);
    // A slow reader of the CSV report must not make the report pile up in memory.
    if (report && io.stdout.writableNeedDrain) await once(io.stdout, 'drain');
  }
  const result = validator.end();
  progress.done();
  const seconds = (performance.now() - started) / 1000;

  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(result)}\n`);
  } else if (format === 'text') {
    const color = !options['no-color'] && io.stdout.isTTY === true && !io.env.NO_COLOR;
    io.stdout.write(formatText({ name: input.name, result, counts, bytes, seconds, color }));
  }
  return result.valid ? 0 : 1;
}

async function nextChunk(
  chunks: AsyncIterator<Uint8Array>,
  name: string,
): Promise<Uint8Array | undefined> {
  try {
    const next = await chunks.next();
    return next.done ? undefined : next.value;
  } catch (error) {
    throw new UsageError(`cannot read ${name}: ${(error as Error).message}`);
  }
}

function fileTypeFromName(name: string): FileType | undefined {
  if (/\.(csv|tsv|tab|txt)$/i.test(name)) return 'csv';
  if (/\.(json|ndjson|jsonl)$/i.test(name)) return 'json';
  return undefined;
}

/** Neither the name nor the schema says: a file whose first character opens JSON is JSON. */
function sniffFileType(first: Uint8Array | undefined): FileType {
  if (first === undefined) return 'csv';
  let i = first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf ? 3 : 0;
  while (
    i < first.length &&
    (first[i] === 0x20 || first[i] === 0x0a || first[i] === 0x0d || first[i] === 0x09)
  )
    i++;
  return first[i] === 0x5b || first[i] === 0x7b ? 'json' : 'csv';
}
