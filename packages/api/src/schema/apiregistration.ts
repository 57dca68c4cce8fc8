// The schema of apiregistration.k8s.io/v1: APIService (k8s.io/kube-aggregator apiregistration/v1 types.go).

import { top, type TypeDef } from './definition.js';

export const APIREGISTRATION_TYPES: Record<string, TypeDef> = {
  APIService: {
    group: 'apiregistration',
    description: 'APIService represents a server for a particular GroupVersion. Name must be "version.group".',
    fields: top({
      spec: ['APIServiceSpec', 'Spec contains information for locating and communicating with a server.'],
      status: ['APIServiceStatus', 'Status contains derived information about an API server.'],
    }),
  },
  APIServiceSpec: {
    group: 'apiregistration',
    description: 'APIServiceSpec contains information for locating and communicating with a server. Only https is supported.',
    fields: {
      service: ['APIServiceServiceReference', 'The service this group version is proxied to; nil: served by this apiserver itself.'],
      group: ['string', 'The API group name this server hosts.'],
      version: ['string', 'The API version this server hosts, e.g. "v1".'],
      insecureSkipTLSVerify: ['boolean', 'Disables TLS certificate verification when talking to this server.'],
      caBundle: ['bytes', "A PEM encoded CA bundle which will be used to validate the API server's serving certificate."],
      groupPriorityMinimum: ['int32', 'The priority of this group (at least); higher first in discovery.', { required: true }],
      versionPriority: ['int32', 'The ordering of this version inside its group; higher first.', { required: true }],
    },
  },
  APIServiceServiceReference: {
    group: 'apiregistration',
    name: 'ServiceReference',
    description: 'ServiceReference holds a reference to Service.legacy.k8s.io.',
    fields: {
      namespace: ['string', 'The namespace of the service.'],
      name: ['string', 'The name of the service.'],
      port: ['int32', 'The https port on the service hosting the webhook; default 443.'],
    },
  },
  APIServiceStatus: {
    group: 'apiregistration',
    description: 'APIServiceStatus contains derived information about an API server.',
    fields: { conditions: ['[]APIServiceCondition', 'Current service state of apiService.', { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }] },
  },
  APIServiceCondition: {
    group: 'apiregistration',
    description: 'APIServiceCondition describes the state of an APIService at a particular point.',
    fields: {
      type: ['string', 'Type is the type of the condition (Available).', { required: true }],
      status: ['string', 'Status is the status of the condition: True, False, Unknown.', { required: true }],
      lastTransitionTime: ['Time', 'Last time the condition transitioned from one status to another.'],
      reason: ['string', "Unique, one-word, CamelCase reason for the condition's last transition."],
      message: ['string', 'Human-readable message indicating details about last transition.'],
    },
  },
};
