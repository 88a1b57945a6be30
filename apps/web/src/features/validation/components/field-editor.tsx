import type { FieldType } from '@schemacheck/engine';
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

import { BUILDER_FIELD_TYPES, rulesFor, type SchemaDraft } from '../lib/schema-draft';

const TYPE_LABELS: Record<FieldType, string> = {
  string: 'String',
  integer: 'Integer',
  number: 'Number',
  boolean: 'Boolean',
  date: 'Date',
  email: 'Email',
  url: 'URL',
  enum: 'Enum (list)',
};

export const selectClass =
  'h-10 w-full rounded-lg border border-input bg-white px-3 text-base text-zinc-900 shadow-xs focus-visible:border-indigo-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/40 aria-invalid:border-red-600 sm:text-sm';

const checkboxClass =
  'size-4 rounded border-input text-indigo-600 accent-indigo-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2';

interface FieldEditorProps {
  form: UseFormReturn<SchemaDraft>;
  index: number;
  count: number;
  /** Stable id of this field row (useFieldArray's key): ids of inputs derive from it. */
  rowId: string;
  problems: Record<string, string[]> | undefined;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}

/** A text input with its label, hint and error linked by aria-describedby. */
function Rule({
  id,
  label,
  hint,
  error,
  children,
  className,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string[] | undefined;
  children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby'?: string;
  }) => ReactNode;
  className?: string;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error?.length ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      <Label htmlFor={id} className="text-[13px]">
        {label}
      </Label>
      {children({ id, 'aria-invalid': Boolean(errorId), 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="text-xs text-zinc-600">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error?.join(' ')} />
    </div>
  );
}

function Check({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex items-center gap-2">
      {children}
      <Label htmlFor={id} className="text-[13px] font-normal text-zinc-800">
        {label}
      </Label>
    </div>
  );
}

export function FieldEditor({
  form,
  index,
  count,
  rowId,
  problems,
  onMove,
  onRemove,
}: FieldEditorProps) {
  const { register, control } = form;
  const type = useWatch({ control, name: `fields.${index}.type` });
  const name = useWatch({ control, name: `fields.${index}.name` });
  const rules = rulesFor(type);
  const id = (key: string) => `field-${rowId}-${key}`;
  const p = (key: string) => problems?.[key];
  const label = name?.trim() ? name : `Field ${index + 1}`;

  return (
    <li
      className={cn(
        'rounded-lg border bg-white p-4',
        problems ? 'border-red-300' : 'border-zinc-200',
      )}
      aria-labelledby={id('legend')}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={id('legend')} className="min-w-0 truncate text-sm font-semibold text-zinc-900">
          <span className="mr-2 inline-flex size-6 items-center justify-center rounded-md bg-zinc-100 text-xs font-medium text-zinc-700">
            {index + 1}
          </span>
          {label}
        </h3>
        <div className="flex shrink-0 items-center gap-1">
          <Button
            id={id('up')}
            variant="ghost"
            size="sm"
            className="px-2"
            aria-label={`Move ${label} up`}
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
          >
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button
            id={id('down')}
            variant="ghost"
            size="sm"
            className="px-2"
            aria-label={`Move ${label} down`}
            disabled={index === count - 1}
            onClick={() => onMove(index, index + 1)}
          >
            <ArrowDown aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="px-2 text-red-700 hover:bg-red-50 hover:text-red-800"
            aria-label={`Remove ${label}`}
            onClick={() => onRemove(index)}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>

      <FieldError id={id('field-error')} message={p('field')?.join(' ')} />

      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <Rule id={id('name')} label="Field name" error={p('name')}>
          {(props) => (
            <Input
              {...props}
              autoComplete="off"
              spellCheck={false}
              placeholder="e.g. email"
              {...register(`fields.${index}.name`)}
            />
          )}
        </Rule>
        <Rule id={id('type')} label="Type" error={p('type')}>
          {(props) => (
            <select {...props} className={selectClass} {...register(`fields.${index}.type`)}>
              {BUILDER_FIELD_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          )}
        </Rule>
      </div>

      <div className="mt-3 flex flex-wrap gap-x-6 gap-y-2">
        <Check id={id('required')} label="Required">
          <input
            id={id('required')}
            type="checkbox"
            className={checkboxClass}
            {...register(`fields.${index}.required`)}
          />
        </Check>
        <Check id={id('unique')} label="Values must be unique">
          <input
            id={id('unique')}
            type="checkbox"
            className={checkboxClass}
            {...register(`fields.${index}.unique`)}
          />
        </Check>
      </div>

      <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {rules.length ? (
          <>
            <Rule id={id('minLength')} label="Min length" error={p('minLength')}>
              {(props) => (
                <Input {...props} inputMode="numeric" {...register(`fields.${index}.minLength`)} />
              )}
            </Rule>
            <Rule id={id('maxLength')} label="Max length" error={p('maxLength')}>
              {(props) => (
                <Input {...props} inputMode="numeric" {...register(`fields.${index}.maxLength`)} />
              )}
            </Rule>
          </>
        ) : null}
        {rules.pattern ? (
          <Rule
            id={id('pattern')}
            label="Pattern (regular expression)"
            error={p('pattern')}
            className="col-span-2 sm:col-span-1"
          >
            {(props) => (
              <Input
                {...props}
                spellCheck={false}
                className="font-mono"
                placeholder="^[A-Z]{3}\d{6}$"
                {...register(`fields.${index}.pattern`)}
              />
            )}
          </Rule>
        ) : null}
        {rules.range ? (
          <>
            <Rule id={id('minValue')} label="Min value" error={p('minValue')}>
              {(props) => (
                <Input
                  {...props}
                  inputMode={type === 'integer' ? 'numeric' : 'decimal'}
                  {...register(`fields.${index}.minValue`)}
                />
              )}
            </Rule>
            <Rule id={id('maxValue')} label="Max value" error={p('maxValue')}>
              {(props) => (
                <Input
                  {...props}
                  inputMode={type === 'integer' ? 'numeric' : 'decimal'}
                  {...register(`fields.${index}.maxValue`)}
                />
              )}
            </Rule>
          </>
        ) : null}
        {rules.precision ? (
          <Rule id={id('precision')} label="Decimal places (max)" error={p('precision')}>
            {(props) => (
              <Input {...props} inputMode="numeric" {...register(`fields.${index}.precision`)} />
            )}
          </Rule>
        ) : null}
        {rules.booleanLists ? (
          <>
            <Rule
              id={id('truthy')}
              label="True values"
              hint="Comma-separated"
              error={p('truthy')}
              className="col-span-2 sm:col-span-1"
            >
              {(props) => <Input {...props} {...register(`fields.${index}.truthy`)} />}
            </Rule>
            <Rule
              id={id('falsy')}
              label="False values"
              hint="Comma-separated"
              error={p('falsy')}
              className="col-span-2 sm:col-span-1"
            >
              {(props) => <Input {...props} {...register(`fields.${index}.falsy`)} />}
            </Rule>
          </>
        ) : null}
        {rules.date ? (
          <>
            <Rule
              id={id('format')}
              label="Format"
              hint="Default YYYY-MM-DD"
              error={p('format')}
              className="col-span-2 sm:col-span-1"
            >
              {(props) => (
                <Input
                  {...props}
                  spellCheck={false}
                  placeholder="YYYY-MM-DD"
                  {...register(`fields.${index}.format`)}
                />
              )}
            </Rule>
            <Rule id={id('minDate')} label="Earliest date" error={p('minDate')}>
              {(props) => <Input {...props} type="date" {...register(`fields.${index}.minDate`)} />}
            </Rule>
            <Rule id={id('maxDate')} label="Latest date" error={p('maxDate')}>
              {(props) => <Input {...props} type="date" {...register(`fields.${index}.maxDate`)} />}
            </Rule>
            <div className="col-span-2 flex flex-wrap gap-x-6 gap-y-2 sm:col-span-3">
              <Check id={id('allowFuture')} label="Allow future dates">
                <input
                  id={id('allowFuture')}
                  type="checkbox"
                  className={checkboxClass}
                  {...register(`fields.${index}.allowFuture`)}
                />
              </Check>
              <Check id={id('allowPast')} label="Allow past dates">
                <input
                  id={id('allowPast')}
                  type="checkbox"
                  className={checkboxClass}
                  {...register(`fields.${index}.allowPast`)}
                />
              </Check>
            </div>
          </>
        ) : null}
        {type === 'email' || type === 'url' ? (
          <p className="col-span-2 text-xs text-zinc-600 sm:col-span-3">
            {type === 'email' ? 'Email addresses' : 'http and https URLs'} are checked
            automatically.
          </p>
        ) : null}
      </div>

      {type === 'enum' ? (
        <Rule
          id={id('values')}
          label="Allowed values"
          hint="One value per line, compared exactly as written"
          error={p('values')}
          className="mt-3"
        >
          {(props) => (
            <textarea
              {...props}
              rows={3}
              spellCheck={false}
              className={cn(selectClass, 'h-auto py-2')}
              {...register(`fields.${index}.values`)}
            />
          )}
        </Rule>
      ) : (
        <details className="group mt-3 text-sm" open={Boolean(p('values'))}>
          <summary className="cursor-pointer rounded text-[13px] font-medium text-indigo-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
            Restrict to a list of values
          </summary>
          <Rule
            id={id('values')}
            label="Allowed values"
            hint="Optional. One value per line"
            error={p('values')}
            className="mt-2"
          >
            {(props) => (
              <textarea
                {...props}
                rows={3}
                spellCheck={false}
                className={cn(selectClass, 'h-auto py-2')}
                {...register(`fields.${index}.values`)}
              />
            )}
          </Rule>
        </details>
      )}
      {rules.pattern && p('allowedChars') ? (
        <FieldError id={id('allowedChars-error')} message={p('allowedChars')?.join(' ')} />
      ) : null}
    </li>
  );
}
