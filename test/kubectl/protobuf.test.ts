// Protobuf responses read by a real client: kubectl 1.32's typed commands
// (create configmap|deployment, scale) send protobuf and accept it back;
// `-v=8` shows the answer's Content-Type, and kubectl prints what it decoded.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { startCluster, type Cluster } from './harness.js';

describe.skipIf(!requireTool('kubectl'))('kubectl 1.32 reads protobuf answers', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('create configmap: asked and answered as protobuf; -o json prints the decoded object', async () => {
    const r = await c.kubectl(['create', 'configmap', 'pbcm', '--from-literal=a=1', '--from-literal=b=two', '-o', 'json', '-v=8']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Accept: application\/vnd\.kubernetes\.protobuf/);
    expect(r.stderr).toMatch(/Response Headers:[\s\S]*Content-Type: application\/vnd\.kubernetes\.protobuf/);
    const cm = JSON.parse(r.stdout) as { kind: string; metadata: { name: string; uid: string; creationTimestamp: string }; data: Record<string, string> };
    expect(cm.kind).toBe('ConfigMap');
    expect(cm.data).toEqual({ a: '1', b: 'two' });
    expect(cm.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(cm.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('create deployment -o json: nested templates, ports and replicas survive the protobuf answer', async () => {
    const r = await c.kubectl(['create', 'deployment', 'pbweb', '--image=nginx:1.27', '--replicas=3', '--port=8080', '-o', 'json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as { spec: { replicas: number; template: { spec: { containers: { image: string; ports: { containerPort: number }[]; terminationMessagePath: string }[] } } } };
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.template.spec.containers[0]).toMatchObject({ image: 'nginx:1.27', ports: [{ containerPort: 8080 }], terminationMessagePath: '/dev/termination-log' });
  });
});
