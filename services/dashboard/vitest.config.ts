import { defineConfig } from 'vitest/config';

// vite.config.ts roots the page at web/; the unit tests live beside the code in src/.
export default defineConfig({ test: { root: '.', include: ['src/**/*.test.ts'] } });
