// The part of the WebAssembly JavaScript API the engine uses, declared the way globals.d.ts
// declares the other web globals. It has a file of its own, which bytecore/load.ts references,
// because every project that compiles the engine needs it: those with Node's types instead of
// globals.d.ts too (Node 20's declare no WebAssembly). Where the DOM library declares WebAssembly
// as well (apps/web), skipLibCheck lets both stand and the DOM's signatures come first.
declare namespace WebAssembly {
  interface ModuleImportDescriptor {
    module: string;
    name: string;
    kind: string;
  }
  interface ModuleExportDescriptor {
    name: string;
    kind: string;
  }
  class Module {
    /** Compiles synchronously; throws a CompileError on bytes this runtime cannot compile. */
    constructor(bytes: Uint8Array);
    static imports(module: Module): ModuleImportDescriptor[];
    static exports(module: Module): ModuleExportDescriptor[];
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    /** Detached and replaced whenever the memory grows: read it again after each grow. */
    readonly buffer: ArrayBuffer;
    /** Grows by `pages` of 64 KiB; returns the previous size in pages, throws when it cannot. */
    grow(pages: number): number;
  }
}
