import type { SchemaModel } from '@schemacheck/engine';

/**
 * The schema without the `inList` checks of the lists a validation was not given (none of that
 * name, or over the plan's limit: lists/store.ts listsForSchema), with their warnings as schema
 * warnings, which the validator repeats in every result. The fields' other checks still run.
 */
export function withholdLists(
  model: SchemaModel,
  withheld: Readonly<Record<string, string>> | undefined,
): SchemaModel {
  if (!withheld || Object.keys(withheld).length === 0) return model;
  return {
    ...model,
    fields: model.fields.map((field) => {
      const name = field.rules.inList;
      if (name === undefined || !Object.hasOwn(withheld, name)) return field;
      const { inList: _withheld, ...rules } = field.rules;
      return { ...field, rules };
    }),
    warnings: [...(model.warnings ?? []), ...Object.values(withheld)],
  };
}
