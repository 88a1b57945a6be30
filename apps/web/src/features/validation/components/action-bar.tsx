import { FileText, ListChecks, Play } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

import { plural } from '@/lib/format';

interface ActionBarProps {
  file: File | null;
  fieldCount: number;
  running: boolean;
  onValidate: () => void;
  /** "Validate file" on the dashboard, "Validate on this device" on the public validators. */
  label: string;
}

/**
 * The primary action where the work is: a bar that stays at the bottom of the screen while the
 * file and the schema are being prepared, so that Validate is one Tab (or one tap) away from the
 * last field edited rather than back above the whole schema.
 */
export function ActionBar({ file, fieldCount, running, onValidate, label }: ActionBarProps) {
  const missing =
    !file && fieldCount === 0
      ? 'Select a file and define at least one field to validate.'
      : !file
        ? 'Select a file to validate.'
        : fieldCount === 0
          ? 'Define at least one field to validate.'
          : null;
  return (
    <div
      className="sticky bottom-2 z-20 rounded-xl border border-zinc-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_-6px_rgba(0,0,0,0.12)] backdrop-blur sm:bottom-4"
      data-testid="action-bar"
    >
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1 text-sm">
          <p className="flex min-w-0 items-center gap-1.5 font-medium text-zinc-900">
            <FileText aria-hidden="true" className="size-4 shrink-0 text-zinc-500" />
            <span className="truncate">{file ? file.name : 'No file selected'}</span>
          </p>
          <p className="mt-0.5 flex items-center gap-1.5 text-xs text-zinc-600">
            <ListChecks aria-hidden="true" className="size-3.5 shrink-0" />
            {missing ?? `${plural(fieldCount, 'field')} in the schema`}
          </p>
        </div>
        <Button
          size="lg"
          className="shrink-0"
          onClick={onValidate}
          disabled={running || !file || fieldCount === 0}
          aria-describedby={missing ? 'action-bar-missing' : undefined}
        >
          {running ? <Spinner /> : <Play aria-hidden="true" />}
          {running ? 'Validating…' : label}
        </Button>
      </div>
      {missing ? (
        <p id="action-bar-missing" className="sr-only">
          {missing}
        </p>
      ) : null}
    </div>
  );
}
