// V8 stores a string one byte per character when every character fits, two bytes otherwise, and
// decides once, for the whole string. One accented name or emoji in a 64 KiB piece made all of the
// piece's text two-byte, and every later step on it (the CSV parser's indexOf and slices, regular
// expressions, charCodeAt, JSON.parse) slower: the engine ran a quarter faster on the same file
// with its few non-ASCII letters replaced. So the readers decode a piece in stretches cut at line
// feeds: runs of plain ASCII lines, which become one-byte strings, and the lines between them.

const LINE_FEED = 0x0a;
const HIGH_BITS = 0x80808080;

/**
 * Calls `emit(start, end)` for consecutive stretches covering bytes[0, length): each either holds
 * no byte above 0x7F or is one line (ending after its line feed, or at the end of the bytes) that
 * does. Every cut but the last is just after a line feed, so no UTF-8 character is ever cut.
 */
export function forEachAsciiStretch(
  bytes: Uint8Array,
  emit: (start: number, end: number) => void,
): void {
  const length = bytes.length;
  // Four bytes at a time where the view is aligned for a Uint32Array.
  const head = Math.min((4 - (bytes.byteOffset & 3)) & 3, length);
  const wordCount = (length - head) >> 2;
  const words =
    wordCount > 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + head, wordCount) : undefined;
  const wordsEnd = head + wordCount * 4;
  let stretch = 0;
  let i = 0;
  while (i < length) {
    if (words !== undefined && i >= head && i < wordsEnd && ((i - head) & 3) === 0) {
      let w = (i - head) >> 2;
      while (w < wordCount && ((words[w] as number) & HIGH_BITS) === 0) w++;
      i = head + w * 4;
      if (i >= length) break;
    }
    if ((bytes[i] as number) < 0x80) {
      i++;
      continue;
    }
    const lineStart = bytes.lastIndexOf(LINE_FEED, i) + 1;
    const lineFeed = bytes.indexOf(LINE_FEED, i);
    const lineEnd = lineFeed < 0 ? length : lineFeed + 1;
    if (lineStart > stretch) emit(stretch, lineStart);
    emit(Math.max(lineStart, stretch), lineEnd);
    stretch = lineEnd;
    i = lineEnd;
  }
  if (stretch < length) emit(stretch, length);
}
