// Just enough XML for SpreadsheetML, on strings with indexOf: the parts a workbook writer emits
// are machine-written and regular, so a full parser (and its per-character callbacks) would only
// cost time. Entities, character references and OOXML's _xHHHH_ escapes are decoded; CDATA and
// DTDs do not occur in workbook parts and are not read.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes &amp; &#10; &#x41; and OOXML's _x000D_ escapes (a character XML cannot carry). */
export function decodeXmlText(text: string): string {
  if (text.indexOf('&') < 0 && text.indexOf('_x') < 0) return text;
  let out = text;
  if (out.indexOf('&') >= 0) {
    out = out.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, body: string) => {
      if (body[0] === '#') {
        const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return NAMED[body] ?? whole;
    });
  }
  if (out.indexOf('_x') >= 0) {
    // _x005F_ escapes the underscore itself, so `_x005F_x000D_` reads as the text `_x000D_`.
    out = out.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
  }
  return out;
}

/**
 * The value of attribute `name` in the start tag `tag` (from `<` to `>`), or undefined. Takes
 * either quote; ignores a namespace prefix only when asked by passing the prefixed name.
 */
export function attribute(tag: string, name: string): string | undefined {
  let at = 0;
  for (;;) {
    at = tag.indexOf(name, at + 1);
    if (at < 0) return undefined;
    const before = tag.charCodeAt(at - 1);
    const eq = at + name.length;
    // Preceded by white space and followed by `=`: not the tail of a longer name.
    if ((before === 32 || before === 9 || before === 10 || before === 13) && tag[eq] === '=') {
      const quote = tag[eq + 1];
      if (quote !== '"' && quote !== "'") return undefined;
      const end = tag.indexOf(quote, eq + 2);
      return end < 0 ? undefined : decodeXmlText(tag.slice(eq + 2, end));
    }
  }
}

/** Every start tag `<name ...>` or `<name .../>` in `xml`, as text from `<` to `>`. */
export function* startTags(xml: string, name: string): Generator<string> {
  const open = `<${name}`;
  for (let at = xml.indexOf(open); at >= 0; at = xml.indexOf(open, at + 1)) {
    const next = xml.charCodeAt(at + open.length);
    // `<sheet ` but not `<sheets>`: the name must end there.
    if (next !== 32 && next !== 62 && next !== 47 && next !== 9 && next !== 10 && next !== 13)
      continue;
    const end = xml.indexOf('>', at);
    if (end < 0) return;
    yield xml.slice(at, end + 1);
  }
}

/**
 * The text of a shared or inline string: the `<t>` elements in order, rich-text runs joined,
 * phonetic guides (`<rPh>`, furigana above Japanese text) left out as Excel leaves them out of
 * the cell's value. `p` is the namespace prefix (`x:` in some writers, usually empty).
 */
export function richText(xml: string, p: string): string {
  const tOpen = `<${p}t`;
  const tClose = `</${p}t>`;
  const phonetic = `<${p}rPh`;
  const phoneticClose = `</${p}rPh>`;
  let out = '';
  let at = 0;
  for (;;) {
    const t = xml.indexOf(tOpen, at);
    if (t < 0) break;
    const ph = xml.indexOf(phonetic, at);
    if (ph >= 0 && ph < t) {
      const end = xml.indexOf(phoneticClose, ph);
      if (end < 0) break;
      at = end + phoneticClose.length;
      continue;
    }
    const next = xml.charCodeAt(t + tOpen.length);
    if (next !== 62 && next !== 32 && next !== 47) {
      at = t + tOpen.length;
      continue;
    }
    const gt = xml.indexOf('>', t);
    if (gt < 0) break;
    if (xml.charCodeAt(gt - 1) === 47) {
      at = gt + 1; // <t/>: empty
      continue;
    }
    const close = xml.indexOf(tClose, gt);
    if (close < 0) break;
    out += xml.slice(gt + 1, close);
    at = close + tClose.length;
  }
  return decodeXmlText(out);
}

/** The namespace prefix the root element uses (`x:` for `<x:worksheet`), usually ''. */
export function rootPrefix(xml: string, local: string): string {
  const m = new RegExp(`<([A-Za-z_][\\w.-]*:)?${local}[\\s>]`).exec(xml);
  return m?.[1] ?? '';
}
