// kubectl 1.27 and 1.28 read /openapi/v2 (protobuf) for apply's patch
// metadata, explain and diff; newer clients use /openapi/v3. Each version runs
// directly (not through the dispatcher) against the secured apiserver.

import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrerequisite, requireTool } from '@kubelab/testing';
import { sdkKubectl, startCluster, type Cluster } from './harness.js';

type Obj = Record<string, any>;

const deployment = (name: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 2
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: web
        image: ${image}
        ports:
        - containerPort: 80
`;

for (const minor of [27, 28]) {
  const bin = sdkKubectl(minor);
  const run = requireTool('kubectl') && requirePrerequisite(`kubectl 1.${minor} (${bin})`, existsSync(bin));

  describe.skipIf(!run)(`kubectl 1.${minor}: apply, explain and diff through /openapi/v2`, { timeout: 60_000 }, () => {
    let c: Cluster;
    const k = (args: string[], stdin?: string) => c.kubectl(args, stdin === undefined ? { bin } : { bin, stdin });

    beforeAll(async () => {
      c = await startCluster();
    }, 60_000);

    afterAll(async () => {
      await c?.stop();
    });

    it('apply -f: created, unchanged, configured', async () => {
      const created = await k(['apply', '-f', '-'], deployment('web', 'nginx:1.25'));
      expect(created.stderr).toBe('');
      expect(created.stdout).toBe('deployment.apps/web created\n');
      expect((await k(['apply', '-f', '-'], deployment('web', 'nginx:1.25'))).stdout).toBe('deployment.apps/web unchanged\n');
      expect((await k(['apply', '-f', '-'], deployment('web', 'nginx:1.26'))).stdout).toBe('deployment.apps/web configured\n');
      const stored = (await c.get('deployments', 'default', 'web', 'apps')) as Obj;
      expect(stored.spec.template.spec.containers).toEqual([expect.objectContaining({ name: 'web', image: 'nginx:1.26' })]);
    });

    it('apply -f with an unknown field: refused by the server (strict field validation), not by a client-side schema check', async () => {
      const bad = await k(['apply', '-f', '-'], deployment('bad', 'nginx').replace('  replicas: 2', '  replicass: 2'));
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim()).toBe(
        'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass"',
      );
    });

    it('explain pod.spec.containers: the v2 layout (KIND, VERSION, RESOURCE, DESCRIPTION, FIELDS) and the default one', async () => {
      const v2 = await k(['explain', 'pod.spec.containers', '--output=plaintext-openapiv2']);
      expect(v2.stderr).toBe('');
      const lines = v2.stdout.split('\n');
      expect(lines.slice(0, 6)).toEqual(['KIND:     Pod', 'VERSION:  v1', '', 'RESOURCE: containers <[]Object>', '', 'DESCRIPTION:']);
      expect(lines).toContain('FIELDS:');
      // A field with its type and -required- marker, and its description from the referenced definition.
      expect(lines).toContain('   name\t<string> -required-');
      expect(lines).toContain('   ports\t<[]Object>');
      expect(v2.stdout).toContain('A single application container that runs in a pod.');
      // The default output reads /openapi/v3 after the client fetched /openapi/v2.
      const v3 = await k(['explain', 'pod.spec.containers']);
      expect(v3.stderr).toBe('');
      expect(v3.stdout.split('\n').slice(0, 4)).toEqual(['KIND:       Pod', 'VERSION:    v1', '', 'FIELD: containers <[]Container>']);
    });

    it('any authenticated user reads it (system:discovery), as JSON for get --raw', async () => {
      const r = await k(['get', '--raw', '/openapi/v2', '--as', 'jane']);
      expect(r.stderr).toBe('');
      const doc = JSON.parse(r.stdout) as { swagger: string; definitions: Record<string, { 'x-kubernetes-group-version-kind'?: unknown }> };
      expect(doc.swagger).toBe('2.0');
      expect(doc.definitions['io.k8s.api.apps.v1.Deployment']!['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    });

    it('diff -f: exit 1 and a unified diff after a change, exit 0 without', async () => {
      expect((await k(['apply', '-f', '-'], deployment('diffed', 'nginx:1.25'))).stdout).toBe('deployment.apps/diffed created\n');
      const same = await k(['diff', '-f', '-'], deployment('diffed', 'nginx:1.25'));
      expect(same.stderr).toBe('');
      expect(same).toMatchObject({ code: 0, stdout: '' });
      const changed = await k(['diff', '-f', '-'], deployment('diffed', 'nginx:1.27'));
      expect(changed.stderr).toBe('');
      expect(changed.code).toBe(1);
      const changes = changed.stdout.split('\n').filter((l) => /^[-+] /.test(l));
      expect(changes).toEqual(['-  generation: 1', '+  generation: 2', '-      - image: nginx:1.25', '+      - image: nginx:1.27']);
      // Nothing was changed: diff asks for a dry run.
      expect(((await c.get('deployments', 'default', 'diffed', 'apps')) as Obj).spec.template.spec.containers[0].image).toBe('nginx:1.25');
    });
  });
}
