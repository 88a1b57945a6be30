import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { clientSample } from '../../../apps/web/src/features/api-docs/client-sample.ts';

// The client sample shown on /api-docs compiles, strict, against the client's own sources: a
// renamed helper or option fails here rather than on a reader's machine.

const CLIENT = fileURLToPath(new URL('../src/index.ts', import.meta.url));

function typeCheck(source: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-client-sample-'));
  const file = path.join(dir, 'sample.ts');
  // What a receiver has around the last line: the raw body and the request.
  writeFileSync(
    file,
    `${source}\ndeclare const rawBody: string;\ndeclare const request: { headers: Record<string, string> };\nconsole.log(job, usage, event);\nexport {};\n`,
  );
  const program = ts.createProgram([file], {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [fileURLToPath(new URL('../../../node_modules/@types', import.meta.url))],
    paths: { '@schemacheck/client': [CLIENT] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('the /api-docs client sample', () => {
  it('type-checks against the client', () => {
    expect(typeCheck(clientSample('https://schemacheck.example/api/v1'))).toEqual([]);
  }, 180_000);

  it('and the check has teeth', () => {
    const wrong = clientSample('https://x/api/v1').replace('sc.runJob(', 'sc.runJobs(');
    expect(typeCheck(wrong).join('\n')).toMatch(/runJobs/);
  }, 180_000);
});
