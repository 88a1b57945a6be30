// UTF-8 validation by the WHATWG Encoding Standard's decoder rules, so that the byte ranges found
// here are exactly the ones TextDecoder would replace with U+FFFD (overlong forms, surrogates and
// code points above U+10FFFF are invalid).

/**
 * Length of the well-formed sequence starting at `i`, or minus the length of its maximal invalid
 * prefix (the lead byte plus the continuation bytes that were still acceptable). A sequence cut
 * short by `end` is invalid.
 */
export function utf8SequenceAt(bytes: Uint8Array, i: number, end: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  let need: number;
  let lower = 0x80;
  let upper = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) need = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    if (lead === 0xe0) lower = 0xa0;
    else if (lead === 0xed) upper = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    if (lead === 0xf0) lower = 0x90;
    else if (lead === 0xf4) upper = 0x8f;
  } else return -1;
  for (let k = 1; k <= need; k++) {
    if (i + k >= end) return -k;
    const b = bytes[i + k]!;
    if (b < lower || b > upper) return -k;
    lower = 0x80;
    upper = 0xbf;
  }
  return need + 1;
}

/**
 * Index of the first invalid sequence in [start, end), or -1. A sequence cut short by `end` is
 * invalid only when `final`; otherwise the next bytes may still complete it.
 */
export function findInvalidUtf8(
  bytes: Uint8Array,
  start: number,
  end: number,
  final = true,
): number {
  let i = start;
  while (i < end) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const len = utf8SequenceAt(bytes, i, end);
    if (len > 0) {
      i += len;
      continue;
    }
    // Cut short (a valid lead byte whose acceptable continuation bytes run into `end`).
    if (!final && i - len >= end && lead >= 0xc2 && lead <= 0xf4) return -1;
    return i;
  }
  return -1;
}

/**
 * How many bytes at the end of `bytes` begin a multi-byte character that the next chunk may
 * complete. Carrying them is always safe: a lead byte starts a fresh decoding attempt whatever
 * came before it, so decoding the carried bytes with the next chunk gives the same result as
 * decoding the unsplit input.
 */
export function incompleteUtf8Tail(bytes: Uint8Array): number {
  const len = bytes.length;
  for (let i = len - 1; i >= 0 && i >= len - 3; i--) {
    const b = bytes[i]!;
    if (b >= 0x80 && b <= 0xbf) continue;
    const need =
      b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 1;
    return len - i < need ? len - i : 0;
  }
  return 0;
}

export interface Utf8Sniff {
  /** At least one invalid sequence. */
  invalid: boolean;
  /** At least one well-formed sequence of two or more bytes. */
  multiByte: boolean;
}

/**
 * What a sample says about UTF-8. With `complete` false the sample is a prefix of the file, so a
 * sequence cut by its end is not held against it.
 */
export function sniffUtf8(bytes: Uint8Array, complete: boolean): Utf8Sniff {
  let invalid = false;
  let multiByte = false;
  const end = bytes.length;
  let i = 0;
  while (i < end && !(invalid && multiByte)) {
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    const len = utf8SequenceAt(bytes, i, end);
    if (len > 0) {
      multiByte = true;
      i += len;
    } else if (!complete && i - len >= end) {
      break;
    } else {
      invalid = true;
      i -= len;
    }
  }
  return { invalid, multiByte };
}
