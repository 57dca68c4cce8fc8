// apiregistration.k8s.io/v1 (k8s.io/kube-aggregator/pkg/apis/apiregistration/v1):
// APIService, which hands a group version to an extension apiserver behind a Service.
import type { KubeList, KubeObject, ObjectMeta, Time } from '../../meta/types.js';

export interface APIServiceServiceReference {
  namespace?: string;
  name?: string;
  port?: number;
}

export interface APIServiceSpec {
  service?: APIServiceServiceReference | null;
  group?: string;
  version?: string;
  insecureSkipTLSVerify?: boolean;
  caBundle?: string;
  groupPriorityMinimum: number;
  versionPriority: number;
}

export interface APIServiceCondition {
  type: string;
  status: string;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface APIServiceStatus {
  conditions?: APIServiceCondition[];
}

export interface APIService extends KubeObject {
  apiVersion?: 'apiregistration.k8s.io/v1';
  kind?: 'APIService';
  metadata: ObjectMeta;
  spec?: APIServiceSpec;
  status?: APIServiceStatus;
}
export type APIServiceList = KubeList<APIService>;
