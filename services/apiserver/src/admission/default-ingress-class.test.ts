import { lookupResource, type Ingress, type KubeObject, type ResourceInfo } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { defaultIngressClassPlugin } from './default-ingress-class.js';
import type { AdmissionAttributes } from './types.js';

const cls = (name: string, isDefault: boolean, created = '2025-01-01T00:00:00Z'): KubeObject =>
  ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'ingressclass.kubernetes.io/is-default-class': 'true' } : {} },
    spec: { controller: 'k8s.io/ingress-nginx' },
  }) as KubeObject;

const ingress = (spec: Ingress['spec'], annotations?: Record<string, string>): Ingress => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'web', namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec,
});

function attributes(object: KubeObject, operation: AdmissionAttributes['operation'] = 'CREATE'): AdmissionAttributes {
  return { operation, info: lookupResource('networking.k8s.io', 'v1', 'ingresses') as ResourceInfo, namespace: 'default', name: 'web', object, ctx: {}, dryRun: false, onRollback() {}, onCommit() {} };
}

const BACKEND = { service: { name: 'web', port: { number: 80 } } };

describe('DefaultIngressClass admission', () => {
  it.each<[string, KubeObject[], Ingress, string | undefined]>([
    ['no class: the default', [cls('nginx', true), cls('traefik', false)], ingress({ defaultBackend: BACKEND }), 'nginx'],
    ['two defaults: the newest', [cls('old', true, '2025-01-01T00:00:00Z'), cls('new', true, '2025-02-01T00:00:00Z')], ingress({ defaultBackend: BACKEND }), 'new'],
    ['two defaults created together: the first name', [cls('b', true), cls('a', true)], ingress({ defaultBackend: BACKEND }), 'a'],
    ['no default class: none', [cls('traefik', false)], ingress({ defaultBackend: BACKEND }), undefined],
    ['a named class stays', [cls('nginx', true)], ingress({ ingressClassName: 'traefik', defaultBackend: BACKEND }), 'traefik'],
    ['the legacy annotation counts as a class', [cls('nginx', true)], ingress({ defaultBackend: BACKEND }, { 'kubernetes.io/ingress.class': 'traefik' }), undefined],
  ])('%s', (_name, classes, ing, want) => {
    void defaultIngressClassPlugin(() => classes).admit!(attributes(ing));
    expect(ing.spec?.ingressClassName).toBe(want);
  });

  it('leaves updates alone', () => {
    const ing = ingress({ defaultBackend: BACKEND });
    void defaultIngressClassPlugin(() => [cls('nginx', true)]).admit!(attributes(ing, 'UPDATE'));
    expect(ing.spec?.ingressClassName).toBeUndefined();
  });
});
