import type {
  InferFieldMisfits,
  InferRuleSuggestion,
  SchemaProblem,
  WebSchema,
} from '@schemacheck/engine';
import { Download, FileUp, Sparkles } from 'lucide-react';
import { useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';

import { downloadBlob } from '../lib/download';
import { loadEngine } from '../lib/engine';
import { plural } from '../lib/format';
import { fileTypeOf } from '../lib/result';
import { fromWebSchema, toWebSchema, type SchemaDraft } from '../lib/schema-draft';
import { fromWebRule } from '../lib/rules-draft';
import { ImportNote, InferMisfitsNote, InferRulesNote } from './schema-builder-notes';

// Infer from file, import and export, and what an import or inference found (split from
// schema-builder.tsx).

/** Bytes read from the start of a file to propose a schema. */
const INFER_BYTES = 4 * 1024 * 1024;
const INFER_ROWS = 1000;

export function SchemaTools({
  form,
  file,
  baseId,
  fieldCount,
  onReplaced,
}: {
  form: UseFormReturn<SchemaDraft>;
  file: File | null;
  baseId: string;
  fieldCount: number;
  onReplaced?: (() => void) | undefined;
}) {
  const { getValues, reset } = form;
  const importId = `${baseId}-import`;
  const importProblemsId = `${baseId}-import-problems`;
  const [importProblems, setImportProblems] = useState<SchemaProblem[] | null>(null);
  const [inferring, setInferring] = useState(false);
  // Rules of an imported schema the engine cannot check (decision 004): validation goes on
  // without them, so the person is told which, beside the schema, until they dismiss it.
  const [importWarnings, setImportWarnings] = useState<{ file: string; warnings: string[] } | null>(
    null,
  );
  // What the builder's form cannot hold of an imported schema (a type list, a requirement
  // inside an optional object…): the schema it now shows says less than the file did.
  const [importLosses, setImportLosses] = useState<{ file: string; losses: string[] } | null>(null);
  // Columns inference proposed no field for (a blank or repeated header, lists): said, not
  // dropped quietly, as the CLI's infer does.
  const [inferSkipped, setInferSkipped] = useState<{ file: string; columns: string[] } | null>(
    null,
  );
  // Values of the inferred fields that did not fit their proposed types: validation will report
  // them, and the person should see them before (docs/decisions/111).
  const [misfits, setMisfits] = useState<{ file: string; fields: InferFieldMisfits[] } | null>(
    null,
  );
  // Cross-field rules the sample supports: listed, added only by the person (docs/decisions/226).
  const [suggested, setSuggested] = useState<{
    file: string;
    rules: InferRuleSuggestion[];
  } | null>(null);
  const importInput = useRef<HTMLInputElement>(null);

  const replaceWith = (schema: WebSchema, keepName: boolean) => {
    const current = getValues();
    const draft = fromWebSchema(schema, current.fileType);
    if (keepName && current.name.trim()) draft.name = current.name;
    reset(draft);
    onReplaced?.();
  };

  const onImport = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    input.value = '';
    if (!chosen) return;
    const [{ parseSchemaText, exportSchema, exportLosses }, text] = await Promise.all([
      loadEngine(),
      chosen.text(),
    ]);
    const parsed = parseSchemaText(text);
    if (!parsed.ok) {
      setImportProblems(parsed.problems);
      toast({
        variant: 'destructive',
        title: 'Schema not imported',
        description: `${chosen.name} has ${parsed.problems.length === 1 ? 'a problem' : `${parsed.problems.length} problems`}; see the schema card.`,
      });
      return;
    }
    setImportProblems(null);
    setMisfits(null);
    setSuggested(null);
    setInferSkipped(null);
    setImportWarnings(
      parsed.warnings.length > 0 ? { file: chosen.name, warnings: parsed.warnings } : null,
    );
    const losses = exportLosses(parsed.value, 'web');
    setImportLosses(losses.length > 0 ? { file: chosen.name, losses } : null);
    replaceWith(exportSchema(parsed.value, 'web') as unknown as WebSchema, false);
    toast({
      title: 'Schema imported',
      description: `${plural(parsed.value.fields.length, 'field')} from ${chosen.name}.${
        parsed.warnings.length > 0
          ? ` ${plural(parsed.warnings.length, 'rule')} cannot be checked; see the schema card.`
          : ''
      }`,
    });
  };

  const onExport = () => {
    const draft = getValues();
    const schema = toWebSchema(draft);
    const name = (draft.name.trim() || 'schema').replace(/[^\w.-]+/g, '-');
    downloadBlob(
      new Blob([`${JSON.stringify(schema, null, 2)}\n`], { type: 'application/json' }),
      `${name}.json`,
    );
  };

  const onInfer = async () => {
    if (!file) return;
    setInferring(true);
    try {
      const fileType = fileTypeOf(file.name) ?? getValues('fileType');
      const [{ inferProposalFromBytes, describeSkipped }, buffer] = await Promise.all([
        loadEngine(),
        file.slice(0, INFER_BYTES).arrayBuffer(),
      ]);
      const bytes = new Uint8Array(buffer);
      const {
        schema,
        misfits: found,
        suggestedRules,
        skipped,
      } = inferProposalFromBytes(bytes, fileType, INFER_ROWS);
      if (schema.fields.length === 0) {
        toast({
          variant: 'destructive',
          title: 'Nothing to infer',
          description: `No columns or properties were found in ${file.name}.`,
        });
        return;
      }
      schema.fileType = fileType;
      if (!getValues('name').trim()) schema.name = file.name.replace(/\.[^.]+$/, '');
      replaceWith(schema, true);
      setImportProblems(null);
      setImportWarnings(null);
      setImportLosses(null);
      setInferSkipped(
        skipped.length > 0 ? { file: file.name, columns: skipped.map(describeSkipped) } : null,
      );
      setMisfits(found.length > 0 ? { file: file.name, fields: found } : null);
      setSuggested(suggestedRules.length > 0 ? { file: file.name, rules: suggestedRules } : null);
      const odd = found.reduce((n, f) => n + f.count, 0);
      toast({
        title: 'Schema inferred',
        description: `${plural(schema.fields.length, 'field')} proposed from ${file.name}.${
          odd > 0
            ? ` ${plural(odd, 'value does', 'values do')} not fit ${odd === 1 ? 'its' : 'their'} column's type; see the schema card.`
            : ' Review them before you validate.'
        }`,
      });
    } finally {
      setInferring(false);
    }
  };

  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => void onInfer()}
          disabled={!file || inferring}
          aria-describedby={file ? undefined : `${baseId}-infer-hint`}
        >
          {inferring ? <Spinner /> : <Sparkles aria-hidden="true" />}
          Infer from file
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => importInput.current?.click()}
          // Opens the chooser when tapped before hydration too (early-input.ts, decision 240).
          data-opens-file={importId}
        >
          <FileUp aria-hidden="true" />
          Import schema
        </Button>
        <input
          ref={importInput}
          id={importId}
          type="file"
          accept=".json,application/json"
          className="sr-only"
          tabIndex={-1}
          aria-label="Import schema file"
          onChange={(event) => void onImport(event.currentTarget)}
        />
        <Button variant="outline" size="sm" onClick={onExport} disabled={fieldCount === 0}>
          <Download aria-hidden="true" />
          Export schema
        </Button>
      </div>
      {!file ? (
        <p id={`${baseId}-infer-hint`} className="-mt-3 text-xs text-zinc-600">
          Select a file to infer its fields. Import accepts this form, JSON Schema or Table Schema.
        </p>
      ) : null}

      {importProblems ? (
        <ImportNote
          id={importProblemsId}
          tone="error"
          title="The imported schema was not used:"
          items={importProblems.map((problem) => (
            <>
              {problem.path ? <code className="font-mono text-xs">{problem.path}</code> : null}
              {problem.path ? ': ' : null}
              {problem.message}
            </>
          ))}
          onDismiss={() => setImportProblems(null)}
        />
      ) : null}

      {importWarnings ? (
        <ImportNote
          tone="warning"
          testId="import-warnings"
          title={`SchemaCheck cannot check ${plural(importWarnings.warnings.length, 'rule')} of ${
            importWarnings.file
          }; validation goes on without ${importWarnings.warnings.length === 1 ? 'it' : 'them'}:`}
          items={importWarnings.warnings}
          onDismiss={() => setImportWarnings(null)}
        />
      ) : null}

      {importLosses ? (
        <ImportNote
          tone="warning"
          testId="import-losses"
          title={`The schema builder cannot hold all of ${importLosses.file}; the schema shown says less:`}
          items={importLosses.losses}
          onDismiss={() => setImportLosses(null)}
        />
      ) : null}

      {inferSkipped ? (
        <ImportNote
          tone="warning"
          testId="infer-skipped"
          title={`${plural(inferSkipped.columns.length, 'column')} of ${inferSkipped.file} ${
            inferSkipped.columns.length === 1 ? 'has' : 'have'
          } no field in the proposed schema:`}
          items={inferSkipped.columns}
          onDismiss={() => setInferSkipped(null)}
        />
      ) : null}

      {misfits ? (
        <InferMisfitsNote
          file={misfits.file}
          fields={misfits.fields}
          onDismiss={() => setMisfits(null)}
        />
      ) : null}

      {suggested ? (
        <InferRulesNote
          file={suggested.file}
          suggestions={suggested.rules}
          onAdd={(chosen) => {
            form.setValue('rules', [...getValues('rules'), fromWebRule(chosen.rule)], {
              shouldDirty: true,
            });
            const rest = suggested.rules.filter((s) => s !== chosen);
            setSuggested(rest.length > 0 ? { ...suggested, rules: rest } : null);
            toast({ title: 'Rule added', description: 'See the Rules section under the fields.' });
          }}
          onDismiss={() => setSuggested(null)}
        />
      ) : null}
    </>
  );
}
