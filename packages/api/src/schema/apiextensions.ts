// The schema of apiextensions.k8s.io/v1 CustomResourceDefinition
// (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1 types.go). A
// version's openAPIV3Schema (JSONSchemaProps, recursive) is free-form here;
// the apiserver's apiextensions/ checks it is structural.

import { top, type TypeDef } from './definition.js';

export const APIEXTENSIONS_TYPES: Record<string, TypeDef> = {
  CustomResourceDefinition: {
    group: 'apiextensions',
    description: 'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
    fields: top({
      spec: ['CustomResourceDefinitionSpec', 'spec describes how the user wants the resources to appear', { required: true }],
      status: ['CustomResourceDefinitionStatus', 'status indicates the actual state of the CustomResourceDefinition'],
    }),
  },
  CustomResourceDefinitionSpec: {
    group: 'apiextensions',
    description: 'CustomResourceDefinitionSpec describes how a user wants their resource to appear',
    fields: {
      group: ['string', 'group is the API group of the defined custom resource. The custom resources are served under `/apis/<group>/...`.', { required: true }],
      names: ['CustomResourceDefinitionNames', 'names specify the resource and kind names for the custom resource.', { required: true }],
      scope: ['string', 'scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.', { required: true }],
      versions: ['[]CustomResourceDefinitionVersion', 'versions is the list of all API versions of the defined custom resource.', { required: true }],
      conversion: ['CustomResourceConversion', 'conversion defines conversion settings for the CRD.'],
      preserveUnknownFields: ['boolean', 'preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage.'],
    },
  },
  CustomResourceDefinitionNames: {
    group: 'apiextensions',
    description: 'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition',
    fields: {
      plural: ['string', 'plural is the plural name of the resource to serve. Must be all lowercase.', { required: true }],
      singular: ['string', 'singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.'],
      shortNames: ['[]string', 'shortNames are short names for the resource, exposed in API discovery documents. It must be all lowercase.'],
      kind: ['string', 'kind is the serialized kind of the resource. It is normally CamelCase and singular.', { required: true }],
      listKind: ['string', 'listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".'],
      categories: ['[]string', "categories is a list of grouped resources this custom resource belongs to (e.g. 'all')."],
    },
  },
  CustomResourceDefinitionVersion: {
    group: 'apiextensions',
    description: 'CustomResourceDefinitionVersion describes a version for CRD.',
    fields: {
      name: ['string', 'name is the version name, e.g. “v1”, “v2beta1”, etc.', { required: true }],
      served: ['boolean', 'served is a flag enabling/disabling this version from being served via REST APIs', { required: true }],
      storage: ['boolean', 'storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.', { required: true }],
      deprecated: ['boolean', 'deprecated indicates this version of the custom resource API is deprecated.'],
      deprecationWarning: ['string', 'deprecationWarning overrides the default warning returned to API clients.'],
      schema: ['CustomResourceValidation', 'schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.'],
      subresources: ['CustomResourceSubresources', 'subresources specify what subresources this version of the defined custom resource have.'],
      additionalPrinterColumns: ['[]CustomResourceColumnDefinition', 'additionalPrinterColumns specifies additional columns returned in Table output.'],
    },
  },
  CustomResourceValidation: {
    group: 'apiextensions',
    description: 'CustomResourceValidation is a list of validation methods for CustomResources.',
    fields: { openAPIV3Schema: ['object', 'openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.'] },
  },
  CustomResourceSubresources: {
    group: 'apiextensions',
    description: 'CustomResourceSubresources defines the status and scale subresources for CustomResources.',
    fields: {
      status: ['object', 'status indicates the custom resource should serve a `/status` subresource.'],
      scale: ['CustomResourceSubresourceScale', 'scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.'],
    },
  },
  CustomResourceSubresourceScale: {
    group: 'apiextensions',
    description: 'CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.',
    fields: {
      specReplicasPath: ['string', 'specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`.', { required: true }],
      statusReplicasPath: ['string', 'statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`.', { required: true }],
      labelSelectorPath: ['string', 'labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`.'],
    },
  },
  CustomResourceColumnDefinition: {
    group: 'apiextensions',
    description: 'CustomResourceColumnDefinition specifies a column for server side printing.',
    fields: {
      name: ['string', 'name is a human readable name for the column.', { required: true }],
      type: ['string', 'type is an OpenAPI type definition for this column.', { required: true }],
      format: ['string', 'format is an optional OpenAPI type definition for this column.'],
      description: ['string', 'description is a human readable description of this column.'],
      priority: ['int32', 'priority is an integer defining the relative importance of this column compared to others.'],
      jsonPath: ['string', 'jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.', { required: true }],
    },
  },
  CustomResourceConversion: {
    group: 'apiextensions',
    description: 'CustomResourceConversion describes how to convert different versions of a CR.',
    fields: { strategy: ['string', 'strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`.', { required: true }] },
  },
  CustomResourceDefinitionStatus: {
    group: 'apiextensions',
    description: 'CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition',
    fields: {
      conditions: ['[]CustomResourceDefinitionCondition', 'conditions indicate state for particular aspects of a CustomResourceDefinition', { patchStrategy: 'merge', patchMergeKey: 'type' }],
      acceptedNames: ['CustomResourceDefinitionNames', 'acceptedNames are the names that are actually being used to serve discovery.'],
      storedVersions: ['[]string', 'storedVersions lists all versions of CustomResources that were ever persisted.'],
    },
  },
  CustomResourceDefinitionCondition: {
    group: 'apiextensions',
    description: 'CustomResourceDefinitionCondition contains details for the current condition of this pod.',
    fields: {
      type: ['string', 'type is the type of the condition. Types include Established, NamesAccepted and Terminating.', { required: true }],
      status: ['string', 'status is the status of the condition. Can be True, False, Unknown.', { required: true }],
      lastTransitionTime: ['Time', 'lastTransitionTime last time the condition transitioned from one status to another.'],
      reason: ['string', "reason is a unique, one-word, CamelCase reason for the condition's last transition."],
      message: ['string', 'message is a human-readable message indicating details about last transition.'],
    },
  },
};
