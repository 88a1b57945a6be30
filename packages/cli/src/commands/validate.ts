import {
  createCsvReportWriter,
  createValidator,
  type DetectedFileType,
  detectFileType,
  fileNameKind,
  finishResult,
  sendCells,
  type FileType,
  type InputChoice,
  type Issue,
  type SchemaModel,
  type ValidationResult,
  validatorOptionsFor,
} from '@schemacheck/engine';
import { type FileOutcome, formatGithub, formatJunit, summaryLine } from '../ci-formats.ts';
import type { CliOptions } from '../main.ts';
import { type CliInput, openPath, refusalsAsUsage } from '../inputs.ts';
import {
  type Io,
  UsageError,
  loadSchema,
  parseFileType,
  parsePositiveInteger,
  parseSchemaFormat,
} from '../io.ts';
import { loadLists } from '../lists.ts';
import { drained, outputClosed } from '../output.ts';
import { createProgress } from '../progress.ts';
import { openRowOutputs } from '../row-outputs.ts';
import { FieldCodeCounts, formatText } from '../text-report.ts';
import { type ChunkStats, validateFileInParallel } from '../parallel/validate-chunks.ts';

const FORMATS = ['text', 'json', 'csv', 'github', 'junit'] as const;
type OutputFormat = (typeof FORMATS)[number];

const DELIMITERS: Record<string, string> = {
  ',': ',',
  ';': ';',
  '|': '|',
  tab: '\t',
  '\t': '\t',
  '\\t': '\t',
};

interface RunSettings {
  schema: SchemaModel;
  format: OutputFormat;
  maxErrors: number;
  delimiter: string | undefined;
  fileType: FileType | undefined;
  color: boolean;
  /** Workbook sheet, zip entry: which data in a container. */
  sheet: string | undefined;
  entry: string | undefined;
  validOut: string | undefined;
  invalidOut: string | undefined;
  /** --list NAME=FILE: the reference lists for inList rules. */
  lists: Record<string, ReadonlySet<string>> | undefined;
  /** Threads for one CSV or JSON file (--jobs); standard input is read with one. */
  jobs: number;
}

/**
 * `validate <file...>`: each file in turn against one schema, one summary at the end (several
 * files), exit 1 if any file has errors. The shell expands globs (`data/*.csv`).
 */
export async function validateCommand(paths: string[], options: CliOptions, io: Io) {
  if (paths.length === 0)
    throw new UsageError('validate needs a file (or - for standard input)', true);
  if (paths.length > 1 && paths.includes('-'))
    throw new UsageError('standard input (-) cannot be mixed with other files', true);
  if (options.schema === undefined) throw new UsageError('validate needs --schema <file>', true);
  const format = (options.format ?? 'text') as OutputFormat;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of: ${FORMATS.join(', ')}`);
  if (format === 'csv' && paths.length > 1)
    throw new UsageError('--format csv reports one file; run it once per file');
  const maxErrors = parsePositiveInteger('--max-errors', options['max-errors'], 1000);
  let delimiter: string | undefined;
  if (options.delimiter !== undefined) {
    delimiter = DELIMITERS[options.delimiter];
    if (delimiter === undefined) throw new UsageError('--delimiter must be , ; | or tab');
  }
  const settings: RunSettings = {
    schema: await loadSchema(options.schema, parseSchemaFormat(options['schema-format']), io),
    format,
    maxErrors,
    delimiter,
    fileType: parseFileType(options['file-type']),
    color: !options['no-color'] && io.stdout.isTTY === true && !io.env.NO_COLOR,
    sheet: options.sheet,
    entry: options.entry,
    validOut: options['valid-out'],
    invalidOut: options['invalid-out'],
    lists: await loadLists(options.list),
    // One thread unless asked: the chunked path is slower today (decision 211).
    jobs: parsePositiveInteger('--jobs', options.jobs, 1),
  };
  const splitting = settings.validOut !== undefined || settings.invalidOut !== undefined;
  if (splitting && paths.length > 1)
    throw new UsageError('--valid-out and --invalid-out take one file; run once per file');

  const outcomes: FileOutcome[] = [];
  for (const path of paths) {
    // Standard output closed (`| head`) and a file already invalid: the exit status is 1 whatever
    // the other files hold, and nobody reads their output.
    if (outputClosed(io.stdout) && outcomes.some((o) => !o.result.valid)) break;
    // A zip may hold several data files: each is validated in turn, as if named one by one.
    const opened = await openPath(path, inputChoice(settings), io);
    try {
      const n = opened.inputs.length;
      if (splitting && n > 1)
        throw new UsageError(
          `${path} holds ${n} data files; pick one with --entry to write --valid-out or --invalid-out`,
        );
      if (format === 'csv' && n > 1)
        throw new UsageError(
          `--format csv reports one file; ${path} holds ${n}: pick one with --entry`,
        );
      for (const input of opened.inputs) {
        if (outputClosed(io.stdout) && outcomes.some((o) => !o.result.valid)) break;
        outcomes.push(await validateFile(input, settings, io, path === '-' ? undefined : path));
      }
    } finally {
      await opened.close();
    }
  }

  if (format === 'json') {
    // One file: the result itself (as before). Several: each under its name.
    const body =
      outcomes.length === 1
        ? outcomes[0]!.result
        : {
            valid: outcomes.every((o) => o.result.valid),
            files: outcomes.map((o) => ({ file: o.name, ...o.result })),
          };
    io.stdout.write(`${JSON.stringify(body)}\n`);
  } else if (format === 'github') {
    io.stdout.write(formatGithub(outcomes));
  } else if (format === 'junit') {
    io.stdout.write(formatJunit(outcomes));
  } else if (format === 'text' && outcomes.length > 1) {
    io.stdout.write(`${summaryLine(outcomes)}\n`);
  }
  return outcomes.every((o) => o.result.valid) ? 0 : 1;
}

function inputChoice(settings: RunSettings): InputChoice {
  const choice: InputChoice = {
    schema: settings.schema,
    decide: (name, first) => decideFileType(name, first, settings.fileType, settings.schema),
  };
  if (settings.sheet !== undefined) choice.sheet = settings.sheet;
  if (settings.entry !== undefined) choice.entry = settings.entry;
  return choice;
}

async function validateFile(
  input: CliInput,
  settings: RunSettings,
  io: Io,
  /** The file on disk, when the input is that file's own bytes (not standard input). */
  filePath: string | undefined,
): Promise<FileOutcome> {
  const { schema, format } = settings;
  const opened = await input.open();
  const { fileType } = opened;
  const isSheet = opened.sheet !== undefined;

  const counts = new FieldCodeCounts();
  let errorsSeen = 0;
  const report =
    format === 'csv'
      ? createCsvReportWriter((text) => io.stdout.write(text), {
          withPath: fileType === 'json',
          withCell: isSheet,
        })
      : undefined;
  const delimiter = settings.delimiter ?? opened.delimiter;
  const rows = await openRowOutputs(
    delimiter === undefined ? opened : { ...opened, delimiter },
    settings.validOut,
    settings.invalidOut,
  );
  const validatorOptions = validatorOptionsFor(opened, {
    maxErrors: settings.maxErrors,
    onIssue: (issue: Issue) => {
      // A warning neither makes the exit status known nor belongs in the errors by column.
      if (issue.severity !== 'warning') {
        errorsSeen += 1;
        counts.add(issue);
      }
      report?.add(issue);
      rows?.splitter.issue(issue);
    },
  });
  if (settings.delimiter !== undefined) validatorOptions.delimiter = settings.delimiter;
  if (settings.lists !== undefined) validatorOptions.lists = settings.lists;
  // Tables of seen values (unique, uniqueTogether) are then sized for the file at once.
  if (input.size !== undefined) validatorOptions.inputBytes = input.size;
  const validator = createValidator(schema, validatorOptions);
  // Without row outputs nothing wants a sheet's CSV: its cells go to the validator directly
  // (decision 244). What was checked is then counted as the workbook's size.
  const cellsOnly = rows === undefined && sendCells(opened, validator);

  const progress = createProgress(io, input.size);
  const started = performance.now();
  let bytes = 0;
  let parallelResult: ValidationResult | undefined;
  try {
    // --jobs N: a plain CSV or JSON file big enough to gain from threads
    // (parallel/validate-chunks.ts).
    if (
      filePath !== undefined &&
      settings.jobs > 1 &&
      (opened.fileType === 'csv' || opened.fileType === 'json') &&
      opened.sheet === undefined &&
      opened.compression === undefined &&
      (input.size ?? 0) >= parallelMinBytes(io)
    ) {
      const outcome = await validateFileInParallel({
        path: filePath,
        fileType: opened.fileType,
        jsonShape: opened.jsonShape,
        schema,
        jobs: settings.jobs,
        maxErrors: settings.maxErrors,
        delimiter,
        ...(validatorOptions.lists === undefined ? {} : { lists: validatorOptions.lists }),
        ...(validatorOptions.maxFieldBytes === undefined
          ? {}
          : { maxFieldBytes: validatorOptions.maxFieldBytes }),
        // One "today" for every thread (allowFuture / allowPast).
        now: validatorOptions.now ?? new Date(),
        blockBytes: chunkBytesFor(io),
        onIssue: validatorOptions.onIssue ?? (() => {}),
        // Every issue is wanted only by the full report and the invalid rows.
        tally:
          report === undefined && rows === undefined
            ? {
                onTally: (entries) => {
                  for (const [field, code, warning, count] of entries) {
                    if (warning) continue;
                    errorsSeen += count;
                    counts.addCount(field, code, count);
                  }
                },
              }
            : undefined,
        wantBytes: rows !== undefined,
        async onBytes(length, chunk) {
          if (chunk !== undefined) rows?.splitter.push(chunk);
          bytes += length;
          progress.update(bytes);
          if (report) await drained(io.stdout);
          await rows?.drain();
          return rows !== undefined || errorsSeen === 0 || !outputClosed(io.stdout);
        },
      });
      // A file ranges could read otherwise (UTF-16, a sep= line, one JSON value) goes the
      // single-thread way.
      if ('result' in outcome) parallelResult = outcome.result;
      if (io.env.SCHEMACHECK_TRACE_CHUNKS) {
        const { stats } = outcome as { stats?: ChunkStats };
        io.stderr.write(
          'refused' in outcome
            ? `schemacheck: ${input.name}: one thread (${outcome.refused})\n`
            : `schemacheck: ${input.name}: ${stats!.ranges} ranges on ${settings.jobs} threads, ${stats!.rerun} validated again with earlier values${stats!.restFrom === undefined ? '' : `, the range from byte ${stats!.restFrom} read on to the end in one piece`}\n`,
        );
      }
    }
    if (parallelResult === undefined)
      await refusalsAsUsage(async () => {
        for await (const chunk of opened.chunks) {
          validator.push(chunk);
          rows?.splitter.push(chunk);
          bytes += chunk.byteLength;
          progress.update(bytes);
          // A slow reader of the CSV report must not make the report pile up in memory.
          if (report) await drained(io.stdout);
          await rows?.drain();
          if (validator.stopped) break;
          // A reader that has gone (`| head -1`): with an error found the exit status is known (1),
          // so the rest of the file is not read for output nobody receives (unless rows are being
          // written to files, which still want every row).
          if (!rows && errorsSeen > 0 && outputClosed(io.stdout)) break;
        }
      });
  } catch (error) {
    progress.done();
    await rows?.close();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${input.name}: ${(error as Error).message}`);
  }
  if (cellsOnly) bytes = input.size ?? bytes;
  const result = finishResult(opened, parallelResult ?? validator.end());
  rows?.splitter.end();
  await rows?.close();
  progress.done();
  const seconds = (performance.now() - started) / 1000;
  if (format === 'text') {
    const color = settings.color;
    io.stdout.write(formatText({ name: input.name, result, counts, bytes, seconds, color }));
  }
  return { name: input.name, fileType, result, seconds };
}

/**
 * The engine's rule, as on the server and in the browser (the schema's type, then the name, then
 * the first bytes), with two allowances for a local tool: `--file-type` overrides everything, and
 * tab-separated or plain-text tables (.tsv, .tab, .txt) are read as CSV.
 */
function decideFileType(
  name: string,
  first: Uint8Array | undefined,
  flag: FileType | undefined,
  schema: SchemaModel,
): DetectedFileType {
  if (flag) {
    return flag === 'json' && fileNameKind(name) === 'ndjson'
      ? { fileType: flag, jsonShape: 'ndjson' }
      : { fileType: flag };
  }
  const detected = detectFileType(name, first ?? new Uint8Array(), schema.fileType);
  if (detected) return detected;
  if (fileNameKind(name) === 'none' || /\.(tsv|tab|txt)$/i.test(name)) return { fileType: 'csv' };
  throw new UsageError(
    `${name} is not a CSV, JSON, Excel, gzip or zip file (name it .csv, .json, .ndjson, .jsonl, .xlsx, .gz or .zip, or pass --file-type)`,
  );
}

/**
 * The smallest file worth threads (starting them costs ~50 ms each). SCHEMACHECK_PARALLEL_MIN_BYTES
 * and SCHEMACHECK_CHUNK_BYTES change it and the chunk size, for tests and measurements only.
 */
function parallelMinBytes(io: Io): number {
  const set = Number(io.env.SCHEMACHECK_PARALLEL_MIN_BYTES);
  return Number.isInteger(set) && set >= 0 ? set : 4 << 20;
}

function chunkBytesFor(io: Io): number | undefined {
  const set = Number(io.env.SCHEMACHECK_CHUNK_BYTES);
  return Number.isInteger(set) && set > 0 ? set : undefined;
}
