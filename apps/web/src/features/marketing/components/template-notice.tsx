import { LayoutTemplate } from 'lucide-react';
import { Link } from 'react-router-dom';

import type { SchemaTemplate } from '../content/templates';

/** Shown in a validator opened from /templates: what was loaded and what to expect. */
export function TemplateNotice({ template }: { template: SchemaTemplate }) {
  return (
    <p
      className="flex items-start gap-2 rounded-lg bg-indigo-50 px-3 py-2.5 text-sm text-indigo-950 ring-1 ring-indigo-200"
      data-testid="template-notice"
    >
      <LayoutTemplate aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-700" />
      <span>
        Template <strong className="font-semibold">{template.title}</strong> loaded with its sample
        file, which has {template.sampleErrors.length} deliberate mistakes. Validate to see them, or
        choose your own file.{' '}
        <Link to={`/templates#${template.id}`} className="font-medium underline">
          Back to templates
        </Link>
      </span>
    </p>
  );
}
