import { findInvalidUtf8, incompleteUtf8Tail, utf8SequenceAt } from './utf8.ts';
import { createWindows1252Decoder } from './windows-1252.ts';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Display names, as a user would find them in a spreadsheet's "save as" dialog. */
export const ENCODING_LABELS: Record<TextEncodingName, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
  'windows-1252': 'Windows-1252',
};

/**
 * Told about every invalid sequence: `index` is where its U+FFFD sits in the text returned by the
 * same decode() call, `byteOffset` where it starts in the file, `bytes` the offending bytes in hex.
 */
export type DecodeErrorHandler = (index: number, byteOffset: number, bytes: string) => void;

export interface StreamDecoder {
  /**
   * Decodes the next chunk. Bytes of a character cut by the chunk's end are kept for the next
   * call, so the concatenated output never depends on where chunks were split. With `final`,
   * a character left incomplete is an error.
   */
  decode(bytes: Uint8Array, final: boolean): string;
  /**
   * Counts `n` bytes as read elsewhere (the CSV byte core took their records), so that later
   * errors name their file offsets. Only between whole characters.
   */
  skip(n: number): void;
}

/** `byteOffset` is the file offset of the first byte passed in (after a byte order mark). */
export function createStreamDecoder(
  encoding: TextEncodingName,
  byteOffset: number,
  onError: DecodeErrorHandler,
): StreamDecoder {
  if (encoding === 'windows-1252') {
    // Every byte is a character: nothing to carry, nothing invalid.
    const decode = createWindows1252Decoder();
    return { decode: (bytes) => decode(bytes), skip: () => {} };
  }
  return encoding === 'utf-8'
    ? utf8Decoder(byteOffset, onError)
    : utf16Decoder(encoding, byteOffset, onError);
}

function hex(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++)
    out += (out ? ' ' : '') + bytes[i]!.toString(16).toUpperCase().padStart(2, '0');
  return out;
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const NO_BYTES = new Uint8Array(0);

/**
 * What both Unicode decoders share: the bytes of a character cut by a chunk's end wait for the next
 * call; whole characters decode with the fatal decoder, and only text holding an invalid sequence
 * is decoded again by `lenient`, which reports each one (`offset`: the file offset of bytes[0]).
 */
function carryingDecoder(
  fatal: InstanceType<typeof TextDecoder>,
  byteOffset: number,
  wholeEnd: (bytes: Uint8Array, final: boolean) => number,
  lenient: (bytes: Uint8Array, end: number, offset: number) => string,
): StreamDecoder {
  let carry = NO_BYTES;
  let offset = byteOffset;
  return {
    decode(chunk, final) {
      const bytes = carry.length > 0 ? join(carry, chunk) : chunk;
      const end = wholeEnd(bytes, final);
      let text: string;
      try {
        text = fatal.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
      } catch {
        text = lenient(bytes, end, offset);
      }
      carry = end < bytes.length ? new Uint8Array(bytes.subarray(end)) : NO_BYTES;
      offset += end;
      return text;
    },
    skip(n) {
      offset += n;
    },
  };
}

function utf8Decoder(byteOffset: number, onError: DecodeErrorHandler): StreamDecoder {
  // Non-streaming fatal decoding of whole characters: in Node it validates and decodes at several
  // GB/s, about six times faster than the streaming mode. A BOM is handled by the caller, so one
  // here (at any chunk start) is a character like any other.
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  function decodeLeniently(bytes: Uint8Array, end: number, offset: number): string {
    let out = '';
    let i = 0;
    while (i < end) {
      const bad = findInvalidUtf8(bytes, i, end);
      if (bad < 0) {
        out += fatal.decode(bytes.subarray(i, end));
        break;
      }
      if (bad > i) out += fatal.decode(bytes.subarray(i, bad));
      const length = -utf8SequenceAt(bytes, bad, end);
      onError(out.length, offset + bad, hex(bytes, bad, bad + length));
      out += '\uFFFD';
      i = bad + length;
    }
    return out;
  }

  return carryingDecoder(
    fatal,
    byteOffset,
    (bytes, final) => (final ? bytes.length : bytes.length - incompleteUtf8Tail(bytes)),
    decodeLeniently,
  );
}

function utf16Decoder(
  encoding: 'utf-16le' | 'utf-16be',
  byteOffset: number,
  onError: DecodeErrorHandler,
): StreamDecoder {
  const fatal = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  const hi = encoding === 'utf-16le' ? 1 : 0;

  const unitAt = (bytes: Uint8Array, i: number): number =>
    (bytes[i + hi]! << 8) | bytes[i + 1 - hi]!;

  function decodeLeniently(bytes: Uint8Array, end: number, offset: number): string {
    let out = '';
    let run = 0;
    let i = 0;
    while (i < end) {
      const unit = i + 1 < end ? unitAt(bytes, i) : -1;
      let length = 2;
      if (unit >= 0xd800 && unit <= 0xdbff && i + 3 < end) {
        const next = unitAt(bytes, i + 2);
        if (next >= 0xdc00 && next <= 0xdfff) {
          i += 4;
          continue;
        }
      } else if (unit >= 0 && (unit < 0xd800 || unit > 0xdfff)) {
        i += 2;
        continue;
      }
      // At the end, a high surrogate and an odd byte after it are one error, as in the standard.
      if (unit < 0 || (unit >= 0xd800 && unit <= 0xdbff && i + 3 === end)) length = end - i;
      if (i > run) out += fatal.decode(bytes.subarray(run, i));
      onError(out.length, offset + i, hex(bytes, i, i + length));
      out += '\uFFFD';
      i += length;
      run = i;
    }
    if (end > run) out += fatal.decode(bytes.subarray(run, end));
    return out;
  }

  function wholeEnd(bytes: Uint8Array, final: boolean): number {
    let end = bytes.length;
    if (final) return end;
    end -= end & 1;
    // A high surrogate at the end may be completed by the next chunk.
    if (end >= 2) {
      const last = unitAt(bytes, end - 2);
      if (last >= 0xd800 && last <= 0xdbff) end -= 2;
    }
    return end;
  }

  return carryingDecoder(fatal, byteOffset, wholeEnd, decodeLeniently);
}
