import { SAVED_SCHEMA_MESSAGES, type Plan, type SavedSchema } from '@schemacheck/contracts';
import type { CrossFieldRule, WebField } from '@schemacheck/engine';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';

import { toast } from '@/hooks/use-toast';

import { useSaveSchema } from '../api/schemas';
import { checkSchema } from './schema-check';
import { fromWebSchema, mapProblems, type ProblemMap, type SchemaDraft } from './schema-draft';
import { serverFailure } from './server-failure';
import type { UpgradeReason } from './upgrade-reason';

interface Options {
  form: UseFormReturn<SchemaDraft>;
  plan: Plan;
  onUpgrade: (reason: UpgradeReason) => void;
  onProblems: (problems: ProblemMap) => void;
}

/**
 * Save and Load schema (paid plans): the save form's checks in the contract's words, overwrite
 * of the schema loaded under the same name, the load dialog's state, and the locked dialogs.
 */
export function useSchemaLibrary({ form, plan, onUpgrade, onProblems }: Options) {
  const save = useSaveSchema();
  const [loadOpen, setLoadOpen] = useState(false);
  const [loaded, setLoaded] = useState<{ id: string; name: string } | null>(null);
  const locked = !plan.limits.savedSchemas;

  const onSave = async () => {
    if (locked) {
      onUpgrade({ kind: 'save_locked' });
      return;
    }
    const draft = form.getValues();
    if (!draft.name.trim()) {
      toast({
        variant: 'destructive',
        title: 'Schema name required',
        description: SAVED_SCHEMA_MESSAGES.nameRequired,
      });
      return;
    }
    if (draft.fields.length === 0) {
      toast({
        variant: 'destructive',
        title: 'Fields required',
        description: SAVED_SCHEMA_MESSAGES.fieldsRequired,
      });
      return;
    }
    const checked = await checkSchema(draft);
    if (!checked.ok) {
      if (checked.problems) onProblems(checked.problems);
      return;
    }
    const { schema } = checked;
    const overwrite = loaded && loaded.name === draft.name.trim() ? loaded.id : undefined;
    save.mutate(
      {
        id: overwrite,
        input: {
          name: draft.name.trim(),
          fileType: draft.fileType,
          fields: schema.fields as unknown as Record<string, unknown>[],
          ...(schema.orderMatters !== undefined ? { orderMatters: schema.orderMatters } : {}),
          ...(schema.additionalColumns !== undefined
            ? { additionalColumns: schema.additionalColumns }
            : {}),
          ...(schema.additionalProperties !== undefined
            ? { additionalProperties: schema.additionalProperties }
            : {}),
          rules: (schema.rules ?? []) as unknown as Record<string, unknown>[],
        },
      },
      {
        onSuccess: (saved) => {
          if (saved?.id) setLoaded({ id: saved.id, name: saved.name ?? draft.name.trim() });
          // A list the account lacks, or one over the plan's limit, is not checked by validations:
          // said now rather than first in a result.
          const warnings = saved?.warnings ?? [];
          toast(
            warnings.length > 0
              ? {
                  title: 'Schema saved, with a warning',
                  description: warnings.map((w) => w.message).join(' '),
                  duration: 15_000,
                }
              : { title: 'Schema saved', description: 'Your schema has been saved successfully.' },
          );
        },
        onError: (error) => {
          const failure = serverFailure(error, 'Failed to save schema.');
          if (failure.code === 'plan_required') {
            onUpgrade({ kind: 'save_locked' });
            return;
          }
          if (failure.problems.length) onProblems(mapProblems(failure.problems));
          toast({
            variant: 'destructive',
            title: 'Error',
            description: failure.fromServer ? failure.message : 'Failed to save schema.',
          });
        },
      },
    );
  };

  const openLoad = () => {
    if (locked) {
      onUpgrade({ kind: 'load_locked' });
      return;
    }
    setLoadOpen(true);
  };

  const onLoad = (saved: SavedSchema) => {
    // A copy: name, fileType and fields (docs/product.md#the-validation-workspace).
    form.reset(
      fromWebSchema(
        {
          name: saved.name,
          // A schema saved through the API may name no type: keep the one chosen here.
          ...(saved.fileType ? { fileType: saved.fileType } : {}),
          fields: saved.fields as unknown as WebField[],
          ...(saved.orderMatters !== undefined ? { orderMatters: saved.orderMatters } : {}),
          ...(saved.additionalColumns !== undefined
            ? { additionalColumns: saved.additionalColumns }
            : {}),
          ...(saved.additionalProperties !== undefined
            ? { additionalProperties: saved.additionalProperties }
            : {}),
          ...(saved.rules ? { rules: saved.rules as unknown as CrossFieldRule[] } : {}),
        },
        form.getValues('fileType'),
      ),
    );
    setLoaded({ id: saved.id, name: saved.name });
    setLoadOpen(false);
    toast({ title: 'Schema loaded', description: saved.name });
  };

  return {
    locked,
    saving: save.isPending,
    onSave,
    openLoad,
    loadOpen,
    setLoadOpen,
    onLoad,
    /** The form no longer holds the loaded schema (a starter, an import, a template). */
    forget: () => setLoaded(null),
  };
}
