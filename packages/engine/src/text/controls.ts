// Whether bytes hold a control character that JSON forbids raw inside a string and that the JSON
// fast path does not look for itself: U+0000 to U+001F except tab, line feed and carriage return.
// In UTF-8 such a character is a byte of its own (every byte of a longer sequence is 0x80 or
// above), so the bytes answer for the text decoded from them. A regular expression over each
// decoded piece cost ~7% of the JSON path; this reads four bytes at a time, and a word with no
// byte below 0x20 costs a subtraction and two ands.

/** Bit c set for the control characters c (0 to 31) asked about: all but 9, 10 and 13. */
const OTHER_CONTROLS = 0xffffd9ff;
const BELOW_SPACE = 0x20202020;
const HIGH_BITS = 0x80808080;
/** Below this many bytes a plain loop is cheaper than a word view. */
const WORDS_FROM = 64;

export function hasOtherControls(bytes: Uint8Array): boolean {
  const length = bytes.length;
  if (length < WORDS_FROM) return anyOtherControl(bytes, 0, length);
  // Four bytes at a time where the view is aligned for a Uint32Array.
  const head = (4 - (bytes.byteOffset & 3)) & 3;
  const wordCount = (length - head) >> 2;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + head, wordCount);
  for (let w = 0; w < wordCount; w++) {
    const x = words[w] as number;
    // Non-zero when a byte of x is below 0x20 (a borrow can only come from such a byte).
    if (
      ((x - BELOW_SPACE) & ~x & HIGH_BITS) !== 0 &&
      anyOtherControl(bytes, head + w * 4, head + w * 4 + 4)
    )
      return true;
  }
  return anyOtherControl(bytes, 0, head) || anyOtherControl(bytes, head + wordCount * 4, length);
}

function anyOtherControl(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i] as number;
    if (c < 32 && ((OTHER_CONTROLS >>> c) & 1) !== 0) return true;
  }
  return false;
}
