// The classic NetworkPolicy lab as objects: web (app=web, port "http" 80) and
// other (app=other) on node-1, client (app=client) on node-2, a pod in
// namespace prod; policies built per test.

import type { Namespace, NetworkPolicy, NetworkPolicySpec, Pod } from '@kubelab/api';

export function pod(ns: string, name: string, ip: string, node: string, labels: Record<string, string>, ports: { name: string; containerPort: number; protocol?: string }[] = []): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: ns, name, uid: `uid-${name}`, labels },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx', ports }] },
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] },
  } as Pod;
}

export function namespace(name: string, labels: Record<string, string> = {}): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } } } as Namespace;
}

export function policy(ns: string, name: string, spec: Partial<NetworkPolicySpec>): NetworkPolicy {
  return { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { namespace: ns, name }, spec: { podSelector: {}, ...spec } };
}

export const lab = () => ({
  namespaces: [namespace('default'), namespace('prod', { env: 'prod' })],
  pods: [
    pod('default', 'web', '10.244.1.10', 'node-1', { app: 'web' }, [{ name: 'http', containerPort: 80 }]),
    pod('default', 'other', '10.244.1.11', 'node-1', { app: 'other' }),
    pod('default', 'client', '10.244.2.20', 'node-2', { app: 'client' }),
    pod('prod', 'db', '10.244.2.30', 'node-2', { app: 'db' }, [{ name: 'pg', containerPort: 5432 }]),
  ],
});
