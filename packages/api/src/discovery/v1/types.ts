// discovery.k8s.io/v1 (k8s.io/api/discovery/v1): EndpointSlice with upstream field names.
import type { KubeList, KubeObject, ObjectMeta } from '../../meta/types.js';
import type { ObjectReference, Protocol } from '../../core/v1/types.js';

export type AddressType = 'IPv4' | 'IPv6' | 'FQDN';

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface EndpointHints {
  forZones?: { name: string }[];
  forNodes?: { name: string }[];
}

export interface Endpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: ObjectReference;
  deprecatedTopology?: Record<string, string>;
  nodeName?: string;
  zone?: string;
  hints?: EndpointHints;
}

export interface EndpointPort {
  name?: string;
  protocol?: Protocol;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  apiVersion?: 'discovery.k8s.io/v1';
  kind?: 'EndpointSlice';
  metadata: ObjectMeta;
  addressType: AddressType;
  endpoints: Endpoint[];
  ports?: EndpointPort[];
}
export type EndpointSliceList = KubeList<EndpointSlice>;

/** Label naming the Service a slice belongs to (discoveryv1.LabelServiceName). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
/** Label naming the controller that manages a slice (discoveryv1.LabelManagedBy). */
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
