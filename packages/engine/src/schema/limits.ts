// Caps on what a schema may ask for, so that a schema from anyone cannot make a run slow or huge.
export const MAX_FIELDS = 500;
export const MAX_SCHEMA_NAME_LENGTH = 200;
export const MAX_FIELD_NAME_LENGTH = 500;
export const MAX_VALUES = 10_000;
export const MAX_VALUE_LENGTH = 1_000;
export const MAX_BOOLEAN_SPELLINGS = 100;
export const MAX_ALLOWED_CHARS = 10_000;
export const MAX_PRECISION = 100;
/** Nested JSON Schema objects (dotted field names like a.b.c) deeper than this are refused. */
export const MAX_NESTING = 16;
/**
 * The patterns of one schema together, in compiled RE2 instructions (`^[A-Z]{3}-\d{4}$` is 12,
 * `^.{1,1000}$` about 2,000). Compiling took 3 to 35 µs per instruction on the worst shapes we
 * tried, so checking a schema stays under about 0.7 s whatever its patterns.
 */
export const MAX_SCHEMA_PATTERN_COST = 20_000;
