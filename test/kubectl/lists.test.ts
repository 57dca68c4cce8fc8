// kubectl 1.32 against kubelab's lists: chunked gets (`--chunk-size`) follow
// the continue tokens to one table, and an unsupported field selector is the
// server's 400 in upstream's words.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import type { KubeObject } from '@kubelab/api';
import { squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const configMap = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'chunks' } }) as KubeObject;

describe.skipIf(!run)('kubectl 1.32: chunked lists and field selectors', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
    await c.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'chunks' } } as KubeObject);
    await c.seed(...['c0', 'c1', 'c2', 'c3', 'c4'].map(configMap));
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('get --chunk-size pages with limit and continue, printing one table', async () => {
    const r = await c.kubectl(['get', 'configmaps', '-n', 'chunks', '--chunk-size=2', '-v=6']);
    expect(r.code).toBe(0);
    const lines = squash(r.stdout).map((l) => l.split(' ').slice(0, 2).join(' '));
    expect(lines).toEqual(['NAME DATA', 'c0 0', 'c1 0', 'c2 0', 'c3 0', 'c4 0']);
    const gets = r.stderr.split('\n').filter((l) => l.includes('/api/v1/namespaces/chunks/configmaps?'));
    expect(gets).toHaveLength(3);
    expect(gets[0]).toMatch(/GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/chunks\/configmaps\?limit=2 200 OK/);
    expect(gets[1]).toMatch(/configmaps\?continue=[\w%-]+&limit=2 200 OK/);
    expect(gets[2]).toMatch(/configmaps\?continue=[\w%-]+&limit=2 200 OK/);
  });

  it('get --field-selector with a label the kind does not support is a 400', async () => {
    const r = await c.kubectl(['get', 'pods', '--field-selector', 'spec.foo=bar']);
    expect(r.code).toBe(1);
    // kubectl's resource builder wraps the server's message (as against any cluster).
    expect(r.stderr.trim()).toBe(
      'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", field selector "spec.foo=bar": field label not supported: spec.foo',
    );
    const cm = await c.kubectl(['get', 'configmaps', '-A', '--field-selector', 'data.x=y']);
    expect(cm.stderr.trim()).toBe(
      'Error from server (BadRequest): Unable to find "/v1, Resource=configmaps" that match label selector "", field selector "data.x=y": "data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});
