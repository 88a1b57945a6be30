import { DEFAULT_DATE_FORMAT, FIELD_TYPES } from '@schemacheck/engine';
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { useWatch, type UseFormReturn } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { cn } from '@/lib/utils';

import { rulesFor, type SchemaDraft } from '../lib/schema-draft';
import {
  AllowedValues,
  Check,
  Rule,
  RuleInput,
  selectClass,
  TYPE_LABELS,
  type Bound,
  type CheckKey,
  type TextKey,
} from './field-editor-parts';
import { FieldReporting } from './field-reporting';

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
  const check = (key: CheckKey): Bound => ({ id: id(key), ...register(`fields.${index}.${key}`) });
  const text = (key: TextKey) => ({
    id: id(key),
    error: p(key),
    ...register(`fields.${index}.${key}`),
  });
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
        <RuleInput
          label="Field name"
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. email"
          {...text('name')}
        />
        <Rule id={id('type')} label="Type" error={p('type')}>
          {(props) => (
            <select {...props} className={selectClass} {...register(`fields.${index}.type`)}>
              {FIELD_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          )}
        </Rule>
      </div>

      <div className="mt-3 flex flex-wrap gap-x-6 gap-y-2">
        <Check label="Required" {...check('required')} />
        <Check label="Values must be unique" {...check('unique')} />
      </div>

      <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {rules.length ? (
          <>
            <RuleInput label="Min length" inputMode="numeric" {...text('minLength')} />
            <RuleInput label="Max length" inputMode="numeric" {...text('maxLength')} />
          </>
        ) : null}
        {rules.pattern ? (
          <RuleInput
            label="Pattern (regular expression)"
            className="col-span-2 sm:col-span-1"
            spellCheck={false}
            inputClassName="font-mono"
            placeholder="^[A-Z]{3}\d{6}$"
            {...text('pattern')}
          />
        ) : null}
        {rules.range ? (
          <>
            <RuleInput
              label="Min value"
              inputMode={type === 'integer' ? 'numeric' : 'decimal'}
              {...text('minValue')}
            />
            <RuleInput
              label="Max value"
              inputMode={type === 'integer' ? 'numeric' : 'decimal'}
              {...text('maxValue')}
            />
          </>
        ) : null}
        {rules.precision ? (
          <RuleInput label="Decimal places (max)" inputMode="numeric" {...text('precision')} />
        ) : null}
        {rules.booleanLists ? (
          <>
            <RuleInput
              label="True values"
              hint="Comma-separated"
              className="col-span-2 sm:col-span-1"
              {...text('truthy')}
            />
            <RuleInput
              label="False values"
              hint="Comma-separated"
              className="col-span-2 sm:col-span-1"
              {...text('falsy')}
            />
          </>
        ) : null}
        {rules.date ? (
          <>
            <RuleInput
              label="Format"
              hint={`Default ${DEFAULT_DATE_FORMAT}`}
              className="col-span-2 sm:col-span-1"
              spellCheck={false}
              placeholder={DEFAULT_DATE_FORMAT}
              {...text('format')}
            />
            {/* Text in YYYY-MM-DD rather than type=date, whose picker shows the browser's own
                layout (mm/dd/yyyy) beside a format written in tokens. */}
            <RuleInput
              label="Earliest date"
              hint="YYYY-MM-DD"
              inputMode="numeric"
              spellCheck={false}
              {...text('minDate')}
            />
            <RuleInput
              label="Latest date"
              hint="YYYY-MM-DD"
              inputMode="numeric"
              spellCheck={false}
              {...text('maxDate')}
            />
            <div className="col-span-2 flex flex-wrap gap-x-6 gap-y-2 sm:col-span-3">
              <Check label="Allow future dates" {...check('allowFuture')} />
              <Check label="Allow past dates" {...check('allowPast')} />
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
        <AllowedValues
          hint="One value per line, compared exactly as written"
          className="mt-3"
          {...text('values')}
        />
      ) : (
        <details className="group mt-3 text-sm" open={Boolean(p('values'))}>
          <summary className="cursor-pointer rounded text-[13px] font-medium text-indigo-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
            Restrict to a list of values
          </summary>
          <AllowedValues hint="Optional. One value per line" className="mt-2" {...text('values')} />
        </details>
      )}
      {rules.pattern && p('allowedChars') ? (
        <FieldError id={id('allowedChars-error')} message={p('allowedChars')?.join(' ')} />
      ) : null}
      <FieldReporting form={form} index={index} rowId={rowId} problems={problems} />
    </li>
  );
}
