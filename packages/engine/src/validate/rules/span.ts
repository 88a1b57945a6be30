// A cell is checked where it lies in its line's text, as text[start, end): a clean cell then needs
// no string of its own. These helpers read such spans.

/** text[start, end) as a string of its own, without a copy when it is the whole text. */
export const spanText = (text: string, start: number, end: number): string =>
  start === 0 && end === text.length ? text : text.slice(start, end);

/** Whether text[start, end) is one of `list` (a short one: each is compared in place). */
export function spanIsOneOf(text: string, start: number, end: number, list: readonly string[]) {
  const length = end - start;
  for (let i = 0; i < list.length; i++) {
    const item = list[i] as string;
    if (item.length === length && text.startsWith(item, start)) return true;
  }
  return false;
}
