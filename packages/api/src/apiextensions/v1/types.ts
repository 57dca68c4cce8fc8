// apiextensions.k8s.io/v1 (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1):
// CustomResourceDefinition, which teaches the apiserver a new kind at run time.
import type { KubeList, KubeObject, ObjectMeta, Time } from '../../meta/types.js';

/**
 * A structural OpenAPI v3 schema (upstream JSONSchemaProps): the subset a
 * CRD's validation uses, plus the x-kubernetes extensions.
 */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  title?: string;
  default?: unknown;
  nullable?: boolean;
  enum?: unknown[];
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  example?: unknown;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
}

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  /** Present (an empty object) to serve /status. */
  status?: Record<string, never>;
  scale?: CustomResourceSubresourceScale;
}

export interface CustomResourceValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
}

export interface CustomResourceConversion {
  strategy: string;
}

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: 'Namespaced' | 'Cluster' | string;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  apiVersion?: 'apiextensions.k8s.io/v1';
  kind?: 'CustomResourceDefinition';
  metadata: ObjectMeta;
  spec?: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}
export type CustomResourceDefinitionList = KubeList<CustomResourceDefinition>;
