// DefaultIngressClass (upstream plugin/pkg/admission/network/defaultingressclass):
// an Ingress created without a class (no spec.ingressClassName and no legacy
// kubernetes.io/ingress.class annotation) gets the default IngressClass, the
// newest of those annotated ingressclass.kubernetes.io/is-default-class=true.

import { DEFAULT_INGRESS_CLASS_ANNOTATION, type Ingress, type IngressClass, type KubeObject } from '@kubelab/api';
import { newestDefault } from './storage.js';
import type { AdmissionPlugin } from './types.js';

const LEGACY_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/** The default class: of those annotated default, the newest (then the first name); none: undefined. */
export const defaultIngressClass = (classes: readonly IngressClass[]): IngressClass | undefined => newestDefault(classes, (c) => c.metadata.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true');

export function defaultIngressClassPlugin(listClasses: () => readonly KubeObject[]): AdmissionPlugin {
  return {
    name: 'DefaultIngressClass',
    admit(a) {
      if (a.operation !== 'CREATE' || a.info.group !== 'networking.k8s.io' || a.info.resource !== 'ingresses' || a.subresource || !a.object) return;
      const ing = a.object as Ingress;
      if (ing.spec?.ingressClassName !== undefined && ing.spec.ingressClassName !== null) return;
      if (ing.metadata.annotations?.[LEGACY_CLASS_ANNOTATION] !== undefined) return;
      const def = defaultIngressClass(listClasses() as IngressClass[]);
      if (def) ing.spec = { ...(ing.spec ?? {}), ingressClassName: def.metadata.name! };
    },
  };
}
