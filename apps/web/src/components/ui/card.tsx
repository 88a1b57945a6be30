import type { ComponentProps } from 'react';

import { cn } from '@/lib/utils';

const cardVariants = {
  default: 'border-zinc-200',
  dashed: 'border-dashed border-zinc-300',
  highlight: 'border-indigo-300 ring-1 ring-indigo-300',
  danger: 'border-red-200',
} as const;

export function Card({
  className,
  variant = 'default',
  ...props
}: ComponentProps<'div'> & { variant?: keyof typeof cardVariants }) {
  return (
    <div
      className={cn(
        'rounded-xl border bg-white text-zinc-900 shadow-xs',
        cardVariants[variant],
        className,
      )}
      {...props}
    />
  );
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 p-6 pb-0', className)} {...props} />;
}

export function CardTitle({ className, ...props }: ComponentProps<'h2'>) {
  return (
    <h2
      className={cn('text-base font-semibold leading-6 tracking-tight text-zinc-900', className)}
      {...props}
    />
  );
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('text-sm text-zinc-600', className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('p-6', className)} {...props} />;
}
