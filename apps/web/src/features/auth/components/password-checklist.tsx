import { passwordChecks } from '@schemacheck/contracts';
import { Check, Circle } from 'lucide-react';

import { cn } from '@/lib/utils';

/**
 * The live password requirements (docs/product.md#accounts-and-passwords): each item turns green with a check mark when met.
 * Each item says in words whether it is met, and a polite live region announces progress, so
 * screen-reader users hear the change without the whole list being read on every keystroke.
 */
export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  const results = passwordChecks.map((check) => ({
    label: check.label,
    met: check.test(password),
  }));
  const metCount = results.filter((r) => r.met).length;
  return (
    <div className="rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2.5">
      <p id={`${id}-heading`} className="text-xs font-medium text-zinc-700">
        Password must contain:
      </p>
      <ul id={id} aria-labelledby={`${id}-heading`} className="mt-1.5 grid gap-1 sm:grid-cols-2">
        {results.map(({ label, met }) => (
          <li
            key={label}
            data-met={met}
            className={cn(
              'flex items-center gap-2 text-[13px] transition-colors',
              met ? 'text-green-700' : 'text-zinc-600',
            )}
          >
            {met ? (
              <Check aria-hidden="true" className="size-4 shrink-0" strokeWidth={2.5} />
            ) : (
              <Circle aria-hidden="true" className="size-3.5 shrink-0 text-zinc-400" />
            )}
            <span>
              {label}
              <span className="sr-only">{met ? ' (met)' : ' (not met)'}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {metCount === results.length
          ? 'All password requirements met.'
          : `${metCount} of ${results.length} password requirements met.`}
      </p>
    </div>
  );
}
