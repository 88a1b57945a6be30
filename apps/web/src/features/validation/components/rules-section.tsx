import { Plus } from 'lucide-react';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';

import { Button } from '@/components/ui/button';

import { emptyRule } from '../lib/rules-draft';
import type { SchemaDraft } from '../lib/schema-draft';
import { RuleEditor } from './rule-editor';

// The builder's "Rules" section, under the fields: cross-field rules (docs/engine.md), added and
// removed here; the engine names an incomplete rule by path (rules[0].field) above the fields.

export function RulesSection({
  form,
  baseId,
  onAnnounce,
}: {
  form: UseFormReturn<SchemaDraft>;
  baseId: string;
  onAnnounce: (text: string) => void;
}) {
  const { control } = form;
  const { fields: rules, append, remove } = useFieldArray({ control, name: 'rules' });
  const fields = useWatch({ control, name: 'fields' }) ?? [];
  const fieldNames = [...new Set(fields.map((f) => f.name.trim()).filter((n) => n !== ''))];

  // Focus goes to the new rule's first drop-down, so that a keyboard user goes on building it
  // there instead of hunting back up from the button.
  const onAdd = () => {
    append(emptyRule(), { focusName: `rules.${rules.length}.field` });
    onAnnounce(`Rule ${rules.length + 1} added.`);
  };

  const onRemove = (index: number) => {
    remove(index);
    onAnnounce(`Rule ${index + 1} removed.`);
    requestAnimationFrame(() => document.getElementById(`${baseId}-add-rule`)?.focus());
  };

  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 flex w-full items-center justify-between text-sm font-semibold text-zinc-900">
        Rules
        <span className="text-xs font-normal text-zinc-600">
          {rules.length === 1 ? '1 rule' : `${rules.length} rules`}
        </span>
      </legend>
      {rules.length === 0 ? (
        <p className="text-xs text-zinc-600">
          Rules across fields of a row: required when another field has a value, compare two fields,
          sums, combinations unique together.
        </p>
      ) : (
        <ol className="grid gap-3">
          {rules.map((rule, index) => (
            <RuleEditor
              key={rule.id}
              form={form}
              index={index}
              rowId={rule.id}
              fieldNames={fieldNames}
              onRemove={onRemove}
            />
          ))}
        </ol>
      )}
      <Button
        id={`${baseId}-add-rule`}
        variant="secondary"
        onClick={onAdd}
        className="w-full"
        disabled={fieldNames.length === 0}
      >
        <Plus aria-hidden="true" />
        Add rule
      </Button>
    </fieldset>
  );
}
