// The loader's own footprint: an empty child under the same `node --import tsx`, so that peak RSS
// figures can be read as "baseline + tool".
import { report } from './common.ts';

report({
  tool: 'empty child (baseline)',
  input: 'csv',
  file: '',
  bytes: 0,
  rows: 0,
  errors: 0,
  errorPairs: null,
  ms: 0,
});
