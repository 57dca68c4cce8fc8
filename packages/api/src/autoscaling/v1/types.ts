// autoscaling/v1 Scale: the body of the deployments/scale and replicasets/scale subresources.
import type { KubeObject, ObjectMeta } from '../../meta/types.js';

export interface ScaleSpec {
  replicas?: number;
}

export interface ScaleStatus {
  replicas: number;
  /** Label query in string form (`app=web`), as upstream's Scale carries it. */
  selector?: string;
}

export interface Scale extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'Scale';
  metadata: ObjectMeta;
  spec?: ScaleSpec;
  status?: ScaleStatus;
}
