import { paths } from '@/config/paths';

/** A header link: a route, or (on a long page) a section of the current page. */
export type NavItem = { label: string; to: string } | { label: string; section: string };

export const defaultNavItems: NavItem[] = [
  { label: 'CSV Validator', to: paths.csvValidator },
  { label: 'JSON Validator', to: paths.jsonValidator },
  { label: 'Templates', to: paths.templates },
  { label: 'Pricing', to: paths.buyingGuide },
  { label: 'Help', to: paths.help },
];

/** The landing page's header: its own sections, scrolled to smoothly. */
export const landingNavItems: NavItem[] = [
  { label: 'Features', section: 'features' },
  { label: 'How it works', section: 'how-it-works' },
  { label: 'Examples', section: 'examples' },
  { label: 'Use cases', section: 'use-cases' },
  { label: 'Pricing', section: 'pricing' },
  { label: 'FAQ', section: 'faq' },
];

export const SIDE_MENU_SCROLL_DELAY_MS = 300;

/** Smoothly scrolls to a section of the page, honouring reduced-motion preferences. */
export function scrollToSection(id: string): void {
  const el = document.getElementById(id);
  if (!el) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  el.focus({ preventScroll: true });
}
