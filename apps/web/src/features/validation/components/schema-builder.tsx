import type { InferFieldMisfits, SchemaProblem } from '@schemacheck/engine';
import { Download, FileUp, Plus, Sparkles } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';

import { downloadBlob } from '../lib/download';
import { loadEngine } from '../lib/engine';
import { plural } from '../lib/format';
import { fileTypeOf } from '../lib/result';
import {
  emptyField,
  fromWebSchema,
  toWebSchema,
  type ProblemMap,
  type SchemaDraft,
} from '../lib/schema-draft';
import type { WebSchema } from '@schemacheck/engine';
import { FieldEditor, selectClass, TYPE_LABELS } from './field-editor';

/** Bytes read from the start of a file to propose a schema. */
const INFER_BYTES = 4 * 1024 * 1024;
const INFER_ROWS = 1000;

interface SchemaBuilderProps {
  form: UseFormReturn<SchemaDraft>;
  problems: ProblemMap;
  /** The selected file, for "Infer from file". */
  file: File | null;
  /** Extra actions (the dashboard's Save and Load). */
  actions?: ReactNode;
  /** Called when the builder replaces the whole schema (import, infer). */
  onReplaced?: () => void;
}

export function SchemaBuilder({ form, problems, file, actions, onReplaced }: SchemaBuilderProps) {
  const { register, control, getValues, reset } = form;
  const { fields, append, remove, move } = useFieldArray({ control, name: 'fields' });
  const [announcement, setAnnouncement] = useState('');
  const [importProblems, setImportProblems] = useState<SchemaProblem[] | null>(null);
  const [inferring, setInferring] = useState(false);
  // Rules of an imported schema the engine cannot check (decision 004): validation goes on
  // without them, so the person is told which, beside the schema, until they dismiss it.
  const [importWarnings, setImportWarnings] = useState<{ file: string; warnings: string[] } | null>(
    null,
  );
  // Values of the inferred fields that did not fit their proposed types: validation will report
  // them, and the person should see them before (docs/decisions/111).
  const [misfits, setMisfits] = useState<{ file: string; fields: InferFieldMisfits[] } | null>(
    null,
  );
  const importInput = useRef<HTMLInputElement>(null);
  const baseId = useId();
  const importId = `${baseId}-import`;
  const importProblemsId = `${baseId}-import-problems`;

  const focusLater = (elementId: string) =>
    requestAnimationFrame(() => document.getElementById(elementId)?.focus());

  const onMove = (from: number, to: number) => {
    if (to < 0 || to >= fields.length) return;
    const rowId = fields[from]!.id;
    move(from, to);
    const name = getValues(`fields.${to}.name`) || `Field ${from + 1}`;
    setAnnouncement(`${name} moved to position ${to + 1} of ${fields.length}.`);
    // Keep focus on the moved field's button; at either end, the other direction.
    const direction = to < from ? 'up' : 'down';
    const atEnd = direction === 'up' ? to === 0 : to === fields.length - 1;
    focusLater(`field-${rowId}-${atEnd ? (direction === 'up' ? 'down' : 'up') : direction}`);
  };

  const onRemove = (index: number) => {
    const name = getValues(`fields.${index}.name`) || `Field ${index + 1}`;
    remove(index);
    setAnnouncement(`${name} removed.`);
    const next = fields[index + 1] ?? fields[index - 1];
    focusLater(next ? `field-${next.id}-name` : `${baseId}-add`);
  };

  const onAdd = () => {
    append(emptyField(), { shouldFocus: true });
  };

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
    const [{ parseSchemaText, exportSchema }, text] = await Promise.all([
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
    setImportWarnings(
      parsed.warnings.length > 0 ? { file: chosen.name, warnings: parsed.warnings } : null,
    );
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
      const [{ inferProposalFromBytes }, buffer] = await Promise.all([
        loadEngine(),
        file.slice(0, INFER_BYTES).arrayBuffer(),
      ]);
      const bytes = new Uint8Array(buffer);
      const { schema, misfits: found } = inferProposalFromBytes(bytes, fileType, INFER_ROWS);
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
      setMisfits(found.length > 0 ? { file: file.name, fields: found } : null);
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
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <CardTitle>Schema</CardTitle>
            <CardDescription>The fields your file must have, and their rules.</CardDescription>
          </div>
          {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
          <div className="grid gap-1.5">
            <Label htmlFor={`${baseId}-name`}>Schema name</Label>
            <Input
              id={`${baseId}-name`}
              autoComplete="off"
              placeholder="e.g. Product feed"
              {...register('name')}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${baseId}-filetype`}>File type</Label>
            <select id={`${baseId}-filetype`} className={selectClass} {...register('fileType')}>
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
            </select>
          </div>
        </div>

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
          <Button variant="outline" size="sm" onClick={() => importInput.current?.click()}>
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
          <Button variant="outline" size="sm" onClick={onExport} disabled={fields.length === 0}>
            <Download aria-hidden="true" />
            Export schema
          </Button>
        </div>
        {!file ? (
          <p id={`${baseId}-infer-hint`} className="-mt-3 text-xs text-zinc-600">
            Select a file to infer its fields. Import accepts this form, JSON Schema or Table
            Schema.
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

        {misfits ? (
          <InferMisfitsNote
            file={misfits.file}
            fields={misfits.fields}
            onDismiss={() => setMisfits(null)}
          />
        ) : null}

        {problems.schema.length > 0 ? (
          <div role="alert" className="grid gap-1">
            {problems.schema.map((message, i) => (
              <FieldError key={i} id={`${baseId}-schema-error-${i}`} message={message} />
            ))}
          </div>
        ) : null}

        <fieldset className="grid gap-3">
          <legend className="mb-2 flex w-full items-center justify-between text-sm font-semibold text-zinc-900">
            Fields
            <span className="text-xs font-normal text-zinc-600">
              {fields.length === 1 ? '1 field' : `${fields.length} fields`}
            </span>
          </legend>
          {fields.length === 0 ? (
            <p className="rounded-lg border border-dashed border-zinc-300 bg-zinc-50 px-4 py-6 text-center text-sm text-zinc-600">
              No fields yet. Add one, or infer them from a file.
            </p>
          ) : (
            <ol className="grid gap-3">
              {fields.map((field, index) => (
                <FieldEditor
                  key={field.id}
                  form={form}
                  index={index}
                  count={fields.length}
                  rowId={field.id}
                  problems={problems.fields[index]}
                  onMove={onMove}
                  onRemove={onRemove}
                />
              ))}
            </ol>
          )}
          <Button id={`${baseId}-add`} variant="secondary" onClick={onAdd} className="w-full">
            <Plus aria-hidden="true" />
            Add field
          </Button>
        </fieldset>

        <SchemaOptions form={form} baseId={baseId} />

        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
      </CardContent>
    </Card>
  );
}

function SchemaOptions({ form, baseId }: { form: UseFormReturn<SchemaDraft>; baseId: string }) {
  const fileType = form.watch('fileType');
  const box =
    'size-4 rounded accent-indigo-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2';
  return (
    <details className="rounded-lg border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm">
      <summary className="cursor-pointer font-medium text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
        File structure options
      </summary>
      <div className="mt-3 grid gap-2">
        {fileType === 'csv' ? (
          <>
            <label className="flex items-center gap-2 text-zinc-800" htmlFor={`${baseId}-order`}>
              <input
                id={`${baseId}-order`}
                type="checkbox"
                className={box}
                {...form.register('orderMatters')}
              />
              Columns must appear in this order
            </label>
            <label className="flex items-center gap-2 text-zinc-800" htmlFor={`${baseId}-extra`}>
              <input
                id={`${baseId}-extra`}
                type="checkbox"
                className={box}
                {...form.register('additionalColumns')}
              />
              Allow columns that are not in the schema
            </label>
          </>
        ) : (
          <label className="flex items-center gap-2 text-zinc-800" htmlFor={`${baseId}-props`}>
            <input
              id={`${baseId}-props`}
              type="checkbox"
              className={box}
              {...form.register('additionalProperties')}
            />
            Allow properties that are not in the schema
          </label>
        )}
      </div>
    </details>
  );
}

/** Misfits listed per field in the note; the count covers the rest. */
const MISFITS_SHOWN = 5;

/** After "Infer from file": the values that did not fit, by row, so nothing is a surprise. */
function InferMisfitsNote({
  file,
  fields,
  onDismiss,
}: {
  file: string;
  fields: InferFieldMisfits[];
  onDismiss: () => void;
}) {
  const total = fields.reduce((n, f) => n + f.count, 0);
  return (
    <div
      className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950"
      data-testid="infer-misfits"
      role="status"
    >
      <p className="font-medium">
        {plural(total, 'value')} in {file} {total === 1 ? 'does' : 'do'} not fit the proposed type.
        Validating will report {total === 1 ? 'it' : 'them'} as{' '}
        {total === 1 ? 'an error' : 'errors'}:
      </p>
      <ul className="mt-2 grid gap-2">
        {fields.map((f) => (
          <li key={f.field}>
            <span className="font-medium">{f.field}</span>{' '}
            <span className="text-amber-900">({TYPE_LABELS[f.type]})</span>:{' '}
            {f.misfits.slice(0, MISFITS_SHOWN).map((m, i) => (
              <span key={i}>
                {i > 0 ? ', ' : null}
                row {m.row}{' '}
                <code className="rounded bg-white/70 px-1 font-mono text-xs">
                  {m.value.length > 40 ? `${m.value.slice(0, 40)}…` : m.value}
                </code>
              </span>
            ))}
            {f.count > MISFITS_SHOWN ? ` and ${f.count - MISFITS_SHOWN} more` : null}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-amber-900">
        Fix them in the file, or change the field&apos;s type if they are right.
      </p>
      <Button
        variant="ghost"
        size="sm"
        className="mt-1 text-amber-950 hover:bg-amber-100"
        onClick={onDismiss}
      >
        Dismiss
      </Button>
    </div>
  );
}

const NOTE_TONES = {
  error: {
    role: 'alert',
    box: 'border-red-200 bg-red-50 text-red-800',
    button: 'text-red-800 hover:bg-red-100',
  },
  warning: {
    role: 'status',
    box: 'border-amber-200 bg-amber-50 text-amber-950',
    button: 'text-amber-950 hover:bg-amber-100',
  },
} as const;

/** What an import found (problems that stopped it, or rules it could not keep), until dismissed. */
function ImportNote({
  id,
  tone,
  testId,
  title,
  items,
  onDismiss,
}: {
  id?: string;
  tone: keyof typeof NOTE_TONES;
  testId?: string;
  title: string;
  items: ReactNode[];
  onDismiss: () => void;
}) {
  const t = NOTE_TONES[tone];
  return (
    <div
      id={id}
      role={t.role}
      data-testid={testId}
      className={`rounded-lg border p-4 text-sm ${t.box}`}
    >
      <p className="font-medium">{title}</p>
      <ul className="mt-2 grid list-disc gap-1 pl-5">
        {items.map((item, i) => (
          <li key={i}>{item}</li>
        ))}
      </ul>
      <Button variant="ghost" size="sm" className={`mt-2 ${t.button}`} onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
