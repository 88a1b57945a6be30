// Taps that arrive before a pre-rendered page is hydrated (docs/decisions/142). The page is
// painted from its HTML and the app's code loads after that (decision 108), so for a moment
// its buttons look ready but have no handlers: "Copy schema" on /templates, the header's menu,
// tabs, the validators' drop zone and form buttons did nothing when tapped early, and the tap
// was lost. Links, <summary> and native form fields work from the HTML alone and are left alone,
// but what is typed or chosen in a field is remembered and given to the app as input once it runs
// (its form state starts from its defaults and would lose it); a click on a control that needs the
// code is held (the page shows a progress cursor) and
// replayed on the same control once the app says it has hydrated; a submitted form is submitted
// again then. Each control is replayed once, however often it was tapped while waiting. A control
// that opens a file chooser (it names its file input in data-opens-file) is not held: a browser
// opens a chooser only close to a user's gesture, so the chooser is opened in the tap itself and a
// file chosen before hydration is handed to the app as a change of its input (decision 240). Before
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

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** What was typed or chosen in a field before hydration, to be told to the app once it runs. */
interface Typed {
  field: Field;
  index: number;
  value: string;
  checked: boolean;
}

/** A file chosen before hydration, in a chooser opened by a control's `data-opens-file`. */
interface Chosen {
  field: HTMLInputElement;
  index: number;
  files: FileList;
}

/** Starts holding clicks and submits inside `root` until HYDRATED_EVENT, then replays them. */
export function holdEarlyInput(root: HTMLElement): void {
  const held: Held[] = [];
  const html = document.documentElement;
  // Where a control is among its kind, to find it again should hydration have replaced the node.
  const controls = () => [...root.querySelectorAll<HTMLElement>(CONTROLS)];
  const forms = () => [...root.querySelectorAll('form')];
  const fields = () => [...root.querySelectorAll<Field>('input, textarea, select')];
  const typed = new Map<Field, Typed>();
  const fileFields = () => [...root.querySelectorAll<HTMLInputElement>('input[type="file"]')];
  const chosen = new Map<HTMLInputElement, Chosen>();

  // Typing works from the HTML alone, but the app's form state is made at hydration from its
  // defaults and never saw those keys (a form library may even reset the field): the values are
  // remembered here and told to the app as input once it runs.
  const onInput = (event: Event) => {
    const field = event.target;
    if (
      !(
        field instanceof HTMLInputElement ||
        field instanceof HTMLTextAreaElement ||
        field instanceof HTMLSelectElement
      ) ||
      !root.contains(field)
    ) {
      return;
    }
    if (field instanceof HTMLInputElement && field.type === 'file') {
      if (event.type === 'change' && field.files) {
        chosen.set(field, { field, index: fileFields().indexOf(field), files: field.files });
      }
      return;
    }
    const checked = field instanceof HTMLInputElement && field.checked;
    typed.set(field, { field, index: fields().indexOf(field), value: field.value, checked });
  };

  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    const control = target?.closest<HTMLElement>(CONTROLS);
    if (!control || !root.contains(control) || control.matches(':disabled')) return;
    // A label or field inside a role=button (the drop zone's hidden input) is the control's.
    event.preventDefault();
    event.stopImmediatePropagation();
    // A control that opens a file chooser opens it now, inside the tap: a browser shows a chooser
    // only within a few seconds of a user's gesture (Chromium: 5 s), and hydration on a slow phone
    // takes longer, so a replayed click would open nothing. What is chosen is given to the app
    // once it runs (below).
    const opens = control.dataset.opensFile;
    const chooser = opens ? document.getElementById(opens) : null;
    if (chooser instanceof HTMLInputElement && chooser.type === 'file' && root.contains(chooser)) {
      if (!chooser.disabled) chooser.click();
      return;
    }
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
  document.addEventListener('input', onInput, true);
  document.addEventListener('change', onInput, true);
  // From now on no tap is lost: the stylesheet stops showing the controls as inactive.
  html.dataset.inputReady = '';
  document.addEventListener(
    HYDRATED_EVENT,
    () => {
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('submit', onSubmit, true);
      document.removeEventListener('input', onInput, true);
      document.removeEventListener('change', onInput, true);
      html.style.removeProperty('cursor');
      // Values first: a held submit or "Add field" must act on what was typed.
      for (const t of typed.values()) {
        const field = t.field.isConnected ? t.field : fields()[t.index];
        if (field) retype(field, t);
      }
      // A file chosen before hydration: the app's change handler was not there to hear it.
      for (const c of chosen.values()) {
        const field = c.field.isConnected ? c.field : fileFields()[c.index];
        if (!field) continue;
        if (field.files?.length !== c.files.length) field.files = c.files;
        field.dispatchEvent(new Event('change', { bubbles: true, cancelable: false }));
      }
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
 * Gives a field its typed value again as the app's own input. React hears a change only when the
 * value differs from the one it last recorded for the node, which is set through the element's own
 * property (React watches it); the new value then goes in through the prototype's setter, unseen,
 * and the input event reports the difference.
 */
function retype(field: Field, typed: Typed): void {
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    if (field.type === 'radio' && !typed.checked) return;
    field.checked = !typed.checked;
    field.click();
    return;
  }
  const prototype = Object.getPrototypeOf(field) as object;
  const setValue = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (!setValue) return;
  field.value = typed.value === '' ? ' ' : '';
  setValue.call(field, typed.value);
  const init = { bubbles: true, cancelable: false };
  field.dispatchEvent(new Event('input', init));
  field.dispatchEvent(new Event('change', init));
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
