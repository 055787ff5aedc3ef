import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

const root = new URL('.', import.meta.url).pathname;

export default defineProject({
  plugins: [react()],
  root,
  resolve: {
    alias: { '@/': `${root}src/` },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/testing/setup-tests.ts'],
    // The suite shares two cores with the API tests: generous limits keep slow renders from
    // failing as timeouts (waitFor still polls, so passing tests stay fast).
    testTimeout: 30_000,
  },
});
