import { parseArgs, type ParseArgsConfig } from 'node:util';
import { outputFailure, watchOutput } from './output.ts';
import { UsageError, type Io, processIo } from './process-io.ts';

/** The package's version, from package.json, inlined by scripts/build.js. */
declare const __SCHEMACHECK_VERSION__: string;

export const EXIT_VALID = 0;
/** @public The exit code of a file with errors (README: exit codes). */
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

const USAGE = `Usage: schemacheck <command> [options]

Commands:
  validate <file...> --schema <file>  Check CSV, JSON, Excel (.xlsx), .gz or .zip files
                                      (or - for stdin) against a schema
  infer <file>                        Propose a schema from the first rows of a file
  convert <schema> --to <form>        Convert a schema to web, jsonschema or tableschema

Options:
  -h, --help               This help
  -v, --version            The version of schemacheck

Options for validate:
  --schema <file>          Schema: web form, public API form, JSON Schema or Table Schema
  --schema-format <form>   web | api | jsonschema | tableschema (detected when omitted)
  --format <format>        text (default) | json | csv (the full error report, one file)
                           | github (Actions annotations) | junit (JUnit XML)
  --max-errors <n>         Errors kept in the result (default 1000); all are counted
  --file-type <type>       csv | json (else the schema's type, the file name or its content)
  --delimiter <char>       , ; | or tab (detected when omitted)
  --sheet <name|n>         Excel: the sheet to check, by name or position (default: the first visible)
  --entry <name>           Zip: the file inside to check (default: every data file in turn)
  --valid-out <file>       Write the rows without errors there (CSV for CSV and Excel; JSON as given)
  --invalid-out <file>     Write the rows with errors there, with an errors column
  --jobs <n>               Threads for one CSV, NDJSON or JSON-array file on disk (default 1;
                           stdin, gzip and zip use 1); the output is the same for every n
  --list <name=file>       A reference list for the schema's inList rules: a text file, one
                           value a line, or a .csv's first column (file.csv#column for
                           another); repeat for each list
  --no-color               Plain text even on a terminal

Options for infer:
  --rows <n>               Rows to learn from (default 1000)
  --file-type <type>       csv | json

Exit status: 0 valid, 1 a file has errors, 2 bad usage, unreadable file or bad schema.
`;

const OPTIONS = {
  schema: { type: 'string' },
  'schema-format': { type: 'string' },
  format: { type: 'string' },
  'max-errors': { type: 'string' },
  'file-type': { type: 'string' },
  delimiter: { type: 'string' },
  sheet: { type: 'string' },
  entry: { type: 'string' },
  'valid-out': { type: 'string' },
  'invalid-out': { type: 'string' },
  jobs: { type: 'string' },
  rows: { type: 'string' },
  to: { type: 'string' },
  'no-color': { type: 'boolean' },
  list: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies ParseArgsConfig['options'];

export type CliOptions = ReturnType<typeof parseCli>['values'];

function parseCli(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

/** Runs one command and returns its exit status; never throws for anything a user can cause. */
export async function run(argv: string[], io: Io = processIo()): Promise<number> {
  // Before anything is written: a closed standard output must not crash the run (output.ts).
  watchOutput(io.stdout);
  const status = await runCommand(argv, io);
  const failure = outputFailure(io.stdout);
  if (failure) {
    io.stderr.write(`schemacheck: cannot write the output: ${failure.message}\n`);
    return EXIT_USAGE;
  }
  return status;
}

async function runCommand(argv: string[], io: Io): Promise<number> {
  let parsed: ReturnType<typeof parseCli>;
  try {
    parsed = parseCli(argv);
  } catch (error) {
    io.stderr.write(`schemacheck: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const [command, ...positionals] = parsed.positionals;
  if (parsed.values.version) {
    // Unbuilt (the sources run by a test runner), there is no inlined version to print.
    const version =
      typeof __SCHEMACHECK_VERSION__ === 'string' ? __SCHEMACHECK_VERSION__ : 'unbuilt';
    io.stdout.write(`schemacheck ${version}\n`);
    return EXIT_VALID;
  }
  if (parsed.values.help || command === undefined || command === 'help') {
    (command === undefined && !parsed.values.help ? io.stderr : io.stdout).write(USAGE);
    return command === undefined && !parsed.values.help ? EXIT_USAGE : EXIT_VALID;
  }
  try {
    switch (command) {
      // Each command is loaded when it runs: `--help` and usage errors never load the engine.
      case 'validate':
        return await (
          await import('./commands/validate.ts')
        ).validateCommand(positionals, parsed.values, io);
      case 'infer':
        return await (
          await import('./commands/infer.ts')
        ).inferCommand(positionals, parsed.values, io);
      case 'convert':
        return await (
          await import('./commands/convert.ts')
        ).convertCommand(positionals, parsed.values, io);
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`schemacheck: ${error.message}\n${error.showUsage ? `\n${USAGE}` : ''}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
