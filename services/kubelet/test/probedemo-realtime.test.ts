// The seed lab exactly as written, in real time (no time scale): about a
// minute, so it runs in CI (CI=true) and locally only with
// KUBELAB_SLOW_TESTS=1 (the other suites run the same manifest compressed 10x).

import { requireTool, slowTestsEnabled, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod, podEvents, startCluster, type Cluster } from './harness.js';

describe.runIf(slowTestsEnabled() && requireTool('nats-server'))('probedemo in real time', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster();
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('after ~45 s RESTARTS has risen and the events show Liveness probe failed and Killing', async () => {
    const t0 = Date.now();
    await c.cs.core.pods('default').create(
      pod('probedemo', {
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            args: ['sh', '-c', 'touch /tmp/healthy; sleep 30; rm /tmp/healthy; sleep 600'],
            livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
          },
        ],
      }),
    );
    const p = await waitFor(
      'a probedemo restart',
      async () => {
        const x = await c.cs.core.pods('default').get('probedemo');
        return (x.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? x : undefined;
      },
      { timeoutMs: 90_000, everyMs: 500 },
    );
    const took = (Date.now() - t0) / 1000;
    // File gone at 30 s; three failed probes 5 s apart; then stop (grace period) and restart.
    expect(took).toBeGreaterThan(40);
    expect(p.status?.containerStatuses?.[0]?.lastState?.terminated).toBeDefined();
    const events = await podEvents(c.cs, 'probedemo');
    expect(events.find((e) => e.startsWith('Unhealthy'))).toMatch(/^Unhealthy: Liveness probe failed: /);
    expect(events).toContain('Killing: Container app failed liveness probe, will be restarted');
  }, 120_000);
});
