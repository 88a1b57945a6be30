import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

import { SITE_NAME } from '@/config/site';

// Page metadata (docs/product.md#screens-and-routes, decision 022): title, description, keywords, canonical URL, social
// sharing tags, noindex, and JSON-LD blocks. Tags this hook adds are removed again when the page
// unmounts, so that nothing of one page leaks into the next.

export interface PageMeta {
  /** The page's own title; " | SchemaCheck" is appended unless it already names the site. */
  title: string;
  description: string;
  keywords?: string[];
  /** Canonical path; defaults to the current path (without query or hash). */
  path?: string;
  ogType?: 'website' | 'article';
  /** Absolute or root-relative image URL for social cards. */
  ogImage?: string;
  noindex?: boolean;
  /** Structured data; each object becomes one application/ld+json block (data, not script). */
  jsonLd?: object[];
}

type Attr = 'name' | 'property';

function upsertMeta(attr: Attr, key: string, content: string, added: Element[]): void {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.append(el);
    added.push(el);
  }
  el.setAttribute('content', content);
}

function upsertCanonical(href: string, added: Element[]): void {
  let el = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!el) {
    el = document.createElement('link');
    el.rel = 'canonical';
    document.head.append(el);
    added.push(el);
  }
  el.href = href;
}

export function fullTitle(title: string): string {
  return title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
}

export function usePageMeta(meta: PageMeta): void {
  const { pathname } = useLocation();
  const path = meta.path ?? pathname;
  const keywords = meta.keywords?.join(', ');
  const jsonLd = meta.jsonLd ? JSON.stringify(meta.jsonLd) : undefined;

  useEffect(() => {
    const added: Element[] = [];
    const origin = window.location.origin;
    const canonical = origin + path;
    const title = fullTitle(meta.title);
    const image = meta.ogImage ? new URL(meta.ogImage, origin).href : undefined;

    document.title = title;
    upsertMeta('name', 'description', meta.description, added);
    if (keywords) upsertMeta('name', 'keywords', keywords, added);
    upsertCanonical(canonical, added);
    upsertMeta('property', 'og:title', title, added);
    upsertMeta('property', 'og:description', meta.description, added);
    upsertMeta('property', 'og:url', canonical, added);
    upsertMeta('property', 'og:type', meta.ogType ?? 'website', added);
    upsertMeta('property', 'og:site_name', SITE_NAME, added);
    upsertMeta('name', 'twitter:card', image ? 'summary_large_image' : 'summary', added);
    upsertMeta('name', 'twitter:title', title, added);
    upsertMeta('name', 'twitter:description', meta.description, added);
    if (image) {
      upsertMeta('property', 'og:image', image, added);
      upsertMeta('name', 'twitter:image', image, added);
    }
    if (meta.noindex) upsertMeta('name', 'robots', 'noindex, nofollow', added);
    if (jsonLd) {
      for (const block of JSON.parse(jsonLd) as object[]) {
        const el = document.createElement('script');
        el.type = 'application/ld+json';
        el.textContent = JSON.stringify(block);
        document.head.append(el);
        added.push(el);
      }
    }
    return () => {
      for (const el of added) el.remove();
    };
  }, [
    path,
    meta.title,
    meta.description,
    keywords,
    meta.ogType,
    meta.ogImage,
    meta.noindex,
    jsonLd,
  ]);
}
