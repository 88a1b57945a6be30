// Schema inference: propose a web-form schema from the first rows of a file.
export {
  describeSkipped,
  inferProposal,
  inferSchema,
  MISFITS_LISTED,
  type InferFieldFit,
  type InferFieldMisfits,
  type InferMisfit,
  type InferOptions,
  type InferProposal,
  type InferRuleSuggestion,
  type InferSample,
  type InferSkipped,
} from './infer-schema.ts';
export { inferFromBytes, inferProposalFromBytes } from './from-bytes.ts';
