import { Check, Copy } from 'lucide-react';

import { useCopyToClipboard } from '@/components/ui/copy-button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';

import { SAMPLE_LANGUAGES, type EndpointSample } from '../samples';

function CopyCode({ text }: { text: string }) {
  // A failed copy leaves the label as it was: the sample stays selectable by hand.
  const { state, copy } = useCopyToClipboard(text);
  const copied = state === 'copied';
  return (
    <button
      type="button"
      onClick={() => void copy()}
      className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium text-zinc-200 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
    >
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
  return (
    <div className="min-w-0" data-sample={sample.operationId}>
      <Tabs defaultValue="curl">
        <TabsList
          aria-label={`${sample.title}: sample language`}
          className="inline-grid h-9 grid-cols-3"
        >
          {SAMPLE_LANGUAGES.map((l) => (
            <TabsTrigger key={l.id} value={l.id} className="text-[13px]">
              {l.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {SAMPLE_LANGUAGES.map((l) => (
          <TabsContent key={l.id} value={l.id} className="mt-2">
            <div className="overflow-hidden rounded-lg bg-zinc-900">
              <div className="flex items-center justify-between border-b border-white/10 px-3 py-1">
                <span className="text-xs font-medium text-zinc-400">{l.label}</span>
                <CopyCode text={sample.code[l.id]} />
              </div>
              <pre
                tabIndex={0}
                aria-label={`${sample.title} in ${l.label}`}
                className="overflow-x-auto p-4 text-[12.5px] leading-5 text-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-400"
              >
                <code data-language={l.id}>{sample.code[l.id]}</code>
              </pre>
            </div>
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
