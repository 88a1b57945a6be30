import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

// The products CSV the CLI and server sections validate, and its schema.

export const PRODUCTS_SCHEMA = {
  name: 'Bench products',
  fileType: 'csv',
  fields: [
    { name: 'sku', type: 'string', required: true, validation: { pattern: '^[A-Z]{3}-\\d{4}$' } },
    { name: 'price', type: 'number', required: true, validation: { minValue: 0, precision: 2 } },
    { name: 'email', type: 'email', required: true, validation: {} },
    { name: 'note', type: 'string', required: false, validation: { maxLength: 200 } },
  ],
};

/** A CSV of about `bytes` bytes; every 1000th row has a bad price. Returns rows and errors. */
export async function writeProductsCsv(
  path: string,
  bytes: number,
): Promise<{ rows: number; errors: number }> {
  const out = createWriteStream(path);
  out.write('sku,price,email,note\n');
  let written = 21;
  let rows = 0;
  let errors = 0;
  const note = 'x'.repeat(60);
  while (written < bytes) {
    const lines: string[] = [];
    for (let i = 0; i < 10_000 && written < bytes; i++) {
      rows++;
      const bad = rows % 1000 === 0;
      if (bad) errors++;
      const line = `ABC-${String(rows % 10_000).padStart(4, '0')},${bad ? '-1' : '19.99'},user${rows}@example.com,${note}\n`;
      written += line.length;
      lines.push(line);
    }
    if (!out.write(lines.join(''))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { rows, errors };
}
