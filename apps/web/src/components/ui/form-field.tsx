import type { ReactNode } from 'react';

import { FieldError } from './field-error';
import { Label } from './label';

export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface FormFieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  /** Ids of other elements that describe the control (hints, checklists). */
  describedBy?: string | undefined;
  /** Shown at the right of the label row, e.g. a "Forgot your password?" link. */
  labelAside?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
  /** Rendered under the control, above the error. */
  below?: ReactNode;
}

/** Label, control and error, wired together: the error is linked with aria-describedby. */
export function FormField({
  id,
  label,
  error,
  describedBy,
  labelAside,
  children,
  below,
}: FormFieldProps) {
  const errorId = `${id}-error`;
  const ids = [error ? errorId : undefined, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': ids })}
      {below}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
