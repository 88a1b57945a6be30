import { createContext, useContext, useEffect } from 'react';
import { useLocation } from 'react-router-dom';

import { fullTitle, headTags, PAGE_META_ATTR, type HeadInput } from '@/components/seo/head-tags';

// Page metadata (docs/decisions/022, 105): title, description, keywords, canonical URL, social
// sharing tags, noindex, and JSON-LD blocks.
// - In the browser, an effect writes them into document.head, replacing every tag the previous
//   page (or the pre-rendered HTML) marked as its own, and removes them when the page unmounts.
// - In the pre-render, the page's metadata goes into a PageMetaSink during the render, and the
//   build writes it into the page's <head>.

export { fullTitle };

export interface PageMeta {
  /** The page's own title; " | SchemaCheck" is appended unless it already names the site. */
  title: string;
  description: string;
  /** Every page names its keywords (SPEC: page metadata). */
  keywords: string[];
  /** Canonical path; defaults to the current path (without query or hash). */
  path?: string;
  ogType?: 'website' | 'article';
  /** Absolute or root-relative image URL for social cards; defaults to the site's card. */
  ogImage?: string;
  noindex?: boolean;
  /** Structured data; each object becomes one application/ld+json block (data, not script). */
  jsonLd?: object[];
}

/** Where the pre-render collects the metadata of the page it renders. */
export interface PageMetaSink {
  meta?: HeadInput;
}

export const PageMetaSinkContext = createContext<PageMetaSink | null>(null);

function applyToHead(meta: HeadInput): () => void {
  for (const old of document.head.querySelectorAll(`[${PAGE_META_ATTR}]`)) old.remove();
  document.title = fullTitle(meta.title);
  const added: Element[] = [];
  for (const { tag, attrs, text } of headTags(meta, window.location.origin)) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
    el.setAttribute(PAGE_META_ATTR, '');
    // JSON-LD: the \u escapes of jsonLdText are still valid JSON as text content.
    if (text !== undefined) el.textContent = text;
    document.head.append(el);
    added.push(el);
  }
  return () => {
    for (const el of added) el.remove();
  };
}

export function usePageMeta(meta: PageMeta): void {
  const { pathname } = useLocation();
  const sink = useContext(PageMetaSinkContext);
  const input: HeadInput = {
    title: meta.title,
    description: meta.description,
    keywords: meta.keywords,
    path: meta.path ?? pathname,
    ogType: meta.ogType,
    ogImage: meta.ogImage,
    noindex: meta.noindex,
    jsonLd: meta.jsonLd,
  };
  // Server render only: there is no effect there, and the sink is read once the render is done.
  if (sink) sink.meta = input;

  const key = JSON.stringify(input);
  useEffect(() => applyToHead(JSON.parse(key) as HeadInput), [key]);
}
