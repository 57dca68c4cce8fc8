// The kubelet's housekeeping on disk: container logs rotated over containerLogMaxSize with
// the runtime reopening them (CRI ReopenContainerLog), and a deleted pod's log and volume
// directories removed.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, pod, startCluster, type Cluster } from './harness.js';

describe.skipIf(!requireTool('nats-server'))('kubelet housekeeping on disk', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster({ kubelet: { containerLogMaxSize: '1Ki', containerLogMaxFiles: 3 } });
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('rotates a log over the limit, the runtime writes on into a new file, and a deleted pod leaves no directories', { timeout: 60_000 }, async () => {
    const created = await c.cs.core.pods('default').create(
      pod('noisy', {
        // sh as PID 1 ignores SIGTERM: the kill waits out the grace period.
        terminationGracePeriodSeconds: 1,
        volumes: [{ name: 'scratch', emptyDir: {} }],
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'for i in $(seq 1 100); do echo "line $i of the first burst, long enough to fill a kilobyte"; done; while true; do echo tick; sleep 1; done'],
            volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
          },
        ],
      }),
    );
    const uid = created.metadata.uid!;
    const logDir = join(c.dir, 'pods', `default_noisy_${uid}`);
    const volumeDir = join(c.dir, 'kubelet', 'pods', uid);
    const containerLogs = join(logDir, 'app');
    await waitFor('the first burst in 0.log', () => existsSync(join(containerLogs, '0.log')) && readFileSync(join(containerLogs, '0.log'), 'utf8').includes('line 100 '), POLL);
    expect(existsSync(volumeDir)).toBe(true);

    await c.kubelet.kubelet.containerLogs.rotateLogs();
    const rotated = readdirSync(containerLogs).filter((n) => n !== '0.log');
    expect(rotated).toEqual([expect.stringMatching(/^0\.log\.\d{8}-\d{6}$/)]);
    expect(readFileSync(join(containerLogs, rotated[0]!), 'utf8')).toContain('stdout F line 100 of the first burst');
    // Reopened: the next tick lands in a new 0.log, not in the renamed file.
    await waitFor('a tick in the new 0.log', () => /stdout F tick\n/.test(readFileSync(join(containerLogs, '0.log'), 'utf8')), POLL);
    expect(readFileSync(join(containerLogs, '0.log'), 'utf8')).not.toContain('line 1 ');

    await c.cs.core.pods('default').delete('noisy');
    const slow = { ...POLL, timeoutMs: 20_000 };
    await waitFor('noisy gone from the API', async () => (await c.cs.core.pods('default').list()).items.every((p) => p.metadata.name !== 'noisy'), slow);
    await waitFor('the volume directory removed', () => !existsSync(volumeDir), slow);
    await waitFor(
      'the log directory removed by container GC',
      async () => {
        await c.kubelet.kubelet.containerGC();
        return !existsSync(logDir);
      },
      slow,
    );
  });
});
