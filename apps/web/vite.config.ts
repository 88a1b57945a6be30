import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// No @vitejs/plugin-react: esbuild compiles JSX with the automatic runtime (no Fast Refresh; a
// full reload on change is fine for this app).
export default defineConfig({
  plugins: [tailwindcss()],
  esbuild: { jsx: 'automatic' },
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  server: {
    // `npx vite` in apps/web talks to a server started on the default port.
    proxy: { '/api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
  // The in-browser validator's worker is an ES module (it imports the engine).
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
