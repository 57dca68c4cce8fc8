// coordination.k8s.io/v1 (k8s.io/api/coordination/v1): Lease, used for node heartbeats and leader election.
import type { KubeList, KubeObject, MicroTime, ObjectMeta } from '../../meta/types.js';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: MicroTime;
  renewTime?: MicroTime;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease extends KubeObject {
  apiVersion?: 'coordination.k8s.io/v1';
  kind?: 'Lease';
  metadata: ObjectMeta;
  spec?: LeaseSpec;
}
export type LeaseList = KubeList<Lease>;
