import { FileText, ListChecks, Play } from 'lucide-react';
import { useEffect, useRef, useState, type RefObject } from 'react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { plural } from '@/lib/format';
import { cn } from '@/lib/utils';

interface ActionBarProps {
  file: File | null;
  fieldCount: number;
  running: boolean;
  onValidate: () => void;
  /** "Validate file" on the dashboard, "Validate on this device" on the public validators. */
  label: string;
  /**
   * What the docked bar must never cover (the card with the drop zone): the bar docks at the
   * bottom of the screen only while this element's end is above it.
   */
  guard: RefObject<HTMLElement | null>;
}

/** The gap under the docked bar (bottom-2 / sm:bottom-4) and a little air above it. */
const DOCK_MARGIN_PX = 24;

/**
 * Docked while the guarded element is wholly above where the docked bar would be; in the page's
 * flow, at the end of the column, otherwise. The bar keeps its place in the flow either way
 * (sticky), so docking moves nothing else.
 */
function useDocked(guard: RefObject<HTMLElement | null>, bar: RefObject<HTMLElement | null>) {
  const [docked, setDocked] = useState(false);
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const guarded = guard.current;
      const own = bar.current;
      if (!guarded || !own) return;
      const limit = window.innerHeight - own.offsetHeight - DOCK_MARGIN_PX;
      setDocked(guarded.getBoundingClientRect().bottom <= limit);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    const observer = new ResizeObserver(schedule);
    if (guard.current) observer.observe(guard.current);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      observer.disconnect();
    };
  }, [guard, bar]);
  return docked;
}

/**
 * The primary action where the work is: once the file is chosen and the page scrolled on to the
 * schema, a bar stays at the bottom of the screen, so that Validate is one Tab (or one tap) away
 * from the last field edited rather than back above the whole schema. One line on phones.
 */
export function ActionBar({ file, fieldCount, running, onValidate, label, guard }: ActionBarProps) {
  const bar = useRef<HTMLDivElement>(null);
  const docked = useDocked(guard, bar);
  const missing =
    !file && fieldCount === 0
      ? 'Select a file and define at least one field to validate.'
      : !file
        ? 'Select a file to validate.'
        : fieldCount === 0
          ? 'Define at least one field to validate.'
          : null;
  return (
    <div
      ref={bar}
      className={cn(
        'z-20 rounded-xl border border-zinc-200 bg-white/95 px-3 py-2 backdrop-blur sm:px-4 sm:py-3',
        docked && 'sticky bottom-2 shadow-[0_-4px_12px_-6px_rgba(0,0,0,0.12)] sm:bottom-4',
      )}
      data-testid="action-bar"
      data-docked={docked ? 'true' : 'false'}
    >
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1 text-sm">
          <p className="flex min-w-0 items-center gap-1.5 font-medium text-zinc-900">
            <FileText
              aria-hidden="true"
              className="hidden size-4 shrink-0 text-zinc-500 sm:block"
            />
            <span className="truncate">{file ? file.name : 'No file selected'}</span>
          </p>
          <p className="mt-0.5 hidden items-center gap-1.5 text-xs text-zinc-600 sm:flex">
            <ListChecks aria-hidden="true" className="size-3.5 shrink-0" />
            {missing ?? `${plural(fieldCount, 'field')} in the schema`}
          </p>
        </div>
        {/* While it runs the button is aria-disabled, not disabled: a disabled button drops the
            focus, and a dialog that the run opens (an upgrade) could not give it back. */}
        <Button
          className={cn(
            'shrink-0 sm:h-12 sm:px-6 sm:text-base sm:[&_svg]:size-5',
            running && 'pointer-events-none opacity-60',
          )}
          onClick={running ? undefined : onValidate}
          disabled={!running && (!file || fieldCount === 0)}
          aria-disabled={running || undefined}
          aria-describedby={missing ? 'action-bar-missing' : undefined}
        >
          {running ? <Spinner /> : <Play aria-hidden="true" />}
          {running ? 'Validating…' : label}
        </Button>
      </div>
      {missing ? (
        <p id="action-bar-missing" className="sr-only">
          {missing}
        </p>
      ) : null}
    </div>
  );
}
