import type { UseFormReturn } from 'react-hook-form';

import type { SchemaDraft } from '../lib/schema-draft';
import { Rule, RuleInput, selectClass } from './field-editor-parts';

// A field's reference list, severity and message (docs/decisions/204): the list is one of the
// account's lists (Profile → Reference lists), named as the engine's `inList`.

export function FieldReporting({
  form,
  index,
  rowId,
  problems,
}: {
  form: UseFormReturn<SchemaDraft>;
  index: number;
  rowId: string;
  problems: Record<string, string[]> | undefined;
}) {
  const { register, getValues } = form;
  const id = (key: string) => `field-${rowId}-${key}`;
  const open =
    Boolean(problems?.inList || problems?.severity || problems?.message) ||
    getValues(`fields.${index}.inList`) !== '' ||
    getValues(`fields.${index}.severity`) === 'warning' ||
    getValues(`fields.${index}.message`) !== '';
  return (
    <details className="group mt-3 text-sm" open={open}>
      <summary className="cursor-pointer rounded text-[13px] font-medium text-indigo-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
        Reference list, severity and message
      </summary>
      <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
        <RuleInput
          id={id('inList')}
          label="In reference list"
          hint="The name of one of your lists (Profile)"
          error={problems?.inList}
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. categories"
          {...register(`fields.${index}.inList`)}
        />
        <Rule id={id('severity')} label="Severity" error={problems?.severity}>
          {(props) => (
            <select {...props} className={selectClass} {...register(`fields.${index}.severity`)}>
              <option value="error">Error</option>
              <option value="warning">Warning (file stays valid)</option>
            </select>
          )}
        </Rule>
        <RuleInput
          id={id('message')}
          label="Custom message"
          hint="Optional; {field}, {value} and {other} are filled in"
          error={problems?.message}
          autoComplete="off"
          {...register(`fields.${index}.message`)}
        />
      </div>
    </details>
  );
}
