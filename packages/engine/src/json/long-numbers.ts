// JSON.parse for records whose long number literals must survive (64-bit ids are common): each
// such literal is first written as a string marked with a leading U+0000, JSON.parse runs at
// native speed, and the marked strings become numbers again, through numberFromLiteral. A marker
// cannot be forged: U+0000 can only enter a parsed string through the escape \u0000, and a record
// containing that escape is left to the exact parser. So is anything else that does not add up
// (a marked literal where a property name stood, a syntax error).

import { setOwnProperty } from './exact-parser.ts';
import { numberFromLiteral } from './numbers.ts';

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The record's value, or undefined when only the exact parser can say. `spans` holds the start and
 * end offsets of the long literals in `text`, in pairs (found by the ValueScanner).
 */
export function parseKeepingLongNumbers(
  text: string,
  spans: readonly number[],
): { ok: true; value: unknown } | undefined {
  if (text.includes('\\u0000')) return undefined;
  let marked = '';
  let copied = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const start = spans[i]!;
    const end = spans[i + 1]!;
    const literal = text.slice(start, end);
    // A malformed literal must reach JSON.parse as it is, to fail there.
    if (start < copied || !JSON_NUMBER.test(literal)) return undefined;
    marked += `${text.slice(copied, start)}"\\u0000${literal}"`;
    copied = end;
  }
  let value: unknown;
  try {
    value = JSON.parse(marked + text.slice(copied));
  } catch {
    return undefined;
  }
  const expected = spans.length / 2;
  const restored = restoreMarkedNumbers(value, expected);
  return restored.count === expected ? { ok: true, value: restored.value } : undefined;
}

/** Turns the `expected` marked strings back into numbers, without recursion; counts them. */
function restoreMarkedNumbers(root: unknown, expected: number): { value: unknown; count: number } {
  if (typeof root === 'string') {
    return isMarked(root)
      ? { value: numberFromLiteral(root.slice(1)), count: 1 }
      : { value: root, count: 0 };
  }
  let count = 0;
  const pending: unknown[] = [root];
  // Most records hold one long literal (an id, often first): stop as soon as all are back.
  while (pending.length > 0 && count < expected) {
    const item = pending.pop();
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const child: unknown = item[i];
        if (typeof child === 'object' && child !== null) pending.push(child);
        else if (typeof child === 'string' && isMarked(child)) {
          item[i] = numberFromLiteral(child.slice(1));
          count++;
        }
      }
    } else if (typeof item === 'object' && item !== null) {
      const object = item as Record<string, unknown>;
      for (const key in object) {
        if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
        const child = object[key];
        if (typeof child === 'object' && child !== null) pending.push(child);
        else if (typeof child === 'string' && isMarked(child)) {
          setOwnProperty(object, key, numberFromLiteral(child.slice(1)));
          count++;
        }
      }
    }
  }
  return { value: root, count };
}

function isMarked(text: string): boolean {
  return text.charCodeAt(0) === 0;
}
