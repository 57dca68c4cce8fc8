// Cache indexes the controllers share: objects by their controller's UID and
// by every owner's UID (the garbage collector's dependents lookup).

import type { KubeObject } from '@kubelab/api';
import type { IndexFunc } from '@kubelab/client';

export const CONTROLLER_UID_INDEX = 'controllerUID';
export const OWNER_UID_INDEX = 'ownerUID';

export const controllerUidIndexFunc: IndexFunc<KubeObject> = (o) => {
  const ref = o.metadata.ownerReferences?.find((r) => r.controller === true);
  return ref ? [ref.uid] : [];
};

export const ownerUidIndexFunc: IndexFunc<KubeObject> = (o) => (o.metadata.ownerReferences ?? []).map((r) => r.uid);

export const controllerIndexers = { [CONTROLLER_UID_INDEX]: controllerUidIndexFunc };
