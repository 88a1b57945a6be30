import type { ComponentProps } from 'react';

import { cn } from '@/lib/utils';

const base =
  'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-lg text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-60 [&_svg]:pointer-events-none [&_svg]:shrink-0';

const variants = {
  default: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-700 active:bg-indigo-800',
  destructive:
    'bg-red-600 text-white shadow-sm hover:bg-red-700 focus-visible:ring-red-500 active:bg-red-800',
  outline:
    'border border-zinc-300 bg-white text-zinc-900 shadow-xs hover:border-zinc-400 hover:bg-zinc-50',
  secondary: 'bg-zinc-100 text-zinc-900 hover:bg-zinc-200',
  ghost: 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900',
  link: 'text-indigo-700 underline-offset-4 hover:underline',
  /** On dark panels. */
  inverse: 'bg-white text-zinc-900 shadow-sm hover:bg-zinc-100 focus-visible:ring-white',
} as const;

const sizes = {
  default: 'h-10 px-4 [&_svg]:size-4',
  sm: 'h-8 px-3 text-[13px] [&_svg]:size-4',
  lg: 'h-12 px-6 text-base [&_svg]:size-5',
  icon: 'size-10 [&_svg]:size-5',
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

/** The classes of a button, for links that look like one (`<Link className={buttonVariants()}>`). */
export function buttonVariants({
  variant = 'default',
  size = 'default',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cn(base, variants[variant], sizes[size], className);
}

export type ButtonProps = ComponentProps<'button'> & { variant?: ButtonVariant; size?: ButtonSize };

export function Button({ className, variant, size, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonVariants({ variant, size, className })} {...props} />;
}
