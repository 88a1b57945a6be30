import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

import { Button } from './button';
import { Spinner } from './spinner';

// What a list fetched from the server shows before it has items: loading, failed, empty.

/** `className` sets the vertical spacing (py-4 unless given). */
export function LoadingState({
  children,
  className = 'py-4',
}: {
  children: ReactNode;
  className?: string;
}) {
  return (
    <p className={cn('flex items-center gap-2 text-sm text-zinc-600', className)}>
      <Spinner /> {children}
    </p>
  );
}

export function LoadErrorState({
  children,
  onRetry,
}: {
  children: ReactNode;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="flex items-center gap-3 py-4 text-sm text-red-700">
      {children}
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** `className` sets the space above it. */
export function EmptyState({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p
      className={cn(
        'rounded-lg border border-dashed border-zinc-300 px-4 py-5 text-center text-sm text-zinc-600',
        className,
      )}
    >
      {children}
    </p>
  );
}
