// The schema builder's import (its split is under way elsewhere); every other file imports
// '@/lib/format' itself. Remove once schema-builder.tsx does.
export { plural } from '@/lib/format';
