// The spellings a boolean field accepts when its schema lists none: the one source for the schema
// layer, the validator, inference and the web builder.
export const DEFAULT_TRUTHY = ['true', '1', 'yes', 'on'];
export const DEFAULT_FALSY = ['false', '0', 'no', 'off'];
