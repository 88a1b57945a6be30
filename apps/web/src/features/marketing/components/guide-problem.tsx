import type { ReactNode } from 'react';

import type { EngineExample } from '../content/engine-examples';
import { BeforeAfter } from './before-after';

interface GuideProblemProps {
  id: string;
  number: number;
  title: string;
  /** Why it happens. */
  children: ReactNode;
  /** How to fix the file, after "Fix:". */
  fix: ReactNode;
  example: EngineExample;
}

/** One problem of an error guide: explanation, then the real before/after and the report. */
export function GuideProblem({ id, number, title, children, fix, example }: GuideProblemProps) {
  return (
    <article
      id={id}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      className="min-w-0 scroll-mt-20 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs focus:outline-none sm:p-8"
    >
      <h3 id={`${id}-title`} className="flex items-start gap-3 text-xl font-semibold text-zinc-900">
        <span
          aria-hidden="true"
          className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm text-white"
        >
          {number}
        </span>
        <span className="min-w-0">{title}</span>
      </h3>
      <div className="mt-4 grid gap-3 text-[15px] leading-7 text-zinc-700">
        {children}
        <p>
          <strong className="font-semibold text-zinc-900">Fix:</strong> {fix}
        </p>
      </div>
      <div className="mt-6">
        <BeforeAfter example={example} />
      </div>
    </article>
  );
}

/** A file's value, header or snippet quoted in a guide's text. */
export function InlineCode({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[13px] text-zinc-900">
      {children}
    </code>
  );
}

/** The four cards at the top of a guide, each linking to its problem below. */
export function GuideCards({
  items,
}: {
  items: readonly { id: string; title: string; text: string }[];
}) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {items.map((item) => (
        <li key={item.id} className="min-w-0">
          <a
            href={`#${item.id}`}
            className="block h-full rounded-xl border border-zinc-200 bg-white p-5 shadow-xs transition-colors hover:border-indigo-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <span className="block text-base font-semibold text-zinc-900">{item.title}</span>
            <span className="mt-2 block text-sm leading-6 text-zinc-600">{item.text}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
