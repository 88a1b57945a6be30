// Draws the site's social card (public/og-image.png, 1200 × 630) from the SVG below with Debian's
// Chromium. Run once when the design changes and commit the PNG: the build does not need a
// browser. `node apps/web/scripts/og-image.mjs`
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const out = fileURLToPath(new URL('../public/og-image.png', import.meta.url));

const rows = [
  ['4', 'email', 'Must be a valid email'],
  ['9', 'price', 'Must have at most 2 decimal places'],
  ['12', 'sku', 'Is required'],
  ['15', 'created_at', 'Must be a date in the format YYYY-MM-DD'],
];

const rowSvg = rows
  .map(
    ([row, field, message], i) => `
    <g transform="translate(0 ${i * 48})">
      <rect x="0" y="0" width="480" height="40" rx="8" fill="#ffffff" stroke="#e4e4e7"/>
      <text x="18" y="26" font-size="16" fill="#71717a" font-family="ui-monospace, 'DejaVu Sans Mono', monospace">${row}</text>
      <text x="50" y="26" font-size="16" fill="#18181b" font-weight="600" font-family="ui-monospace, 'DejaVu Sans Mono', monospace">${field}</text>
      <text x="178" y="26" font-size="15" fill="#b91c1c">${message}</text>
    </g>`,
  )
  .join('');

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#eef2ff"/>
      <stop offset="1" stop-color="#ffffff"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <rect x="0" y="0" width="1200" height="10" fill="#4f46e5"/>
  <g transform="translate(80 86)">
    <rect width="64" height="64" rx="16" fill="#4f46e5"/>
    <path d="M20 12h16l12 12v28a4 4 0 0 1-4 4H20a4 4 0 0 1-4-4V16a4 4 0 0 1 4-4z" fill="#fff"/>
    <path d="m24 38 6 6 12-12" fill="none" stroke="#4f46e5" stroke-width="4.5" stroke-linecap="round" stroke-linejoin="round"/>
    <text x="84" y="44" font-size="36" font-weight="700" fill="#18181b">SchemaCheck</text>
  </g>
  <text x="80" y="250" font-size="62" font-weight="700" fill="#18181b" letter-spacing="-1">Validate CSV and JSON files</text>
  <text x="80" y="324" font-size="62" font-weight="700" fill="#4f46e5" letter-spacing="-1">against your schema</text>
  <text x="80" y="410" font-size="26" fill="#3f3f46">Every header, type and format error,</text>
  <text x="80" y="448" font-size="26" fill="#3f3f46">by row and column, before you import.</text>
  <g transform="translate(80 514)">
    <rect width="250" height="56" rx="12" fill="#4f46e5"/>
    <text x="125" y="36" font-size="22" font-weight="600" fill="#fff" text-anchor="middle">Try it free</text>
  </g>
  <g transform="translate(680 418)">
    <rect x="-20" y="-52" width="520" height="258" rx="16" fill="#fafafa" stroke="#e4e4e7"/>
    <circle cx="0" cy="-26" r="6" fill="#ef4444"/>
    <text x="16" y="-20" font-size="18" font-weight="600" fill="#18181b">4 errors in 1,200 rows</text>
    ${rowSvg}
  </g>
</svg>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(
    `<!doctype html><style>html,body{margin:0}svg{display:block;font-family:system-ui,'DejaVu Sans',sans-serif}</style>${svg}`,
  );
  await writeFile(out, await page.screenshot({ type: 'png' }));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
