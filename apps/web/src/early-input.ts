// Taps that arrive before a pre-rendered page is hydrated (docs/decisions/142). The page is
// painted from its HTML and the app's code loads after that (decision 108), so for a moment
// its buttons look ready but have no handlers: "Copy schema" on /templates, the header's menu,
// tabs, the validators' drop zone and form buttons did nothing when tapped early, and the tap
// was lost. Links, <summary> and native form fields work from the HTML alone and are left alone;
// a click on a control that needs the code is held (the page shows a progress cursor) and
// replayed on the same control once the app says it has hydrated; a submitted form is submitted
// again then. Each control is replayed once, however often it was tapped while waiting. Before
// this runs (the page may paint while the parser is still reading it), index.css shows those
// controls as inactive and lets no tap reach them.

/** Dispatched on document by the app once hydration has committed (main.tsx). */
export const HYDRATED_EVENT = 'schemacheck:hydrated';

/** What needs the app's code to work when clicked. */
const CONTROLS =
  'button, input[type="submit"], input[type="button"], [role="button"], [role="tab"]';

type Held =
  | { kind: 'click'; element: HTMLElement; index: number }
  | { kind: 'submit'; form: HTMLFormElement; index: number; submitter: number };

/** Starts holding clicks and submits inside `root` until HYDRATED_EVENT, then replays them. */
export function holdEarlyInput(root: HTMLElement): void {
  const held: Held[] = [];
  const html = document.documentElement;
  // Where a control is among its kind, to find it again should hydration have replaced the node.
  const controls = () => [...root.querySelectorAll<HTMLElement>(CONTROLS)];
  const forms = () => [...root.querySelectorAll('form')];

  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const control = target?.closest<HTMLElement>(CONTROLS);
    if (!control || !root.contains(control) || control.matches(':disabled')) return;
    // A label or field inside a role=button (the drop zone's hidden input) is the control's.
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!held.some((h) => h.kind === 'click' && h.element === control)) {
      held.push({ kind: 'click', element: control, index: controls().indexOf(control) });
    }
    html.style.cursor = 'progress';
  };

  // Enter in a field submits its form without a click on a button.
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (!form || !root.contains(form)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!held.some((h) => h.kind === 'submit' && h.form === form)) {
      const submitter = event.submitter ? controls().indexOf(event.submitter) : -1;
      held.push({ kind: 'submit', form, index: forms().indexOf(form), submitter });
    }
    html.style.cursor = 'progress';
  };

  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  // From now on no tap is lost: the stylesheet stops showing the controls as inactive.
  html.dataset.inputReady = '';
  document.addEventListener(
    HYDRATED_EVENT,
    () => {
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('submit', onSubmit, true);
      html.style.removeProperty('cursor');
      for (const h of held) replay(h);
    },
    { once: true },
  );

  function replay(h: Held): void {
    if (h.kind === 'click') {
      const element = h.element.isConnected ? h.element : controls()[h.index];
      if (element) press(element);
      return;
    }
    const form = h.form.isConnected ? h.form : forms()[h.index];
    const submitter = h.submitter >= 0 ? controls()[h.submitter] : undefined;
    form?.requestSubmit(
      submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement
        ? submitter
        : undefined,
    );
  }
}

/**
 * A whole press, not only its click: some controls act on the press itself (Radix's tabs choose
 * on mousedown), others on the click.
 */
function press(element: HTMLElement): void {
  const init = { bubbles: true, cancelable: true, composed: true, button: 0, view: window };
  const pointer = { ...init, isPrimary: true, pointerType: 'mouse' };
  element.dispatchEvent(new PointerEvent('pointerdown', pointer));
  element.dispatchEvent(new MouseEvent('mousedown', init));
  element.dispatchEvent(new PointerEvent('pointerup', pointer));
  element.dispatchEvent(new MouseEvent('mouseup', init));
  element.click();
}
