import type { InferFieldMisfits, InferRuleSuggestion } from '@schemacheck/engine';
import type { ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';

import { Button } from '@/components/ui/button';

import { plural } from '../lib/format';
import type { SchemaDraft } from '../lib/schema-draft';
import { TYPE_LABELS } from './field-editor-parts';

// The schema card's notes (what an import or inference found) and its file structure options
// (split from schema-builder.tsx).

export function SchemaOptions({
  form,
  baseId,
}: {
  form: UseFormReturn<SchemaDraft>;
  baseId: string;
}) {
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
export function InferMisfitsNote({
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

/**
 * After "Infer from file": cross-field rules the sample supports (a composite key), never added
 * to the schema by inference (docs/decisions/226); each is added only by its button.
 */
export function InferRulesNote({
  file,
  suggestions,
  onAdd,
  onDismiss,
}: {
  file: string;
  suggestions: InferRuleSuggestion[];
  onAdd: (suggestion: InferRuleSuggestion) => void;
  onDismiss: () => void;
}) {
  return (
    <div
      className="rounded-lg border border-indigo-200 bg-indigo-50 p-4 text-sm text-indigo-950"
      data-testid="infer-rules"
      role="status"
    >
      <p className="font-medium">
        Suggested {suggestions.length === 1 ? 'rule' : 'rules'} from {file}, not added to the
        schema:
      </p>
      <ul className="mt-2 grid gap-2">
        {suggestions.map((s) => {
          const fields = 'fields' in s.rule ? s.rule.fields.join(' and ') : '';
          return (
            <li key={fields} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                <span className="font-medium">{fields} are unique together.</span> {s.reason}
              </span>
              <Button variant="secondary" size="sm" onClick={() => onAdd(s)}>
                Add rule: {fields} unique together
              </Button>
            </li>
          );
        })}
      </ul>
      <Button
        variant="ghost"
        size="sm"
        className="mt-1 text-indigo-950 hover:bg-indigo-100"
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
export function ImportNote({
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
