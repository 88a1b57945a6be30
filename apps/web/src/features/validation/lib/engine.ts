// The engine's schema parsing, inference and import/export bring its regular-expression library
// (re2js) and readers with them: most of the validator's code, none of which the page needs to
// show or hydrate. They load on first use (decision 108); choosing a file starts the load, since
// Validate needs the schema check next. Validation itself runs in the worker, its own bundle.
import type * as EngineModule from '@schemacheck/engine';

export type Engine = typeof EngineModule;

let loading: Promise<Engine> | undefined;

/** The engine, loaded once; a failed load (offline) is tried again on the next call. */
export function loadEngine(): Promise<Engine> {
  loading ??= import('@schemacheck/engine').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
