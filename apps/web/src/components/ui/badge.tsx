import type { ComponentProps } from 'react';

import { cn } from '@/lib/utils';

const variants = {
  default: 'bg-indigo-50 text-indigo-700 ring-indigo-600/20',
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-500/20',
  success: 'bg-green-50 text-green-800 ring-green-600/20',
  danger: 'bg-red-50 text-red-700 ring-red-600/20',
} as const;

export function Badge({
  className,
  variant = 'default',
  ...props
}: ComponentProps<'span'> & { variant?: keyof typeof variants }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
