/**
 * The dashboard build: `vite build --config web/vite.config.ts` writes
 * var/web (index.html and hashed assets/), which services/api/routes/dashboard.ts
 * serves. Preact's automatic JSX runtime through Vite's own transform (Oxc).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../var/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Chart.js is most of the bundle; one chunk per page would not pay for itself here.
    chunkSizeWarningLimit: 600,
  },
  // `vite --config web/vite.config.ts`: the app with live reload, the API from `npm start`.
  server: { host: '127.0.0.1', proxy: { '/api': 'http://127.0.0.1:3000' } },
});
