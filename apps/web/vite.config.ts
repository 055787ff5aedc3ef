import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { kenyaOnlyPhoneMetadata } from './build/kenya-phone.ts';
import { precompress } from './build/precompress.ts';

const src = new URL('./src/', import.meta.url).pathname;

/**
 * Some libraries (zod 4) place `@__PURE__` comments where Rollup cannot use them; Rollup drops them
 * and says so for each. Nothing is lost, so the build does not print it to every newcomer.
 */
function isHarmless(warning: { code?: string }): boolean {
  return warning.code === 'INVALID_ANNOTATION';
}

export default defineConfig({
  plugins: [kenyaOnlyPhoneMetadata() as Plugin, react(), precompress() as Plugin],
  resolve: {
    alias: { '@/': src },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest lets the size check (build/route-sizes.ts) follow each route's chunks.
    manifest: true,
    // Every screen is its own chunk (lazy routes); the budget that matters is per route, checked by
    // build/route-sizes.ts, so the generic 500 kB warning is only noise.
    chunkSizeWarningLimit: 1000,
    rollupOptions: {
      // Schemas the browser never uses (zod calls are free of side effects) are left out.
      treeshake: { preset: 'recommended', manualPureFunctions: ['z'] },
      onwarn(warning, warn) {
        if (!isHarmless(warning)) warn(warning);
      },
      output: {
        // A chunk of a few dozen bytes (one helper two screens share) costs a request and a gzip
        // frame of its own: Rollup folds chunks under 200 bytes into one the same screens load. Every
        // budgeted route got smaller with it (build/route-sizes.ts), the admin's dashboard by 0.5 kB.
        experimentalMinChunkSize: 200,
        // The framework changes less often than screens: its chunk stays cached across releases.
        // Everything else follows the routes that import it (the editor only with editing screens).
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
    },
  },
});
