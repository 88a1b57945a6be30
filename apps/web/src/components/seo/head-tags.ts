import { SITE_NAME } from '@/config/site';

// The head tags of a page, as data: the browser turns them into elements (usePageMeta), the
// pre-render into HTML (entry-server.tsx). One list, so both say the same thing.

/** Marks every head element a page owns; the next page removes them all (docs/decisions/105). */
export const PAGE_META_ATTR = 'data-page-meta';

/** The site's social card, drawn for SchemaCheck (apps/web/scripts/og-image.mjs). */
export const DEFAULT_OG_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: 'SchemaCheck: validate CSV and JSON files against your schema, every error by row and column',
};

export interface HeadTag {
  tag: 'meta' | 'link' | 'script';
  attrs: Record<string, string>;
  /** Text content (JSON-LD only). */
  text?: string;
}

export interface HeadInput {
  title: string;
  description: string;
  keywords?: string[];
  /** Canonical path, e.g. /help. */
  path: string;
  ogType?: 'website' | 'article';
  ogImage?: string;
  noindex?: boolean;
  jsonLd?: object[];
}

export function fullTitle(title: string): string {
  return title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
}

/**
 * JSON for an application/ld+json block: `<`, `>` and `&` escaped so that no string in the data
 * can close the element or open a comment.
 */
export function jsonLdText(block: object): string {
  return JSON.stringify(block)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

export function headTags(meta: HeadInput, origin: string): HeadTag[] {
  const title = fullTitle(meta.title);
  const url = origin + meta.path;
  const image = new URL(meta.ogImage ?? DEFAULT_OG_IMAGE.path, origin).href;
  const tags: HeadTag[] = [];
  const named = (name: string, content: string) =>
    tags.push({ tag: 'meta', attrs: { name, content } });
  const property = (key: string, content: string) =>
    tags.push({ tag: 'meta', attrs: { property: key, content } });

  named('description', meta.description);
  if (meta.keywords?.length) named('keywords', meta.keywords.join(', '));
  if (meta.noindex) named('robots', 'noindex, nofollow');
  // A page that asks not to be indexed names no canonical URL (the 404 page answers any path).
  else tags.push({ tag: 'link', attrs: { rel: 'canonical', href: url } });
  property('og:type', meta.ogType ?? 'website');
  property('og:site_name', SITE_NAME);
  property('og:title', title);
  property('og:description', meta.description);
  property('og:url', url);
  property('og:image', image);
  if (!meta.ogImage) {
    property('og:image:width', String(DEFAULT_OG_IMAGE.width));
    property('og:image:height', String(DEFAULT_OG_IMAGE.height));
    property('og:image:alt', DEFAULT_OG_IMAGE.alt);
  }
  named('twitter:card', 'summary_large_image');
  named('twitter:title', title);
  named('twitter:description', meta.description);
  named('twitter:image', image);
  for (const block of meta.jsonLd ?? []) {
    tags.push({ tag: 'script', attrs: { type: 'application/ld+json' }, text: jsonLdText(block) });
  }
  return tags;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The head of a pre-rendered page: its title and every tag, each marked as the page's own. */
export function headHtml(meta: HeadInput, origin: string): string {
  const lines = [`<title>${escapeHtml(fullTitle(meta.title))}</title>`];
  for (const { tag, attrs, text } of headTags(meta, origin)) {
    const attributes = Object.entries(attrs)
      .map(([key, value]) => ` ${key}="${escapeHtml(value)}"`)
      .join('');
    const open = `<${tag}${attributes} ${PAGE_META_ATTR}>`;
    // JSON-LD text is already escaped for HTML by jsonLdText.
    lines.push(tag === 'script' ? `${open}${text ?? ''}</script>` : open);
  }
  return lines.join('\n    ');
}
