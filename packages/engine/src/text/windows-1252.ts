// Windows-1252 gives printable characters to most of 0x80-0x9F, where ISO-8859-1 has C1 controls.
// Node 20's TextDecoder('windows-1252') decodes those bytes as ISO-8859-1 (0x80 becomes U+0080,
// not €), while browsers follow the Encoding Standard; mapping the C1 range afterwards gives the
// standard's result on both, because the five bytes the standard leaves as C1 map to themselves.

const C1_TO_CP1252 =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

const C1 = /[\u0080-\u009f]/g;

function toCp1252(c: string): string {
  return C1_TO_CP1252[c.charCodeAt(0) - 0x80]!;
}

export function createWindows1252Decoder(): (bytes: Uint8Array) => string {
  const decoder = new TextDecoder('windows-1252');
  return (bytes) => decoder.decode(bytes).replace(C1, toCp1252);
}
