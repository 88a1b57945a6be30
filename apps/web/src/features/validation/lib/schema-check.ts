import type { WebSchema } from '@schemacheck/engine';

import { toast } from '@/hooks/use-toast';

import { loadEngine } from './engine';
import { mapProblems, toWebSchema, type ProblemMap, type SchemaDraft } from './schema-draft';

export type CheckedDraft =
  { ok: true; schema: WebSchema } | { ok: false; problems: ProblemMap | null };

/**
 * The checks before a validation (docs/product.md#the-validation-workspace), as toasts, then the engine's own check of the schema (the
 * same the server runs), whose problems the builder shows by field.
 */
export async function checkDraftForValidation(
  draft: SchemaDraft,
  file: File | null,
): Promise<CheckedDraft> {
  if (!file) {
    toast({
      variant: 'destructive',
      title: 'No file selected',
      description: 'Please upload a file first.',
    });
    return { ok: false, problems: null };
  }
  if (draft.fields.length === 0) {
    toast({
      variant: 'destructive',
      title: 'No schema defined',
      description: 'Please define at least one field in your schema.',
    });
    return { ok: false, problems: null };
  }
  const unnamed = draft.fields.flatMap((f, i) => (f.name.trim() === '' ? [i] : []));
  if (unnamed.length > 0) {
    toast({
      variant: 'destructive',
      title: 'Invalid schema',
      description: 'All fields must have a name.',
    });
    return {
      ok: false,
      problems: {
        schema: [],
        fields: Object.fromEntries(unnamed.map((i) => [i, { name: ['Enter a field name.'] }])),
      },
    };
  }
  return checkSchema(draft);
}

export async function checkSchema(draft: SchemaDraft): Promise<CheckedDraft> {
  const schema = toWebSchema(draft);
  const { parseSchema } = await loadEngine();
  const parsed = parseSchema(schema, 'web');
  if (parsed.ok) return { ok: true, schema };
  const first = parsed.problems[0];
  toast({
    variant: 'destructive',
    title: 'Invalid schema',
    description:
      parsed.problems.length === 1 && first
        ? first.message
        : `${parsed.problems.length} problems; each is shown next to its field.`,
  });
  return { ok: false, problems: mapProblems(parsed.problems) };
}
