// Aggregated discovery as kubectl asks for it: 1.27 the v2beta1
// APIGroupDiscoveryList, 1.32 v2; `-v=8` shows the aggregated Content-Type
// answered, and `kubectl api-resources` prints what the legacy documents
// would have given.

import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrerequisite, requireTool } from '@kubelab/testing';
import { KUBECTL, sdkKubectl, squash, startCluster, type Cluster } from './harness.js';

const CLIENTS: [name: string, bin: string, version: 'v2' | 'v2beta1'][] = [
  ['1.27', sdkKubectl(27), 'v2beta1'],
  ['1.32', KUBECTL, 'v2'],
];

describe.skipIf(!requireTool('kubectl'))('aggregated discovery', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  for (const [name, bin, version] of CLIENTS) {
    it.skipIf(!requirePrerequisite(`kubectl ${name} (${bin})`, existsSync(bin)))(`kubectl ${name}: /api and /apis answered as apidiscovery.k8s.io/${version}`, async () => {
      const r = await c.kubectl(['api-resources', '-v=8'], { bin });
      expect(r.code).toBe(0);
      const type = `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
      // One aggregated request per prefix; no per-group-version documents are fetched.
      expect(r.stderr).toMatch(new RegExp(`GET https://127\\.0\\.0\\.1:\\d+/api\\?timeout=32s`));
      expect(r.stderr).toContain(`Content-Type: ${type}`);
      expect(r.stderr).not.toMatch(/GET https:\/\/127\.0\.0\.1:\d+\/apis\/apps\/v1\?/);
      const lines = squash(r.stdout);
      expect(lines[0]).toBe('NAME SHORTNAMES APIVERSION NAMESPACED KIND');
      expect(lines).toContain('pods po v1 true Pod');
      expect(lines).toContain('nodes no v1 false Node');
      expect(lines).toContain('deployments deploy apps/v1 true Deployment');
      expect(lines).toContain('leases coordination.k8s.io/v1 true Lease');
    });
  }

  it('get --raw /apis (no aggregated Accept) is still the legacy APIGroupList', async () => {
    const r = await c.kubectl(['get', '--raw', '/apis']);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'APIGroupList' });
  });

  it('kubectl api-resources --categories all (read from the aggregated document)', async () => {
    const r = await c.kubectl(['api-resources', '--categories', 'all', '-o', 'name']);
    expect(r.stdout.trim().split('\n').sort()).toEqual(expect.arrayContaining(['deployments.apps', 'pods', 'services']));
  });
});
