// TaintNodesByCondition (upstream plugin/pkg/admission/nodetaint): every Node
// is created with the not-ready NoSchedule taint, so nothing but what
// tolerates it is scheduled there until the node lifecycle controller sees
// the Node Ready and lifts the taint (its taint-by-condition pass).

import type { Node, Taint } from '@kubelab/api';
import { TAINT_NOT_READY } from './default-toleration-seconds.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

/** The taints a new Node ends up with (pure): the not-ready NoSchedule taint added unless present. */
export function withNotReadyTaint(taints: Taint[] | undefined): Taint[] {
  const list = taints ?? [];
  return list.some((t) => t.key === TAINT_NOT_READY && t.effect === 'NoSchedule') ? list : [...list, { key: TAINT_NOT_READY, effect: 'NoSchedule' }];
}

export function taintNodesByCondition(): AdmissionPlugin {
  return {
    name: 'TaintNodesByCondition',
    admit(a: AdmissionAttributes) {
      if (a.operation !== 'CREATE' || a.info.resource !== 'nodes' || a.info.group !== '' || a.subresource || !a.object) return;
      const node = a.object as unknown as Node;
      node.spec = { ...(node.spec ?? {}), taints: withNotReadyTaint(node.spec?.taints) };
    },
  };
}
