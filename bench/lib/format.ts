// Numbers, medians and tables for the terminal and for Markdown.

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const mbPerSecond = (bytes: number, ms: number): number => bytes / 1e6 / (ms / 1000);
export const perSecond = (count: number, ms: number): number => count / (ms / 1000);

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-GB', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export function ratio(a: number, b: number): string {
  return `${fmt(a / b, a / b < 10 ? 2 : 1)}x`;
}

/** Columns in `left` are left-aligned, the rest right-aligned. */
export function textTable(header: string[], rows: string[][], left: number[] = [0]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (left.includes(c) ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function markdownTable(header: string[], rows: string[][], rightFrom = 1): string {
  const sep = header.map((_, c) => (c >= rightFrom ? '---:' : '---'));
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), `|${sep.join('|')}|`, ...rows.map(line)].join('\n');
}
