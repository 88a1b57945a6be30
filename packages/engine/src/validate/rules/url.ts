// An absolute http or https URL with a host, as browsers read it (the WHATWG URL parser), written
// the way people write links: the scheme followed by `//` and the host, no spaces, control
// characters or backslashes (the parser would silently drop or rewrite those).
//
// Nearly every real URL is plain ASCII with a DNS name, so a scan decides those without building a
// URL object; anything unusual (IP literals, user info, percent-encoded or non-ASCII hosts,
// punycode, odd ports) is handed to the parser itself, outside the hot loop.

const HOST = new Uint8Array(128); // 1: letter, 2: digit, 3: hyphen, 4: dot
for (let c = 65; c <= 90; c++) HOST[c] = 1;
for (let c = 97; c <= 122; c++) HOST[c] = 1;
for (let c = 48; c <= 57; c++) HOST[c] = 2;
HOST[45] = 3;
HOST[46] = 4;

const MAX_PORT = 65535;

export function isValidHttpUrl(s: string): boolean {
  const start = schemeEnd(s);
  if (start === 0) return false;
  switch (quickCheck(s, start)) {
    case 1:
      return true;
    case 0:
      return false;
    default:
      return parserCheck(s, start);
  }
}

/** Index after `http://` or `https://` (any case), or 0. */
function schemeEnd(s: string): number {
  if (s.length < 8) return 0;
  const c0 = s.charCodeAt(0) | 0x20;
  const c1 = s.charCodeAt(1) | 0x20;
  const c2 = s.charCodeAt(2) | 0x20;
  const c3 = s.charCodeAt(3) | 0x20;
  if (c0 !== 104 || c1 !== 116 || c2 !== 116 || c3 !== 112) return 0; // http
  let i = 4;
  if ((s.charCodeAt(4) | 0x20) === 115) i = 5; // s
  return s.charCodeAt(i) === 58 && s.charCodeAt(i + 1) === 47 && s.charCodeAt(i + 2) === 47 ? i + 3 : 0;
}

/** 1: certainly valid, 0: certainly not, 2: ask the parser. */
function quickCheck(s: string, start: number): 0 | 1 | 2 {
  const n = s.length;
  let i = start;
  let labelStart = i;
  let labelNumeric = true;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 47 || c === 63 || c === 35 || c === 58) break; // / ? # :
    const kind = c < 128 ? HOST[c] : 0;
    if (kind === 0) return 2;
    if (kind === 4) {
      if (i === labelStart) return 2;
      if (isPunycode(s, labelStart, i)) return 2;
      labelStart = i + 1;
      labelNumeric = true;
    } else if (kind !== 2) {
      labelNumeric = false;
    }
  }
  // An empty host, a trailing dot, or a last label that reads as a number (IPv4) needs the parser.
  if (i === start || i === labelStart || labelNumeric || isPunycode(s, labelStart, i)) return 2;
  if (s.charCodeAt(i) === 58) {
    let port = 0;
    for (i++; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 47 || c === 63 || c === 35) break;
      if (c < 48 || c > 57) return 2;
      port = port * 10 + (c - 48);
      if (port > MAX_PORT) return 0;
    }
  }
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x5c) return 2;
  }
  return 1;
}

function isPunycode(s: string, from: number, to: number): boolean {
  return (
    to - from >= 4 &&
    (s.charCodeAt(from) | 0x20) === 120 && // x
    (s.charCodeAt(from + 1) | 0x20) === 110 && // n
    s.charCodeAt(from + 2) === 45 &&
    s.charCodeAt(from + 3) === 45
  );
}

function parserCheck(s: string, start: number): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x5c) return false;
  }
  if (s.charCodeAt(start) === 47) return false; // `https:///host`: no authority as written
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return false;
  }
  const host = url.hostname;
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    host.length > 0 &&
    host.charCodeAt(0) !== 46 &&
    !host.includes('..')
  );
}
