import type { Plan } from '@schemacheck/contracts';
import { FileSpreadsheet, LayoutTemplate, ListPlus, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';

import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';

import { formatMaxFileSize, formatMaxRows } from '@/lib/format';
import { FileDropzone } from './file-dropzone';

interface UploadCardProps {
  plan: Plan;
  /** The Free plan: the file is checked here, at any size, and not uploaded. */
  onDevice: boolean;
  file: File | null;
  disabled: boolean;
  onFile: (file: File) => void;
  onRemove: () => void;
  onTooLarge: (file: File) => void;
  onSample: () => void;
  /** Offered while the schema has no fields. */
  onStarter: (() => void) | undefined;
}

/**
 * The workspace's file card: "Upload file" with the plan's limits, or on the Free plan "Choose a
 * file" checked on this device; the drop zone; and the ways in.
 */
export function UploadCard({
  plan,
  onDevice,
  file,
  disabled,
  onFile,
  onRemove,
  onTooLarge,
  onSample,
  onStarter,
}: UploadCardProps) {
  return (
    <Card>
      <CardHeader>
        <div className="flex items-start justify-between gap-3">
          <div>
            <CardTitle>{onDevice ? 'Choose a file' : 'Upload file'}</CardTitle>
            <CardDescription>
              {onDevice
                ? 'A CSV or JSON file of any size to check against the schema.'
                : 'A CSV or JSON file to check against the schema.'}
            </CardDescription>
          </div>
          <Badge data-testid="tier-badge">{plan.label}</Badge>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {onDevice ? (
          <p
            className="flex items-start gap-2 rounded-lg bg-green-50 px-3 py-2.5 text-sm text-green-900 ring-1 ring-green-200"
            data-testid="on-device-note"
          >
            <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            Checked on this device. Your file is never uploaded.
          </p>
        ) : (
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <div className="rounded-lg bg-zinc-50 px-3 py-2">
              <dt className="text-xs text-zinc-600">Maximum file size</dt>
              <dd className="font-medium text-zinc-900">
                {formatMaxFileSize(plan.limits.maxFileBytes)}
              </dd>
            </div>
            <div className="rounded-lg bg-zinc-50 px-3 py-2">
              <dt className="text-xs text-zinc-600">Maximum rows</dt>
              <dd className="font-medium text-zinc-900">{formatMaxRows(plan.limits.maxRows)}</dd>
            </div>
          </dl>
        )}
        <FileDropzone
          file={file}
          maxBytes={onDevice ? null : plan.limits.maxFileBytes}
          disabled={disabled}
          onFile={onFile}
          onRemove={onRemove}
          onTooLarge={onTooLarge}
        />
        {!file ? <StartPoints onSample={onSample} onStarter={onStarter} /> : null}
      </CardContent>
    </Card>
  );
}

/** The empty workspace's ways in: a sample file, a starter schema, or a template. */
function StartPoints({
  onSample,
  onStarter,
}: {
  onSample: () => void;
  onStarter: (() => void) | undefined;
}) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-3" data-testid="start-points">
      <p className="text-sm font-medium text-zinc-900">Nothing to hand? Start from an example.</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onSample}>
          <FileSpreadsheet aria-hidden="true" />
          Try a sample file
        </Button>
        {onStarter ? (
          <Button variant="outline" size="sm" onClick={onStarter}>
            <ListPlus aria-hidden="true" />
            Use a starter schema
          </Button>
        ) : null}
        <Link to={paths.templates} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
          <LayoutTemplate aria-hidden="true" />
          Browse templates
        </Link>
      </div>
    </div>
  );
}
