import type { ComponentProps } from 'react';

import { cn } from '@/lib/utils';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      className={cn(
        'flex h-10 w-full min-w-0 rounded-lg border border-input bg-white px-3 py-2 text-base text-zinc-900 shadow-xs transition-colors placeholder:text-zinc-500 focus-visible:border-indigo-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/40 disabled:cursor-not-allowed disabled:bg-zinc-100 disabled:opacity-70 aria-invalid:border-red-600 aria-invalid:focus-visible:ring-red-500/40 sm:text-sm',
        className,
      )}
      {...props}
    />
  );
}
