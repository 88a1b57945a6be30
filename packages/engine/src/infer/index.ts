// Schema inference: propose a web-form schema from the first rows of a file.
export { inferSchema, type InferOptions, type InferSample } from './infer-schema.ts';
export { inferFromBytes } from './from-bytes.ts';
