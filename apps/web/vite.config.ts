import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Rollup } from 'vite';

// Two warnings about dependencies' code, not this app's, are silenced (only these; everything else
// still prints): the "use client" directive (react-router, TanStack Query, Radix) marks a React
// Server Components boundary and means nothing in a client-only bundle, which drops it; and zod 4
// has comments beside @__PURE__ annotations that Rollup cannot place, so it drops the comments.
function quietKnownWarnings(warning: Rollup.RollupLog, warn: Rollup.LoggingFunction): void {
  if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use client"')) return;
  if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/zod/')) return;
  warn(warning);
}

// No @vitejs/plugin-react: esbuild compiles JSX with the automatic runtime (no Fast Refresh; a
// full reload on change is fine for this app).
// `npm run build` runs scripts/build.mjs: this config for the browser, then for the pre-render
// (docs/decisions/105).
export default defineConfig({
  plugins: [tailwindcss()],
  esbuild: { jsx: 'automatic' },
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  // true only in the pre-render's build (scripts/build.mjs): pages write placeholders that the
  // server fills when it serves them (the day: components/seo/build-date.ts, decision 216).
  define: { __PRERENDER__: 'false' },
  // `npm run dev -w @schemacheck/web`: Vite on http://localhost:5173, reloading the page on every
  // change, with the API's requests sent to the server `npm start` runs beside it (README,
  // "Developing the web app"): http://127.0.0.1:$PORT (3000 by default), or API_URL. 127.0.0.1,
  // not localhost: Node may resolve localhost to ::1, where a server on 0.0.0.0 does not listen.
  server: {
    proxy: Object.fromEntries(
      ['/api', '/healthz'].map((prefix) => [
        prefix,
        process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`,
      ]),
    ),
  },
  // The in-browser validator's worker is an ES module (it imports the engine).
  worker: { format: 'es' },
  // The manifest tells the pre-render which chunks each page needs (modulepreload links).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    manifest: true,
    // Sizes are not printed (the build script logs warnings only); gzipping every chunk to count
    // them costs seconds.
    reportCompressedSize: false,
    rollupOptions: {
      onwarn: quietKnownWarnings,
      // The engine's and the contracts' modules only define things (neither has an import for
      // effect alone), so a page that takes a constant or a helper from one gets that module, not
      // the whole package: not the engine's regular expressions and readers, which load with the
      // schema check on first use (decision 108).
      treeshake: { moduleSideEffects: (id) => !/\/packages\/(engine|contracts)\/src\//.test(id) },
    },
  },
});
