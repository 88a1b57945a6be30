import { cn } from '@/lib/utils';

const COLOURS: Record<string, string> = {
  GET: 'bg-sky-50 text-sky-800 ring-sky-600/20',
  POST: 'bg-green-50 text-green-800 ring-green-600/20',
  PUT: 'bg-amber-50 text-amber-900 ring-amber-600/20',
  DELETE: 'bg-red-50 text-red-800 ring-red-600/20',
};

export function MethodBadge({ method, className }: { method: string; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex w-16 shrink-0 justify-center rounded-md px-1.5 py-0.5 font-mono text-xs font-semibold ring-1 ring-inset',
        COLOURS[method] ?? 'bg-zinc-100 text-zinc-700 ring-zinc-500/20',
        className,
      )}
    >
      {method}
    </span>
  );
}
