// Bytes in, text out, with the exact byte offset of the first invalid UTF-8 sequence. The fast path
// is the platform's fatal TextDecoder; only when it refuses a chunk does our own validator look for
// the offending byte (a silently substituted U+FFFD would hide bad data).
import { findInvalidUtf8, incompleteUtf8Tail } from '../text/utf8.ts';

export interface DecodedTextSink {
  text(piece: string): void;
  /**
   * The byte at `byteOffset` (0-based, from the start of the file) starts an invalid sequence.
   * Return true to resume decoding after the next line feed, false to stop decoding for good.
   */
  invalidUtf8(byteOffset: number, note: string): boolean;
}

export interface Utf8Stream {
  push(chunk: Uint8Array): void;
  end(): void;
  /** Bytes pushed are not yet text: a character cut by a chunk's end, or a line being skipped. */
  readonly pending: boolean;
  /** The next `count` bytes were read elsewhere (well-formed UTF-8, never pending afterwards). */
  skip(count: number): void;
}

const LINE_FEED = 0x0a;

/** `startOffset`: the file offset of the first byte pushed (a range of a file, engine/src/parallel). */
export function createUtf8Stream(sink: DecodedTextSink, startOffset = 0): Utf8Stream {
  // Whole characters only, decoded without stream mode: several times faster in Node, and the
  // bytes of a character cut by a chunk's end are kept here (tail) until the next chunk. ignoreBOM
  // keeps U+FEFF in the text so the reader can warn about it.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** Bytes of a character cut by the end of the last chunk. */
  const tail = new Uint8Array(4);
  let tailLength = 0;
  /** Absolute offset of the next byte to arrive. */
  let received = startOffset;
  let skippingToLineFeed = false;
  let stopped = false;
  /** The file's first byte: 0xFF or 0xFE there is the start of a UTF-16 byte order mark. */
  let firstByte = -1;

  function push(chunk: Uint8Array): void {
    if (stopped || chunk.length === 0) return;
    if (firstByte === -1) firstByte = chunk[0]!;
    let bytes = chunk;
    let offset = received;
    received += chunk.length;
    if (skippingToLineFeed) {
      const lineFeed = bytes.indexOf(LINE_FEED);
      if (lineFeed === -1) return;
      skippingToLineFeed = false;
      bytes = bytes.subarray(lineFeed);
      offset += lineFeed;
    }
    decodeFrom(bytes, offset);
  }

  function decodeFrom(bytes: Uint8Array, offset: number): void {
    let whole = bytes;
    let base = offset;
    if (tailLength > 0) {
      whole = new Uint8Array(tailLength + bytes.length);
      whole.set(tail.subarray(0, tailLength));
      whole.set(bytes, tailLength);
      base -= tailLength;
    }
    const complete = whole.length - incompleteUtf8Tail(whole);
    let text: string;
    try {
      text = decoder.decode(complete === whole.length ? whole : whole.subarray(0, complete));
    } catch {
      recover(whole, base);
      return;
    }
    tailLength = whole.length - complete;
    if (tailLength > 0) tail.set(whole.subarray(complete));
    if (text.length > 0) sink.text(text);
  }

  /** `bytes` (from file offset `base`) hold an invalid sequence: only reached on bad input. */
  function recover(bytes: Uint8Array, base: number): void {
    tailLength = 0;
    let bad = findInvalidUtf8(bytes, 0, bytes.length, false);
    // The platform refused the bytes, so some byte is wrong even if our validator disagrees.
    if (bad === -1) bad = 0;
    const valid = decoder.decode(bytes.subarray(0, bad));
    if (valid.length > 0) sink.text(valid);
    const resume = sink.invalidUtf8(base + bad, base + bad === 0 ? utf16Note(firstByte) : '');
    if (!resume) {
      stopped = true;
      return;
    }
    const lineFeed = bytes.indexOf(LINE_FEED, bad);
    if (lineFeed === -1) {
      skippingToLineFeed = true;
      return;
    }
    decodeFrom(bytes.subarray(lineFeed), base + lineFeed);
  }

  function end(): void {
    if (stopped) return;
    stopped = true;
    if (skippingToLineFeed || tailLength === 0) return;
    // A character cut short by the end of the file.
    const at = received - tailLength;
    sink.invalidUtf8(at, at === 0 ? utf16Note(firstByte) : '');
  }

  return {
    push,
    end,
    get pending() {
      return tailLength > 0 || skippingToLineFeed;
    },
    skip(count) {
      received += count;
    },
  };
}

function utf16Note(firstByte: number): string {
  return firstByte === 0xff || firstByte === 0xfe
    ? '; the file looks like UTF-16, save it as UTF-8'
    : '';
}
