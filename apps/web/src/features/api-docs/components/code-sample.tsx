import { Check, Copy } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';

import { useCopyToClipboard } from '@/components/ui/copy-button';

import { SAMPLE_LANGUAGES, type EndpointSample, type SampleLanguage } from '../samples';

// /api-docs shows a dozen of these: tabs written by hand (the WAI-ARIA tabs pattern, one panel in
// the DOM) rather than Radix's, whose markup for three hidden panels per sample made up a
// fifth of the page's HTML (docs/decisions/231).

function CopyCode({ text }: { text: string }) {
  // A failed copy leaves the label as it was: the sample stays selectable by hand.
  const { state, copy } = useCopyToClipboard(text);
  const copied = state === 'copied';
  return (
    <button type="button" onClick={() => void copy()} className="code-copy">
      {copied ? (
        <Check aria-hidden="true" className="size-3.5" />
      ) : (
        <Copy aria-hidden="true" className="size-3.5" />
      )}
      <span aria-live="polite">{copied ? 'Copied!' : 'Copy'}</span>
    </button>
  );
}

/** One endpoint's samples in cURL, Python and JavaScript, as tabs. */
export function CodeSample({ sample }: { sample: EndpointSample }) {
  const [language, setLanguage] = useState<SampleLanguage>('curl');
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = SAMPLE_LANGUAGES.find((l) => l.id === language)!;

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = SAMPLE_LANGUAGES.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setLanguage(SAMPLE_LANGUAGES[next]!.id);
    tabs.current[next]?.focus();
  };

  return (
    <div className="min-w-0" data-sample={sample.operationId}>
      <div
        role="tablist"
        aria-label={`${sample.title}: sample language`}
        className="inline-grid h-9 grid-cols-3 items-center rounded-lg bg-zinc-100 p-1 text-zinc-600"
      >
        {SAMPLE_LANGUAGES.map((l, i) => (
          <button
            key={l.id}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-${l.id}`}
            aria-selected={l.id === language}
            aria-controls={`${id}-panel`}
            tabIndex={l.id === language ? 0 : -1}
            data-state={l.id === language ? 'active' : 'inactive'}
            className="code-tab"
            onClick={() => setLanguage(l.id)}
            onKeyDown={(event) => onKeyDown(event, i)}
          >
            {l.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-${language}`}
        className="mt-2 overflow-hidden rounded-lg bg-zinc-900"
      >
        <div className="flex items-center justify-between border-b border-white/10 px-3 py-1">
          <span className="text-xs font-medium text-zinc-400">{current.label}</span>
          <CopyCode key={language} text={sample.code[language]} />
        </div>
        <pre tabIndex={0} aria-label={`${sample.title} in ${current.label}`} className="code-block">
          <code data-language={language}>{sample.code[language]}</code>
        </pre>
      </div>
    </div>
  );
}
