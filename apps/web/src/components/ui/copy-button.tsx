import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Button } from './button';

const COPIED_MS = 2000;

interface CopyButtonProps {
  text: string;
  label?: string;
  /** Runs after a successful copy, e.g. to confirm it in a toast as well. */
  onCopied?: () => void;
}

/**
 * Copies `text` on `copy()`; `state` is 'copied' (or 'failed') for two seconds after, then 'idle'
 * again, for a button to say so.
 */
export function useCopyToClipboard(text: string, onCopied?: () => void) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
      onCopied?.();
    } catch {
      // No clipboard permission (an insecure origin or a refusal): say so rather than pretend.
      setState('failed');
    }
  };

  return { state, copy };
}

/** Copies `text` and says "Copied!" for two seconds (announced to screen readers). */
export function CopyButton({ text, label = 'Copy', onCopied }: CopyButtonProps) {
  const { state, copy } = useCopyToClipboard(text, onCopied);
  return (
    <Button variant="outline" size="sm" onClick={() => void copy()}>
      {state === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      <span aria-live="polite">
        {state === 'copied' ? 'Copied!' : state === 'failed' ? 'Copy failed' : label}
      </span>
    </Button>
  );
}
