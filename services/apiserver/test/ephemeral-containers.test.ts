// pods/ephemeralcontainers over REST (upstream EphemeralContainersREST):
// GET answers the Pod, a strategic merge patch adds a debugger (what kubectl
// debug sends), updates may change nothing but spec.ephemeralContainers, and
// refusals are 422 Invalid in upstream's words.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import type { Pod, Status } from '@kubelab/api';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

const PODS = '/api/v1/namespaces/default/pods';
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };

describe.runIf(requireTool('nats-server'))('pods/ephemeralcontainers', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startTestCluster({ rest: true });
    const created = await c.rest(PODS, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'web' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } }),
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  it('is listed in discovery as upstream lists it', async () => {
    const list = JSON.parse((await c.rest('/api/v1')).body) as { resources: { name: string; kind: string; verbs: string[] }[] };
    expect(list.resources.find((r) => r.name === 'pods/ephemeralcontainers')).toEqual({
      name: 'pods/ephemeralcontainers',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get', 'patch', 'update'],
    });
  });

  it('adds a debugger with a strategic merge patch, defaulted; other changes in the patch are dropped', async () => {
    const r = await c.rest(`${PODS}/web/ephemeralcontainers`, {
      method: 'PATCH',
      headers: SMP,
      body: JSON.stringify({
        metadata: { labels: { sneaky: 'yes' } },
        spec: { containers: [{ name: 'web', image: 'evil' }], ephemeralContainers: [{ name: 'debugger-1', image: 'busybox', stdin: true, tty: true, targetContainerName: 'web' }] },
      }),
    });
    expect(r.status).toBe(200);
    const pod = JSON.parse(r.body) as Pod;
    expect(pod.spec?.ephemeralContainers).toEqual([
      {
        name: 'debugger-1',
        image: 'busybox',
        stdin: true,
        tty: true,
        targetContainerName: 'web',
        imagePullPolicy: 'Always',
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ]);
    expect([pod.metadata.labels, pod.spec?.containers[0]?.image]).toEqual([undefined, 'nginx']);
    const got = JSON.parse((await c.rest(`${PODS}/web/ephemeralcontainers`)).body) as Pod;
    expect([got.kind, got.spec?.ephemeralContainers?.map((e) => e.name)]).toEqual(['Pod', ['debugger-1']]);
  });

  it('refuses to remove or change one, and forbidden fields, with 422', async () => {
    const pod = JSON.parse((await c.rest(`${PODS}/web`)).body) as Pod;
    const removed = await c.rest(`${PODS}/web/ephemeralcontainers`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...pod, spec: { ...pod.spec, ephemeralContainers: [] } }),
    });
    const s = JSON.parse(removed.body) as Status;
    expect([removed.status, s.reason, s.message]).toEqual([
      422,
      'Invalid',
      'Pod "web" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger-1" may not be removed\n',
    ]);
    const ports = await c.rest(`${PODS}/web/ephemeralcontainers`, {
      method: 'PATCH',
      headers: SMP,
      body: JSON.stringify({ spec: { ephemeralContainers: [{ name: 'debugger-2', image: 'busybox', ports: [{ containerPort: 80 }] }] } }),
    });
    expect([ports.status, (JSON.parse(ports.body) as Status).message]).toEqual([422, 'Pod "web" is invalid: spec.ephemeralContainers[1].ports: Forbidden: cannot be set for an Ephemeral Container']);
  });

  it('a plain pod update cannot add one', async () => {
    const r = await c.rest(`${PODS}/web`, { method: 'PATCH', headers: SMP, body: JSON.stringify({ spec: { ephemeralContainers: [{ name: 'sneak', image: 'busybox' }] } }) });
    expect(r.status).toBe(422);
    expect((JSON.parse(r.body) as Status).message).toMatch(/^Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than/);
  });
});
