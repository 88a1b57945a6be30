// The templates route still imports the button from here; it lives in components/ui now.
export { CopyButton } from '@/components/ui/copy-button';
