import { usePageMeta, type PageMeta as PageMetaProps } from '@/hooks/use-page-meta';

/** Declarative form of usePageMeta for pages that prefer JSX. */
export function PageMeta(props: PageMetaProps) {
  usePageMeta(props);
  return null;
}
