import { Check } from 'lucide-react';

/** Lines each ticked with a check mark, such as what a plan includes. `className` lays out the list. */
export function CheckList({ items, className }: { items: readonly string[]; className?: string }) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2 text-sm text-zinc-700">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-600" />
          {item}
        </li>
      ))}
    </ul>
  );
}
