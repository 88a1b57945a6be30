// An absolute http or https URL with a host, as browsers read it (the WHATWG URL parser), written
// the way people write links: the scheme followed by `//` and the host, no spaces, control
// characters or backslashes (the parser would silently drop or rewrite those).
//
// Nearly every real URL is plain ASCII with a DNS name, so one fixed expression accepts those
// without building a URL object; anything unusual (IP literals, user info, percent-encoded or
// non-ASCII hosts, punycode, odd ports) and every invalid value is handed to the parser itself.

/**
 * Certainly valid, decided natively: ASCII DNS labels whose last one has a letter (so it is no IPv4
 * number) and is not hex like `0x1f`; no punycode label (the parser checks its encoding); a port
 * up to 65535; then printable ASCII other than a backslash. Everything else asks the parser.
 * Linear: labels are split by `.`, which no label holds, and the lookaheads scan one label each.
 */
const PLAIN =
  /^[hH][tT][tT][pP][sS]?:\/\/(?:(?![xX][nN]--)[a-zA-Z0-9-]+\.)*(?![xX][nN]--)(?!0[xX][0-9a-fA-F]*(?:[:/?#]|$))(?=[a-zA-Z0-9-]*[a-zA-Z])[a-zA-Z0-9-]+(?::(?:[0-5]?[0-9]{1,4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])?)?(?:[/?#][\x21-\x5b\x5d-\x7e]*)?$/;

export function isValidHttpUrl(s: string): boolean {
  if (PLAIN.test(s)) return true;
  const start = schemeEnd(s);
  return start !== 0 && parserCheck(s, start);
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
  return s.charCodeAt(i) === 58 && s.charCodeAt(i + 1) === 47 && s.charCodeAt(i + 2) === 47
    ? i + 3
    : 0;
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
