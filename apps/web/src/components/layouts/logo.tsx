import { FileCheck2 } from 'lucide-react';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { SITE_NAME } from '@/config/site';
import { cn } from '@/lib/utils';

export function LogoMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-8 items-center justify-center rounded-lg bg-indigo-600 text-white shadow-sm',
        className,
      )}
    >
      <FileCheck2 className="size-[18px]" strokeWidth={2.25} />
    </span>
  );
}

export function Logo({ onClick }: { onClick?: () => void }) {
  return (
    <Link
      to={paths.home}
      onClick={onClick}
      aria-label={`${SITE_NAME} home`}
      className="flex items-center gap-2.5 rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-4"
    >
      <LogoMark />
      <span className="text-[17px] font-semibold tracking-tight text-zinc-900">{SITE_NAME}</span>
    </Link>
  );
}
