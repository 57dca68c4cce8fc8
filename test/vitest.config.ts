// Three suites in this package. `kubectl` (the real kubectl against an
// in-process apiserver, seconds) and `integration` (the local runner with the
// real binaries, the client library and `kubelab trace` against real servers)
// run in `pnpm test` with the other packages; `e2e` (the compose stack on a real
// Docker engine, minutes) runs last, on its own (`test:e2e`).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'kubectl',
          include: ['kubectl/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['integration/**/*.test.ts'],
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // One compose stack, scenarios in order; minutes, not seconds.
          testTimeout: 5 * 60_000,
          hookTimeout: 20 * 60_000,
          fileParallelism: false,
          env: { TESTCONTAINERS_RYUK_DISABLED: 'true' },
        },
      },
    ],
  },
});
