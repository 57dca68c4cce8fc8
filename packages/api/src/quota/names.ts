// Quota resource names and scopes (pkg/apis/core/helper: IsStandardQuotaResourceName,
// IsResourceQuotaScopeValidForResource, IsIntegerResourceName).

/** What a quota may name without a `/` (standardQuotaResources). */
const STANDARD_QUOTA_RESOURCES = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
]);

/** Resource names any object may carry without a `/` (standardResources). */
const STANDARD_RESOURCES = new Set([...STANDARD_QUOTA_RESOURCES, 'storage']);

const INTEGER_RESOURCES = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);

export const isQuotaHugePageResourceName = (name: string): boolean => name.startsWith('requests.hugepages-') || name.startsWith('limits.hugepages-');

export const isStandardQuotaResourceName = (name: string): boolean => STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePageResourceName(name);

export const isStandardResourceName = (name: string): boolean => STANDARD_RESOURCES.has(name) || name.startsWith('hugepages-') || isQuotaHugePageResourceName(name);

/** IsIntegerResourceName: object counts and extended resources (which includes `count/<resource>`). */
export const isIntegerResourceName = (name: string): boolean => INTEGER_RESOURCES.has(name) || (name.includes('/') && !name.includes('kubernetes.io/') && !name.startsWith('requests.'));

export const QUOTA_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'] as const;

const POD_COUNT = new Set(['pods']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const PVC_RESOURCES = new Set(['persistentvolumeclaims', 'requests.storage']);

/** IsResourceQuotaScopeValidForResource. */
export function isScopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COUNT.has(resource) || POD_COMPUTE.has(resource);
    case 'BestEffort':
      return POD_COUNT.has(resource);
    case 'VolumeAttributesClass':
      return PVC_RESOURCES.has(resource);
    default:
      return true;
  }
}
