import { TriangleAlert } from 'lucide-react';
import { useId, type ReactNode } from 'react';

import { Button } from './button';
import { CopyButton } from './copy-button';

interface OneTimeSecretProps {
  title: ReactNode;
  /** Why it must be copied now. */
  warning: ReactNode;
  secret: string;
  /** data-testid of the secret, which the browser tests read. */
  testId: string;
  copyLabel: string;
  onCopied?: () => void;
  onDone: () => void;
}

/** A secret the server shows once (an API key, a signing secret), with Copy and Done. */
export function OneTimeSecret({
  title,
  warning,
  secret,
  testId,
  copyLabel,
  onCopied,
  onDone,
}: OneTimeSecretProps) {
  const headingId = useId();
  return (
    <div
      role="status"
      className="grid gap-3 rounded-lg border border-green-200 bg-green-50 p-4"
      aria-labelledby={headingId}
    >
      <p id={headingId} className="text-sm font-semibold text-green-900">
        {title}
      </p>
      <p className="flex gap-2 text-sm text-green-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {warning}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid={testId}
          className="min-w-0 flex-1 break-all rounded-md border border-green-200 bg-white px-3 py-2 font-mono text-[13px] text-zinc-900"
        >
          {secret}
        </code>
        <CopyButton text={secret} label={copyLabel} onCopied={onCopied} />
      </div>
      <div>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
