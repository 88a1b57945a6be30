import { Link2Off } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

import { AuthCardHeading } from './auth-card-layout';

/** `focusOnShow`: it replaced a form the user was typing in, so move focus to its heading. */
export function InvalidResetLink({ focusOnShow = false }: { focusOnShow?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusOnShow) ref.current?.focus();
  }, [focusOnShow]);
  return (
    <div ref={ref} tabIndex={-1} className="focus:outline-none" data-testid="invalid-reset-link">
      <AuthCardHeading icon={<Link2Off />} title="Invalid reset link">
        This password reset link is invalid or has expired. Please request a new one.
      </AuthCardHeading>
      <div className="grid gap-2">
        <Link
          to={paths.forgotPassword}
          className={buttonVariants({ size: 'lg', className: 'w-full' })}
        >
          Request new reset link
        </Link>
        <Link
          to={paths.auth}
          className={buttonVariants({ variant: 'outline', size: 'lg', className: 'w-full' })}
        >
          Back to Sign In
        </Link>
      </div>
    </div>
  );
}
