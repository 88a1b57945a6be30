import type { FileType, WebSchema } from '@schemacheck/engine';
import { useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';

import { TemplateNotice } from '../components/template-notice';
import { findTemplate } from '../content/templates';

/** What a validator page opened from /templates starts with (the validator applies it). */
export interface TemplatePreset {
  id: string;
  schema: WebSchema;
  /** The template's sample file, a static file of this site. */
  sampleUrl: string;
  /** Shown above the drop zone once the template is loaded. */
  notice: ReactNode;
}

/**
 * "Use this template" on /templates opens a validator with `?template=<id>`: the template's schema
 * and sample file, for the page to hand to the validator. A template of the other file type is
 * ignored.
 */
export function useTemplatePreset(fileType: FileType): TemplatePreset | undefined {
  const [params] = useSearchParams();
  const template = findTemplate(params.get('template'));
  return useMemo(
    () =>
      template && template.schema.fileType === fileType
        ? {
            id: template.id,
            schema: template.schema as WebSchema,
            sampleUrl: template.sampleUrl,
            notice: <TemplateNotice template={template} />,
          }
        : undefined,
    [template, fileType],
  );
}
