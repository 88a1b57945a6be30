import { ChevronDown } from 'lucide-react';

import type { Faq } from '../lib/json-ld';

interface FaqSectionProps {
  faqs: readonly Faq[];
  heading?: string;
  /** Section id (an in-page anchor, e.g. "faq" on the landing page). */
  id?: string;
  intro?: string;
}

/**
 * Questions as native disclosure widgets: keyboard and screen-reader support come with the
 * element, they work before the page's script loads, and the answers are in the HTML for search
 * engines. The FAQPage JSON-LD is built from the same list (lib/json-ld.ts).
 */
export function FaqSection({
  faqs,
  heading = 'Frequently asked questions',
  id = 'faq',
  intro,
}: FaqSectionProps) {
  return (
    <section
      id={id}
      tabIndex={-1}
      aria-labelledby={`${id}-heading`}
      className="scroll-mt-20 border-t border-zinc-200 bg-white focus:outline-none"
    >
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        <div className="max-w-3xl">
          <h2
            id={`${id}-heading`}
            className="text-2xl font-semibold tracking-tight text-zinc-900 sm:text-3xl"
          >
            {heading}
          </h2>
          {intro ? <p className="mt-3 text-base leading-7 text-zinc-600">{intro}</p> : null}
          <div className="mt-8 divide-y divide-zinc-200 border-y border-zinc-200">
            {faqs.map((faq) => (
              <details key={faq.question} className="group">
                <summary className="flex cursor-pointer list-none items-start justify-between gap-4 rounded-md py-4 text-left text-base font-medium text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 [&::-webkit-details-marker]:hidden">
                  <span>{faq.question}</span>
                  <ChevronDown
                    aria-hidden="true"
                    className="mt-0.5 size-5 shrink-0 text-zinc-500 transition-transform group-open:rotate-180"
                  />
                </summary>
                <p className="pb-5 pr-8 text-[15px] leading-7 text-zinc-600">{faq.answer}</p>
              </details>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
