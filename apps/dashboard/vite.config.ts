import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const root = __dirname;
/** The api the dev server forwards to (`npm run quickstart` starts it on 4000). */
const api = process.env.TROVE_API_URL ?? `http://127.0.0.1:${process.env.TROVE_API_PORT ?? 4000}`;

export default defineConfig({
  root,
  base: '/',
  plugins: [
    react(),
    // Each asset also written brotli- and gzip-compressed beside itself, at the highest levels
    // (once, at build): the api sends the best one the browser accepts (apps/api/src/web/web-pages.ts).
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|mjs|css|svg|ttf|json|wasm)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
    }),
  ],
  build: {
    outDir: resolve(root, 'dist'),
    emptyOutDir: true,
    // The CSP allows no inline script: keep Vite from inlining its preload helper.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 6000,
    rollupOptions: {
      // GraphiQL's modules carry React-compiler directives that mean nothing to a bundler.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
      input: { dashboard: resolve(root, 'index.html'), playground: resolve(root, 'playground/index.html') },
    },
  },
  worker: { format: 'es' },
  server: {
    port: Number(process.env.TROVE_DASHBOARD_PORT ?? 5173),
    proxy: {
      // /graphql carries the subscriptions (graphql-ws) too.
      '/graphql': { target: api, ws: true },
      ...Object.fromEntries(['/v1', '/webhooks', '/healthz', '/readyz'].map((p) => [p, api])),
    },
  },
});
