import type { WebSchema } from '@schemacheck/engine';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

import { fromWebSchema, type SchemaDraft } from '@/features/validation/lib/schema-draft';

import { findTemplate, type SchemaTemplate } from '../content/templates';

interface TemplateHandlers {
  onSchema: (draft: SchemaDraft) => void;
  onSample: (sample: File) => void;
}

/**
 * "Use this template" on /templates opens a validator with `?template=<id>`: the template's schema
 * goes into the builder and its sample file is fetched (a static file of this site) and chosen,
 * so one click on Validate shows a real report. A template of the other file type is ignored.
 */
export function useTemplateParam(
  fileType: 'csv' | 'json',
  handlers: TemplateHandlers,
): SchemaTemplate | undefined {
  const [params] = useSearchParams();
  const template = findTemplate(params.get('template'));
  const usable = template && template.schema.fileType === fileType ? template : undefined;
  const [loaded, setLoaded] = useState<SchemaTemplate>();
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!usable) return;
    let cancelled = false;
    latest.current.onSchema(fromWebSchema(usable.schema as WebSchema, fileType));
    setLoaded(usable);
    void fetch(usable.sampleUrl)
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (cancelled || !blob) return;
        const name = usable.sampleUrl.split('/').pop() ?? `${usable.id}.${fileType}`;
        latest.current.onSample(new File([blob], name, { type: blob.type }));
      })
      .catch(() => {
        // Offline or blocked: the schema is loaded and the user can still choose a file.
      });
    return () => {
      cancelled = true;
    };
  }, [usable, fileType]);

  return loaded;
}
