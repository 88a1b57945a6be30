import type { FieldType } from '@schemacheck/engine';
import type { ComponentProps, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

import type { FieldDraft } from '../lib/schema-draft';

// The form controls of a field's editor: a labelled input with its hint and error, the allowed
// values list and a checkbox (split from field-editor.tsx).

export const TYPE_LABELS: Record<FieldType, string> = {
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

export const checkboxClass =
  'size-4 rounded border-input text-indigo-600 accent-indigo-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2';

/** A text input with its label, hint and error linked by aria-describedby. */
export function Rule({
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

/** The parts of a field's form control that derive from its key: its id and its registration. */
export type Bound = { id: string } & UseFormRegisterReturn;

export type TextKey = {
  [K in keyof FieldDraft]: FieldDraft[K] extends string ? K : never;
}[keyof FieldDraft];
export type CheckKey = {
  [K in keyof FieldDraft]: FieldDraft[K] extends boolean ? K : never;
}[keyof FieldDraft];

type RuleFrame = Omit<ComponentProps<typeof Rule>, 'children' | 'id'>;

/** A Rule holding one text input; `inputClassName` and the other input props go to the input. */
export function RuleInput({
  id,
  label,
  hint,
  error,
  className,
  inputClassName,
  ...input
}: RuleFrame &
  Bound &
  Omit<ComponentProps<typeof Input>, 'id' | 'className' | keyof UseFormRegisterReturn> & {
    inputClassName?: string;
  }) {
  return (
    <Rule id={id} label={label} hint={hint} error={error} className={className}>
      {(props) => <Input {...props} className={inputClassName} {...input} />}
    </Rule>
  );
}

/** The one-value-per-line list of allowed values. */
export function AllowedValues({
  id,
  hint,
  error,
  className,
  ...textarea
}: Omit<RuleFrame, 'label'> & Bound) {
  return (
    <Rule id={id} label="Allowed values" hint={hint} error={error} className={className}>
      {(props) => (
        <textarea
          {...props}
          rows={3}
          spellCheck={false}
          className={cn(selectClass, 'h-auto py-2')}
          {...textarea}
        />
      )}
    </Rule>
  );
}

export function Check({ id, label, ...input }: { label: string } & Bound) {
  return (
    <div className="flex items-center gap-2">
      <input id={id} type="checkbox" className={checkboxClass} {...input} />
      <Label htmlFor={id} className="text-[13px] font-normal text-zinc-800">
        {label}
      </Label>
    </div>
  );
}
