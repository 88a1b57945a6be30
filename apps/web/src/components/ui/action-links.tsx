import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';

import { cn } from '@/lib/utils';

import { buttonVariants } from './button';

interface ActionLinksProps {
  action: { label: string; to: string };
  secondary: { label: string; to: string };
  /** Space or a rule above, when something stands between the text and the links. */
  className?: string;
}

/** A page's two large links: its main action with an arrow, and an outlined second one. */
export function ActionLinks({ action, secondary, className }: ActionLinksProps) {
  return (
    <div className={cn('flex flex-col gap-3 sm:flex-row', className)}>
      <Link to={action.to} className={buttonVariants({ size: 'lg' })}>
        {action.label}
        <ArrowRight aria-hidden="true" />
      </Link>
      <Link to={secondary.to} className={buttonVariants({ variant: 'outline', size: 'lg' })}>
        {secondary.label}
      </Link>
    </div>
  );
}
