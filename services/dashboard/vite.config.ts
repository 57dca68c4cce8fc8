// The page: web/ (plain TypeScript, no framework), built into dist/web, which the server serves.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web',
  base: './',
  build: { outDir: '../dist/web', emptyOutDir: true, target: 'es2022', sourcemap: true },
});
