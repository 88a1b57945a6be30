import type { FileType, WebSchema } from '@schemacheck/engine';
import { useEffect, useRef, useState, type ReactNode } from 'react';

import { fromWebSchema, type SchemaDraft } from './schema-draft';

/** A schema and sample file a page starts the validator with (a template of /templates). */
export interface ValidatorPreset {
  id: string;
  schema: WebSchema;
  sampleUrl: string;
  /** What the page shows once the preset is loaded. */
  notice: ReactNode;
}

interface PresetHandlers {
  onSchema: (draft: SchemaDraft) => void;
  onSample: (sample: File) => void;
}

/**
 * Loads the preset's schema into the builder and fetches its sample file and chooses it, so one
 * click on Validate shows a real report. Returns the notice once loaded.
 */
export function usePreset(
  preset: ValidatorPreset | undefined,
  fileType: FileType,
  handlers: PresetHandlers,
): ReactNode {
  const [loaded, setLoaded] = useState<ValidatorPreset>();
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!preset) return;
    let cancelled = false;
    latest.current.onSchema(fromWebSchema(preset.schema, fileType));
    setLoaded(preset);
    void fetch(preset.sampleUrl)
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (cancelled || !blob) return;
        const name = preset.sampleUrl.split('/').pop() ?? `${preset.id}.${fileType}`;
        latest.current.onSample(new File([blob], name, { type: blob.type }));
      })
      .catch(() => {
        // Offline or blocked: the schema is loaded and the user can still choose a file.
      });
    return () => {
      cancelled = true;
    };
  }, [preset, fileType]);

  return loaded?.notice ?? null;
}
