import { Plus } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

import { emptyField, type ProblemMap, type SchemaDraft } from '../lib/schema-draft';
import { FieldEditor } from './field-editor';
import { selectClass } from './field-editor-parts';
import { RulesSection } from './rules-section';
import { SchemaOptions } from './schema-builder-notes';
import { SchemaTools } from './schema-tools';

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
  const { register, control, getValues } = form;
  const { fields, append, remove, move } = useFieldArray({ control, name: 'fields' });
  const [announcement, setAnnouncement] = useState('');
  const baseId = useId();
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

        <SchemaTools
          form={form}
          file={file}
          baseId={baseId}
          fieldCount={fields.length}
          onReplaced={onReplaced}
        />

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

        <RulesSection form={form} baseId={baseId} onAnnounce={setAnnouncement} />

        <SchemaOptions form={form} baseId={baseId} />

        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
      </CardContent>
    </Card>
  );
}
