// Loads the byte core: the WebAssembly module compiled from packages/engine/wasm/csv-core.ts
// (scripts/build-wasm.js) and shipped inside the engine as base64, so that Node, browsers and
// workers load it alike, with nothing to fetch and no bundler plugin.
//
// Every project that compiles the engine (the engine's own, its tests', the server's, the CLI's)
// needs WebAssembly's types; Node 20's types have none, so this file brings its own.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../webassembly.d.ts" />
import { CSV_CORE_WASM } from './csv-core.wasm.ts';

/** The core's exports: its memory, and the kernel's functions (typed where they are called). */
export interface ByteCoreExports {
  readonly memory: WebAssembly.Memory;
  readonly [name: string]: unknown;
}

export type ByteCoreInstance = WebAssembly.Instance & { readonly exports: ByteCoreExports };

/** The compiled module; null once compiling has failed, so that it is tried only once. */
let compiled: WebAssembly.Module | null | undefined;

/**
 * The byte core's module, compiled on first use and kept for the process or worker; undefined
 * where the runtime has no WebAssembly or cannot compile this module (no SIMD, or compiling
 * forbidden by a content security policy), and the engine then reads bytes in JavaScript.
 */
export function byteCoreModule(): WebAssembly.Module | undefined {
  if (compiled === undefined) {
    compiled = null;
    if (typeof WebAssembly !== 'undefined') {
      try {
        compiled = new WebAssembly.Module(decodeBase64(CSV_CORE_WASM));
      } catch {
        // Stays null: the JavaScript path serves instead.
      }
    }
  }
  return compiled ?? undefined;
}

/**
 * A new instance of the byte core, with a memory of its own: each validation run takes one,
 * as runs may overlap; undefined where byteCoreModule() is.
 */
export function instantiateByteCore(): ByteCoreInstance | undefined {
  const module = byteCoreModule();
  if (module === undefined) return undefined;
  try {
    // The module imports nothing (scripts/build-wasm.js refuses to write one that does).
    return new WebAssembly.Instance(module, {}) as ByteCoreInstance;
  } catch {
    return undefined;
  }
}

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
