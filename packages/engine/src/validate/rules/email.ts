// The WHATWG HTML "valid e-mail address" (what <input type=email> accepts), by a character-table
// scan instead of the spec's regular expression:
//   [a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+ @ label ( . label )*
//   label = [a-zA-Z0-9] ( [a-zA-Z0-9-]{0,61} [a-zA-Z0-9] )?
// A dotless domain (`user@localhost`) is valid, as the standard says.

const LOCAL = new Uint8Array(128);
const LABEL = new Uint8Array(128); // 1: letter or digit, 2: hyphen
for (let c = 48; c <= 57; c++) LABEL[c] = 1;
for (let c = 65; c <= 90; c++) LABEL[c] = 1;
for (let c = 97; c <= 122; c++) LABEL[c] = 1;
LABEL[45] = 2;
for (let c = 0; c < 128; c++) if (LABEL[c] === 1) LOCAL[c] = 1;
for (const ch of ".!#$%&'*+/=?^_`{|}~-") LOCAL[ch.charCodeAt(0)] = 1;

const MAX_LABEL = 63;

export function isValidEmail(s: string): boolean {
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c >= 128 || LOCAL[c] !== 1) break;
    i++;
  }
  if (i === 0 || i === n || s.charCodeAt(i) !== 64 /* @ */) return false;
  i++;
  for (;;) {
    const start = i;
    let last = 0;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c >= 128) return false;
      const kind = LABEL[c] as number;
      if (kind === 0) break;
      last = kind;
      i++;
    }
    const len = i - start;
    if (len === 0 || len > MAX_LABEL || LABEL[s.charCodeAt(start)] !== 1 || last !== 1) return false;
    if (i === n) return true;
    if (s.charCodeAt(i) !== 46 /* . */) return false;
    i++;
  }
}
