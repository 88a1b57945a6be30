import { FileText, UploadCloud, X } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';

import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { cn } from '@/lib/utils';

import { formatBytes } from '@/lib/format';
import { ACCEPTED_EXTENSIONS_TEXT, DROPZONE_ACCEPT } from '../lib/result';

interface FileDropzoneProps {
  file: File | null;
  onFile: (file: File) => void;
  onRemove: () => void;
  /** Bytes; null is unlimited. A bigger file calls onTooLarge instead of onFile. */
  maxBytes: number | null;
  onTooLarge?: (file: File) => void;
  disabled?: boolean;
  /** Shown under the drop prompt, e.g. the plan's limits or the privacy note. */
  hint?: string;
}

function rejectionMessage(rejections: FileRejection[]): string {
  if (rejections.length > 1) return 'Too many files';
  const first = rejections[0]?.errors[0];
  if (!first) return 'This file cannot be used.';
  if (first.code === 'file-invalid-type') return `File type must be ${ACCEPTED_EXTENSIONS_TEXT}`;
  if (first.code === 'too-many-files') return 'Too many files';
  return first.message;
}

/** One CSV or JSON file by drag and drop or by the file picker (docs/product.md#the-validation-workspace). */
export function FileDropzone({
  file,
  onFile,
  onRemove,
  maxBytes,
  onTooLarge,
  disabled,
  hint,
}: FileDropzoneProps) {
  const baseId = useId();
  const container = useRef<HTMLDivElement>(null);
  // Picking or removing a file swaps the drop zone and the file card: keep focus inside, on the
  // card (then Tab reaches Remove) or back on the drop zone, instead of losing it to the page.
  const hadFocus = useRef(false);
  const previous = useRef(file);
  useEffect(() => {
    if (previous.current === file) return;
    previous.current = file;
    // Focus was here, or on a control that went away with the change (the sample-file button).
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!hadFocus.current && !lost) return;
    hadFocus.current = false;
    const root = container.current;
    const target = root?.matches('[data-focus-target]')
      ? root
      : root?.querySelector<HTMLElement>('[data-focus-target]');
    target?.focus();
  }, [file]);
  const noteFocus = () => {
    const active = document.activeElement;
    hadFocus.current =
      active === document.body || Boolean(active && container.current?.contains(active));
  };

  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: DROPZONE_ACCEPT,
    maxFiles: 1,
    multiple: false,
    disabled,
    onDrop: (accepted, rejections) => {
      if (rejections.length > 0 || accepted.length > 1) {
        toast({
          variant: 'destructive',
          title: 'File not accepted',
          description: accepted.length > 1 ? 'Too many files' : rejectionMessage(rejections),
        });
        return;
      }
      const chosen = accepted[0];
      if (!chosen) return;
      noteFocus();
      if (maxBytes !== null && chosen.size > maxBytes) {
        onTooLarge?.(chosen);
        return;
      }
      onFile(chosen);
    },
  });

  if (file) {
    return (
      <div
        ref={container}
        data-focus-target
        tabIndex={-1}
        role="group"
        aria-label={`Selected file: ${file.name}, ${formatBytes(file.size)}`}
        className="flex items-center gap-3 rounded-lg border border-zinc-200 bg-zinc-50 p-3 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white text-indigo-600 ring-1 ring-zinc-200"
        >
          <FileText className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p
            className="truncate text-sm font-medium text-zinc-900"
            data-testid="selected-file-name"
          >
            {file.name}
          </p>
          <p className="text-xs text-zinc-600">{formatBytes(file.size)}</p>
        </div>
        <Button
          variant="ghost"
          size="sm"
          className="px-2"
          onClick={() => {
            hadFocus.current = true;
            onRemove();
          }}
          disabled={disabled}
          aria-label={`Remove ${file.name}`}
        >
          <X aria-hidden="true" />
        </Button>
      </div>
    );
  }

  return (
    <div ref={container}>
      <div
        data-focus-target
        {...getRootProps({
          className: cn(
            'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-8 text-center transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2',
            isDragActive
              ? 'border-indigo-500 bg-indigo-50'
              : 'border-zinc-300 bg-zinc-50 hover:border-zinc-400 hover:bg-zinc-100/60',
            disabled && 'pointer-events-none opacity-60',
          ),
          role: 'button',
          // Named by all of its visible text, so that speech input can say what is on screen.
          'aria-labelledby': `${baseId}-prompt ${baseId}-hint`,
          // Opens the chooser when tapped before hydration too (early-input.ts, decision 240).
          'data-opens-file': `${baseId}-input`,
        })}
        data-testid="dropzone"
      >
        <UploadCloud
          aria-hidden="true"
          className={cn('size-8', isDragActive ? 'text-indigo-600' : 'text-zinc-500')}
        />
        <p id={`${baseId}-prompt`} className="text-sm font-medium text-zinc-900">
          {isDragActive
            ? 'Drop the file to select it'
            : 'Drag and drop a file here, or click to browse'}
        </p>
        <p id={`${baseId}-hint`} className="text-xs text-zinc-600">
          {ACCEPTED_EXTENSIONS_TEXT} · one file{hint ? ` · ${hint}` : ''}
        </p>
      </div>
      {/* Outside the role=button element: a control may not contain another (nested-interactive). */}
      <input
        {...getInputProps()}
        id={`${baseId}-input`}
        aria-label="Choose a CSV or JSON file"
        data-testid="dropzone-input"
      />
    </div>
  );
}
