import { Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

import {
  COMPARE_OPS,
  CONDITION_OPS,
  RULE_KIND_LABELS,
  RULE_KINDS,
  type RuleDraft,
} from '../lib/rules-draft';
import type { SchemaDraft } from '../lib/schema-draft';
import { checkboxClass, selectClass } from './field-editor-parts';

// One cross-field rule as a sentence of drop-downs ("[vat_number] is required when [country]
// [is one of] [DE, FR]"); every control has its label, so the whole rule is keyboard-usable.

type Key = keyof RuleDraft;

function Part({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="grid content-start gap-1">
      <Label htmlFor={id} className="text-[12px] text-zinc-700">
        {label}
      </Label>
      {children}
    </div>
  );
}

export function RuleEditor({
  form,
  index,
  rowId,
  fieldNames,
  onRemove,
}: {
  form: UseFormReturn<SchemaDraft>;
  index: number;
  rowId: string;
  fieldNames: string[];
  onRemove: (index: number) => void;
}) {
  const { register, control } = form;
  const rule = useWatch({ control, name: `rules.${index}` }) as RuleDraft | undefined;
  const kind = rule?.kind ?? 'requiredWhen';
  const n = index + 1;
  const id = (key: string) => `rule-${rowId}-${key}`;
  const reg = (key: Key) => ({ id: id(key), ...register(`rules.${index}.${key}` as const) });

  const fieldSelect = (key: Key, label: string, none?: string) => (
    <Part id={id(key)} label={label}>
      <select className={selectClass} {...reg(key)}>
        <option value="">{none ?? 'Choose a field'}</option>
        {fieldNames.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </Part>
  );
  const text = (key: Key, label: string, placeholder?: string) => (
    <Part id={id(key)} label={label}>
      <Input autoComplete="off" spellCheck={false} placeholder={placeholder} {...reg(key)} />
    </Part>
  );
  const conditional =
    kind === 'requiredWhen' || kind === 'emptyWhen' || kind === 'allowedValuesWhen';
  const several = kind === 'requireOneOf' || kind === 'sum' || kind === 'uniqueTogether';

  return (
    <li
      className="rounded-lg border border-zinc-200 bg-white p-4"
      aria-labelledby={id('legend')}
      data-testid="rule"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 id={id('legend')} className="text-sm font-semibold text-zinc-900">
          Rule {n}
        </h3>
        <Button
          variant="ghost"
          size="sm"
          className="px-2 text-red-700 hover:bg-red-50 hover:text-red-800"
          aria-label={`Remove rule ${n}`}
          onClick={() => onRemove(index)}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-4">
        {kind !== 'requireOneOf' && kind !== 'uniqueTogether'
          ? fieldSelect(
              'field',
              kind === 'sum' ? 'Total field' : 'Field',
              kind === 'sum' ? 'A fixed total' : undefined,
            )
          : null}
        <Part id={id('kind')} label="Rule">
          <select className={selectClass} {...reg('kind')}>
            {RULE_KINDS.map((k) => (
              <option key={k} value={k}>
                {RULE_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </Part>
        {conditional ? (
          <>
            {fieldSelect('whenField', 'When field')}
            <Part id={id('whenOp')} label="Condition">
              <select className={selectClass} {...reg('whenOp')}>
                {CONDITION_OPS.map(([op, label]) => (
                  <option key={op} value={op}>
                    {label}
                  </option>
                ))}
              </select>
            </Part>
            {rule?.whenOp === 'isEmpty' || rule?.whenOp === 'isNotEmpty'
              ? null
              : text('whenValue', 'Condition value', 'e.g. DE, FR')}
            {kind === 'allowedValuesWhen' ? text('value', 'Allowed values', 'CA, NY, TX') : null}
          </>
        ) : null}
        {kind === 'compare' ? (
          <>
            <Part id={id('op')} label="Must be">
              <select className={selectClass} {...reg('op')}>
                {COMPARE_OPS.map(([op, label]) => (
                  <option key={op} value={op}>
                    {label}
                  </option>
                ))}
              </select>
            </Part>
            {fieldSelect('right', 'Other field', 'A fixed value')}
            {rule?.right ? null : text('value', 'Fixed value', 'e.g. 50')}
          </>
        ) : null}
        {kind === 'sum' ? (
          <>
            {rule?.field ? null : text('value', 'Fixed total', 'e.g. 100')}
            {text('tolerance', 'Tolerance', 'e.g. 0.01')}
          </>
        ) : null}
      </div>
      {several ? (
        <fieldset className="mt-3">
          <legend className="text-[12px] font-medium text-zinc-700">Fields of the rule</legend>
          <div className="mt-1 flex flex-wrap gap-x-5 gap-y-2">
            {fieldNames.map((name) => (
              <label key={name} className="flex items-center gap-2 text-[13px] text-zinc-800">
                <input
                  type="checkbox"
                  value={name}
                  className={checkboxClass}
                  {...register(`rules.${index}.fields`)}
                />
                {name}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-[12rem_1fr]">
        <Part id={id('severity')} label="Severity">
          <select className={selectClass} {...reg('severity')}>
            <option value="error">Error</option>
            <option value="warning">Warning (file stays valid)</option>
          </select>
        </Part>
        {text(
          'message',
          'Custom message (optional)',
          '{field} is needed when the country is {other}',
        )}
      </div>
    </li>
  );
}
