// The schema of the one-kind groups: discovery.k8s.io/v1, coordination.k8s.io/v1, autoscaling/v1, policy/v1 (k8s.io/api/<group>/v1 types.go).

import { API_VERSION, KIND, META_FIELD, top, type TypeDef } from './definition.js';

export const GROUP_TYPES: Record<string, TypeDef> = {
  EndpointSlice: {
    group: 'discovery',
    description: 'An EndpointSlice lists some of the endpoints of a service; kube-proxy programs rules from them.',
    fields: top({
      addressType: ['string', 'IPv4, IPv6 or FQDN.', { required: true }],
      endpoints: ['[]Endpoint', 'The endpoints.', { required: true }],
      ports: ['[]DiscoveryEndpointPort', 'The ports of every endpoint.'],
    }),
  },
  Endpoint: {
    group: 'discovery',
    description: 'One endpoint of a slice.',
    fields: {
      addresses: ['[]string', 'Its addresses.', { required: true }],
      conditions: ['EndpointConditions', 'ready, serving, terminating.'],
      hostname: ['string', 'Host name.'],
      targetRef: ['ObjectReference', 'The pod.'],
      deprecatedTopology: ['map[string]string', 'Deprecated.'],
      nodeName: ['string', 'The node.'],
      zone: ['string', 'The zone.'],
      hints: ['EndpointHints', 'Topology hints.'],
    },
  },
  EndpointConditions: {
    group: 'discovery',
    description: 'Conditions of an endpoint.',
    fields: { ready: ['boolean', 'Ready to receive traffic.'], serving: ['boolean', 'Serving (even if terminating).'], terminating: ['boolean', 'Terminating.'] },
  },
  EndpointHints: { group: 'discovery', description: 'Topology hints.', fields: { forZones: ['object', 'Zones.'], forNodes: ['object', 'Nodes.'] } },
  DiscoveryEndpointPort: {
    group: 'discovery',
    name: 'EndpointPort',
    description: 'A port of an endpoint slice.',
    fields: { name: ['string', 'Name.'], protocol: ['string', 'Protocol.'], port: ['int32', 'Port.'], appProtocol: ['string', 'Application protocol.'] },
  },
  Lease: {
    group: 'coordination',
    description: 'A Lease is a lock with a holder and a renew time, used for node heartbeats and leader election.',
    fields: top({ spec: ['LeaseSpec', 'The lease.'] }),
  },
  LeaseSpec: {
    group: 'coordination',
    description: 'The content of a lease.',
    fields: {
      holderIdentity: ['string', 'Who holds it.'],
      leaseDurationSeconds: ['int32', 'How long a holder keeps it without renewing.'],
      acquireTime: ['MicroTime', 'When it was acquired.'],
      renewTime: ['MicroTime', 'When it was last renewed.'],
      leaseTransitions: ['int32', 'How many times the holder changed.'],
      strategy: ['string', 'Leader election strategy.'],
      preferredHolder: ['string', 'The preferred next holder.'],
    },
  },
  Scale: {
    group: 'autoscaling',
    description: 'Scale is the scale subresource of a deployment or replica set: its desired and current replicas.',
    fields: top({ spec: ['ScaleSpec', 'Desired scale.'], status: ['ScaleStatus', 'Current scale.'] }),
  },
  ScaleSpec: { group: 'autoscaling', description: 'Desired scale.', fields: { replicas: ['int32', 'Desired replicas.'] } },
  ScaleStatus: {
    group: 'autoscaling',
    description: 'Current scale.',
    fields: { replicas: ['int32', 'Current replicas.', { required: true }], selector: ['string', 'The label selector of the pods, as a string.'] },
  },
  Eviction: {
    group: 'policy',
    description: 'An Eviction, posted to pods/<name>/eviction, deletes a pod gracefully (as kubectl drain does).',
    fields: { apiVersion: API_VERSION, kind: KIND, metadata: META_FIELD, deleteOptions: ['DeleteOptions', 'Options of the deletion.'] },
  },
};
