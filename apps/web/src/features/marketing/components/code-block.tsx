import { CopyButton } from '@/components/ui/copy-button';
import { cn } from '@/lib/utils';

interface CodeBlockProps {
  code: string;
  /** Shown above the code, e.g. a file name. */
  title?: string;
  copy?: boolean;
  className?: string;
  /** Accent for before/after examples. */
  tone?: 'neutral' | 'bad' | 'good';
}

const tones = {
  neutral: 'border-zinc-200',
  bad: 'border-red-200',
  good: 'border-green-200',
} as const;

/** A scrollable code sample (never wider than its column) with an optional copy button. */
export function CodeBlock({
  code,
  title,
  copy = false,
  className,
  tone = 'neutral',
}: CodeBlockProps) {
  return (
    <div
      className={cn(
        'min-w-0 overflow-hidden rounded-lg border bg-zinc-950',
        tones[tone],
        className,
      )}
    >
      {title || copy ? (
        <div className="flex items-center justify-between gap-3 border-b border-zinc-800 bg-zinc-900 px-3 py-1.5">
          <span className="truncate font-mono text-xs text-zinc-300">{title}</span>
          {copy ? <CopyButton text={code} /> : null}
        </div>
      ) : null}
      <pre
        tabIndex={0}
        aria-label={title || 'Code sample'}
        className="overflow-x-auto p-3 font-mono text-[13px] leading-6 text-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-400"
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}
