import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

interface ScrollTableProps {
  /** Names the region, which scrolls sideways (and takes focus to scroll by keyboard). */
  label: string;
  /** The width below which the table scrolls rather than squeezes (a Tailwind class). */
  minWidth: string;
  columns: readonly { key: string; label: ReactNode }[];
  /** The body's rows. */
  children: ReactNode;
  bodyClassName?: string;
}

/** A wide comparison table in a bordered box that scrolls sideways on a phone. */
export function ScrollTable({
  label,
  minWidth,
  columns,
  children,
  bodyClassName,
}: ScrollTableProps) {
  return (
    <div
      className="overflow-x-auto rounded-xl border border-zinc-200 bg-white"
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <table className={cn('w-full text-left text-sm', minWidth)}>
        <thead className="bg-zinc-50 text-zinc-900">
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className="px-4 py-3 font-semibold">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={cn('divide-y divide-zinc-100', bodyClassName)}>{children}</tbody>
      </table>
    </div>
  );
}
