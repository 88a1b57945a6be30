import { z } from 'zod';
import { listPageFields, uploadFilePart, uuidSchema } from './common.ts';

// /v1/lists: reference lists a field checks its values against (`"validation": {"inList":
// "name"}`), saved per account (docs/decisions/200). The web's Profile page uses the same shapes
// through /api/lists.

/** A list's name as schemas name it: letters, digits, `.`, `_`, `-`; 1 to 64 characters. */
export const LIST_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const LIST_NAME_MESSAGE =
  'A list name is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit';
/** Characters one value may have. */
export const LIST_VALUE_MAX = 1000;
/** Bytes of an uploaded list file (a 1,000,000-value list of short codes fits). */
export const LIST_UPLOAD_MAX_BYTES = 64 * 1024 * 1024;

export const listNameSchema = z
  .string({ error: LIST_NAME_MESSAGE })
  .regex(LIST_NAME_PATTERN, LIST_NAME_MESSAGE)
  .describe('The name schemas use in `inList`.');

export const listValuesSchema = z
  .array(
    z
      .string({ error: 'Each value must be text' })
      .min(1, 'A value may not be empty')
      .max(LIST_VALUE_MAX, `A value may have at most ${LIST_VALUE_MAX} characters`),
    { error: 'values must be a list of text values' },
  )
  .describe(
    'The values, compared as written. Duplicates are kept once, in the order first given. The plan caps how many.',
  );

/** POST /v1/lists with a JSON body (and the web's POST /api/lists). */
export const listCreateSchema = z.object({ name: listNameSchema, values: listValuesSchema });
export type ListCreateInput = z.infer<typeof listCreateSchema>;

/** PUT /v1/lists/{list}: the whole list again; `name` renames it. */
export const listReplaceSchema = z.object({
  name: listNameSchema.optional(),
  values: listValuesSchema,
});
export type ListReplaceInput = z.infer<typeof listReplaceSchema>;

/** PATCH /v1/lists/{list} (and the Profile page's PATCH /api/lists/:list): a new name only. */
export const listRenameSchema = z.object({ name: listNameSchema });
export type ListRenameInput = z.infer<typeof listRenameSchema>;

/** POST /v1/lists/upload: a text file (one value a line) or a CSV's column. */
export const listUploadFormSchema = z.object({
  name: listNameSchema.describe('The name of the new list; send it before the file.'),
  column: z
    .string()
    .optional()
    .describe(
      'CSV files: the column to read, by header name or 1-based position; the first column by default. Without it a .txt file is read one value a line. Send it before the file.',
    ),
  replace: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: replace the values of the list of that name if it exists.'),
  file: uploadFilePart(
    'A .txt file (one value a line) or a .csv file (its first row is the header); UTF-8. Empty lines and cells are skipped.',
  ),
});

export const listSummarySchema = z.object({
  list_id: uuidSchema,
  name: z.string(),
  value_count: z.number().int().min(0),
  over_limit: z
    .boolean()
    .describe(
      "More values than the account's plan allows a list (after a change of plan; on Free, every saved list). Validations do not check such a list: their result has a `schema` warning naming it. It is kept, and checked again once it is replaced by a shorter list or the plan allows it.",
    ),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type ListSummaryV1 = z.infer<typeof listSummarySchema>;

export const listSchema = listSummarySchema.extend({ values: z.array(z.string()) });
export type ListV1 = z.infer<typeof listSchema>;

export const listLimitsSchema = z.object({
  values_per_list: z
    .number()
    .int()
    .min(0)
    .describe("The plan's limit on the values of one list (0: the plan has no saved lists)."),
  lists: z.number().int().min(0).describe('Lists an account may hold.'),
});

export const listListSchema = z.object({
  data: z.array(listSummarySchema),
  ...listPageFields,
  limits: listLimitsSchema,
});

export const listParamsSchema = z.object({
  list: z.string().describe("The list_id returned at creation, or the list's name."),
});

/** GET /api/lists (the Profile page): the account's lists and the plan's limits. */
export interface ListsResponse {
  lists: ListSummaryV1[];
  limits: z.infer<typeof listLimitsSchema>;
}
