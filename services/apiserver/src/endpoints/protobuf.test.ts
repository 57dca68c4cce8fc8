import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StatusError } from '@kubelab/api';
import { decodeProtobuf } from './protobuf.js';

// Bodies recorded from the real kubectl 1.32.4 (`kubectl create ...`), base64.
const fixture = (name: string) => new Uint8Array(Buffer.from(readFileSync(new URL(`./testdata/kubectl-1.32-create-${name}.b64`, import.meta.url), 'utf8'), 'base64'));

describe('decodeProtobuf (bodies kubectl 1.32 sends)', () => {
  it('create deployment pbweb --image=nginx:1.27 --replicas=3 --port=8080 -- sleep 100', () => {
    expect(decodeProtobuf(fixture('deployments'))).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'pbweb', labels: { app: 'pbweb' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'pbweb' } },
        template: {
          metadata: { labels: { app: 'pbweb' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', command: ['sleep', '100'], ports: [{ containerPort: 8080 }], resources: {} }] },
        },
      },
    });
  });

  it('create configmap with two literals', () => {
    expect(decodeProtobuf(fixture('configmaps'))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'pbcm' },
      data: { a: '1', 'config.conf': 'mode: iptables' },
    });
  });

  it('create secret generic: data as base64', () => {
    expect(decodeProtobuf(fixture('secrets'))).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pbsec' },
      data: { pw: Buffer.from('hunter2').toString('base64') },
    });
  });

  it('create namespace', () => {
    expect(decodeProtobuf(fixture('namespaces'))).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pbns' } });
  });

  it('create service nodeport --tcp=80:http: a named targetPort', () => {
    expect(decodeProtobuf(fixture('services'))).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'pbsvc', labels: { app: 'pbsvc' } },
      spec: { ports: [{ name: '80-http', protocol: 'TCP', port: 80, targetPort: 'http' }], selector: { app: 'pbsvc' }, type: 'NodePort' },
    });
  });

  it('rejects a body without the magic, and kinds it does not know', () => {
    expect(() => decodeProtobuf(new Uint8Array([1, 2, 3, 4, 5]))).toThrow(/magic number/);
    // k8s\0 + Unknown{ typeMeta{ apiVersion "batch/v1", kind "Job" } }
    const tm = Buffer.concat([Buffer.from([0x0a, 8]), Buffer.from('batch/v1'), Buffer.from([0x12, 3]), Buffer.from('Job')]);
    const body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.from([0x0a, tm.length]), tm]);
    try {
      decodeProtobuf(body);
      expect.fail('decoded');
    } catch (e) {
      expect(StatusError.isInstance(e) && e.status.code).toBe(415);
    }
  });

  it('a truncated body is a 400, not a crash', () => {
    const good = fixture('deployments');
    try {
      decodeProtobuf(good.subarray(0, good.length - 7));
      expect.fail('decoded');
    } catch (e) {
      expect(StatusError.isInstance(e) && e.status.code).toBe(400);
    }
  });
});
