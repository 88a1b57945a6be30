// Bytes in, text out, with the exact byte offset of the first invalid UTF-8 sequence. The fast path
// is the platform's fatal TextDecoder in stream mode; only when it refuses a chunk does our own
// validator look for the offending byte (a silently substituted U+FFFD would hide bad data).
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
}

const LINE_FEED = 0x0a;

export function createUtf8Stream(sink: DecodedTextSink): Utf8Stream {
  let decoder = newDecoder();
  /** Bytes of an incomplete sequence held by the decoder at the end of the last chunk. */
  const tail = new Uint8Array(4);
  let tailLength = 0;
  /** Absolute offset of the next byte to arrive. */
  let received = 0;
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
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: true });
    } catch {
      recover(bytes, offset);
      return;
    }
    rememberTail(bytes);
    if (text.length > 0) sink.text(text);
  }

  function rememberTail(bytes: Uint8Array): void {
    if (bytes.length >= 3) {
      tailLength = incompleteUtf8Tail(bytes);
      tail.set(bytes.subarray(bytes.length - tailLength));
      return;
    }
    const joined = new Uint8Array(tailLength + bytes.length);
    joined.set(tail.subarray(0, tailLength));
    joined.set(bytes, tailLength);
    tailLength = incompleteUtf8Tail(joined);
    tail.set(joined.subarray(joined.length - tailLength));
  }

  // Only reached on bad input, so copying the chunk here costs nothing on the fast path.
  function recover(bytes: Uint8Array, offset: number): void {
    const joined = new Uint8Array(tailLength + bytes.length);
    joined.set(tail.subarray(0, tailLength));
    joined.set(bytes, tailLength);
    const base = offset - tailLength;
    tailLength = 0;
    let bad = findInvalidUtf8(joined, 0, joined.length, false);
    // The platform refused the chunk, so some byte is wrong even if our validator disagrees.
    if (bad === -1) bad = 0;
    decoder = newDecoder();
    const valid = decoder.decode(joined.subarray(0, bad));
    if (valid.length > 0) sink.text(valid);
    const resume = sink.invalidUtf8(base + bad, base + bad === 0 ? utf16Note(firstByte) : '');
    if (!resume) {
      stopped = true;
      return;
    }
    const lineFeed = joined.indexOf(LINE_FEED, bad);
    if (lineFeed === -1) {
      skippingToLineFeed = true;
      return;
    }
    decodeFrom(joined.subarray(lineFeed), base + lineFeed);
  }

  function end(): void {
    if (stopped) return;
    stopped = true;
    if (skippingToLineFeed) return;
    try {
      const rest = decoder.decode();
      if (rest.length > 0) sink.text(rest);
    } catch {
      const at = received - tailLength;
      sink.invalidUtf8(at, at === 0 ? utf16Note(firstByte) : '');
    }
  }

  return { push, end };
}

function newDecoder() {
  // ignoreBOM keeps U+FEFF in the text so the reader can warn about it.
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
}

function utf16Note(firstByte: number): string {
  return firstByte === 0xff || firstByte === 0xfe
    ? '; the file looks like UTF-16, save it as UTF-8'
    : '';
}
