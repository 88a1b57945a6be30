import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * The contracts package only declares schemas and constants, but the bundler cannot know that
 * building zod schemas has no side effects. Saying so lets the always-loaded chunk take PLANS and
 * types from it without zod, which then loads with the form pages that use it.
 */
function pureContracts(): Plugin {
  return {
    name: 'schemacheck:pure-contracts',
    transform(code, id) {
      if (!id.includes('/packages/contracts/src/')) return null;
      return { code, map: null, moduleSideEffects: false };
    },
  };
}

// No @vitejs/plugin-react: esbuild compiles JSX with the automatic runtime (no Fast Refresh; a
// full reload on change is fine for this app).
export default defineConfig({
  plugins: [tailwindcss(), pureContracts()],
  esbuild: { jsx: 'automatic' },
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  server: {
    // `npx vite` in apps/web talks to a server started on the default port.
    proxy: { '/api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
