import { LogOut, Menu, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink } from 'react-router-dom';

import { buttonVariants, Button } from '@/components/ui/button';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetTitle,
  SheetTrigger,
} from '@/components/ui/sheet';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { hasApiAccess, useLogout, useUser } from '@/lib/auth';

import { Logo } from './logo';
import {
  defaultNavItems,
  scrollToSection,
  SIDE_MENU_SCROLL_DELAY_MS,
  type NavItem,
} from './nav-items';

interface HeaderProps {
  /** The auth page hides Sign In / Get Started Free (the page is the sign-in form). */
  showAuth?: boolean;
  navItems?: NavItem[];
}

const desktopLink =
  'whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium text-zinc-700 transition-colors hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 aria-[current=page]:text-indigo-700 xl:px-3';

const menuLink =
  'flex items-center rounded-lg px-3 py-2.5 text-[15px] font-medium text-zinc-800 transition-colors hover:bg-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 aria-[current=page]:bg-indigo-50 aria-[current=page]:text-indigo-700';

export function Header({ showAuth = true, navItems = defaultNavItems }: HeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const { data: user, isPending } = useUser();
  const logout = useLogout();
  const signedIn = Boolean(user);
  const apiDocs = hasApiAccess(user);

  const closeMenu = () => setMenuOpen(false);

  const renderNavItem = (item: NavItem, inMenu: boolean) => {
    const className = inMenu ? menuLink : desktopLink;
    if ('section' in item) {
      return (
        <a
          key={item.section}
          href={`#${item.section}`}
          className={className}
          onClick={(event) => {
            event.preventDefault();
            if (inMenu) {
              closeMenu();
              window.setTimeout(() => scrollToSection(item.section), SIDE_MENU_SCROLL_DELAY_MS);
            } else {
              scrollToSection(item.section);
            }
          }}
        >
          {item.label}
        </a>
      );
    }
    return (
      <NavLink
        key={item.to}
        to={item.to}
        className={className}
        onClick={inMenu ? closeMenu : undefined}
      >
        {item.label}
      </NavLink>
    );
  };

  const logoutButton = (inMenu: boolean) => (
    <Button
      variant="outline"
      size={inMenu ? 'default' : 'sm'}
      className={inMenu ? 'w-full' : undefined}
      disabled={logout.isPending}
      onClick={() => logout.mutate(undefined, { onSettled: closeMenu })}
    >
      {logout.isPending ? <Spinner /> : <LogOut aria-hidden="true" />}
      {/* From 1024 to 1279 px the header's links share the row with it: the icon alone, named. */}
      <span className={inMenu ? undefined : 'max-xl:sr-only'}>
        {logout.isPending ? 'Logging out...' : 'Log out'}
      </span>
    </Button>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-zinc-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />

        <nav aria-label="Main" className="hidden items-center gap-0.5 lg:flex xl:gap-1">
          {navItems.map((item) => renderNavItem(item, false))}
        </nav>

        <div className="hidden items-center justify-end gap-2 lg:flex xl:min-w-[220px]">
          {isPending ? null : signedIn ? (
            <>
              <NavLink to={paths.dashboard} className={desktopLink}>
                Dashboard
              </NavLink>
              <NavLink to={paths.profile} className={desktopLink}>
                Profile
              </NavLink>
              {apiDocs ? (
                <NavLink to={paths.apiDocs} className={desktopLink}>
                  API Docs
                </NavLink>
              ) : null}
              {logoutButton(false)}
            </>
          ) : showAuth ? (
            <>
              <Link to={paths.auth} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
                Sign In
              </Link>
              <Link to={paths.register} className={buttonVariants({ size: 'sm' })}>
                Get Started Free
              </Link>
            </>
          ) : null}
        </div>

        <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
          <SheetTrigger asChild>
            <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu">
              <Menu aria-hidden="true" />
            </Button>
          </SheetTrigger>
          <SheetContent>
            <SheetTitle className="pr-8 text-base font-semibold text-zinc-900">
              Navigation Menu
            </SheetTitle>
            <SheetDescription className="sr-only">
              Access page links and account options.
            </SheetDescription>

            {signedIn && user ? (
              <div className="flex items-center gap-3 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-3">
                <span
                  aria-hidden="true"
                  className="flex size-9 items-center justify-center rounded-full bg-indigo-100 text-indigo-700"
                >
                  <UserRound className="size-5" />
                </span>
                <p className="min-w-0 text-sm text-zinc-600">
                  Signed in as
                  <span className="block truncate font-semibold text-zinc-900">
                    {user.username}
                  </span>
                </p>
              </div>
            ) : null}

            <nav aria-label="Menu" className="flex flex-col gap-0.5">
              {navItems.map((item) => renderNavItem(item, true))}
            </nav>

            {isPending ? null : signedIn ? (
              <div className="mt-auto flex flex-col gap-0.5 border-t border-zinc-200 pt-4">
                <NavLink to={paths.dashboard} className={menuLink} onClick={closeMenu}>
                  Dashboard
                </NavLink>
                <NavLink to={paths.profile} className={menuLink} onClick={closeMenu}>
                  Profile
                </NavLink>
                {apiDocs ? (
                  <NavLink to={paths.apiDocs} className={menuLink} onClick={closeMenu}>
                    API Docs
                  </NavLink>
                ) : null}
                <div className="mt-3">{logoutButton(true)}</div>
              </div>
            ) : showAuth ? (
              <div className="mt-auto flex flex-col gap-2 border-t border-zinc-200 pt-4">
                <Link
                  to={paths.auth}
                  onClick={closeMenu}
                  className={buttonVariants({ variant: 'outline', className: 'w-full' })}
                >
                  Sign In
                </Link>
                <Link
                  to={paths.register}
                  onClick={closeMenu}
                  className={buttonVariants({ className: 'w-full' })}
                >
                  Get Started Free
                </Link>
              </div>
            ) : null}
          </SheetContent>
        </Sheet>
      </div>
    </header>
  );
}
