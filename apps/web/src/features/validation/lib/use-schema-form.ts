import type { FileType } from '@schemacheck/engine';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';

import { emptySchema, type SchemaDraft } from './schema-draft';

/** The builder's form; `onChange` runs after every edit (results and problems are then stale). */
export function useSchemaForm(fileType: FileType, onChange: () => void) {
  const form = useForm<SchemaDraft>({ defaultValues: emptySchema(fileType) });
  const callback = useRef(onChange);
  callback.current = onChange;
  useEffect(() => {
    const subscription = form.watch(() => callback.current());
    return () => subscription.unsubscribe();
  }, [form]);
  return form;
}
