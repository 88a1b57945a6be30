import { LockKeyhole } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { authHref } from '@/lib/continue-to';
import { useUser } from '@/lib/auth';

function GuardMessage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-zinc-50 px-4">
      <div role="status" className="flex flex-col items-center gap-3 text-center">
        {children}
      </div>
    </div>
  );
}

/** Shows its children only to a signed-in user; anyone else is sent to /auth (docs/product.md#screens-and-routes). */
export function AuthGuard({ children }: { children: ReactNode }) {
  const { data: user, isPending } = useUser();
  const navigate = useNavigate();
  const location = useLocation();
  const allowed = Boolean(user);
  // Sign-in comes back here (docs/decisions/175).
  const signIn = authHref({ next: `${location.pathname}${location.search}${location.hash}` });

  // Signed in earlier on this page, then not (log out, account deleted, session gone): plain /auth,
  // as those flows navigate there themselves; a return-to is for visitors who arrived signed out.
  const wasSignedIn = useRef(false);
  if (user) wasSignedIn.current = true;

  useEffect(() => {
    if (isPending || allowed) return;
    navigate(wasSignedIn.current ? paths.auth : signIn, { replace: true });
  }, [isPending, allowed, navigate, signIn]);

  if (isPending) {
    return (
      <GuardMessage>
        <Spinner className="size-6 text-indigo-600" />
        <p className="text-sm font-medium text-zinc-700">Checking authentication...</p>
      </GuardMessage>
    );
  }
  if (!allowed) {
    return (
      <GuardMessage>
        <span className="flex size-11 items-center justify-center rounded-full bg-zinc-100 text-zinc-700">
          <LockKeyhole aria-hidden="true" className="size-5" />
        </span>
        <p className="text-base font-semibold text-zinc-900">Authentication required</p>
        <p className="text-sm text-zinc-600">Redirecting to sign in...</p>
        <Link to={signIn} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          Sign In
        </Link>
      </GuardMessage>
    );
  }
  return <>{children}</>;
}
