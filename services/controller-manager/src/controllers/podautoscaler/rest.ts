// The HPA's scale and metrics clients over the apiserver's REST API: the
// target's `<resource>/scale` subresource (upstream's scale client, the
// resource found from the kind through the served resources), and pod
// metrics from metrics.k8s.io/v1beta1 through the aggregation layer
// (upstream's resource metrics client).

import type { ResourceInfo, Scale } from '@kubelab/api';
import type { RestClient } from '../../util/rest-client.js';
import { podMetricsFromList, type PodMetricsItem, type ResourceMetricsClient, type ScaleClient } from './metrics.js';

function scalePath(info: ResourceInfo, namespace: string, name: string): string {
  const root = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  return `${root}/namespaces/${encodeURIComponent(namespace)}/${info.resource}/${encodeURIComponent(name)}/scale`;
}

export function restScaleClient(rest: RestClient): ScaleClient {
  return {
    get: (info, namespace, name) => rest.get<Scale>(scalePath(info, namespace, name)),
    update: (info, namespace, scale) => rest.put<Scale>(scalePath(info, namespace, scale.metadata.name ?? ''), scale),
  };
}

export function restMetricsClient(rest: RestClient): ResourceMetricsClient {
  return {
    async getResourceMetric(resource, namespace, selector, container) {
      let items: PodMetricsItem[];
      try {
        const list = await rest.get<{ items?: PodMetricsItem[] }>(`/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods?labelSelector=${encodeURIComponent(selector)}`);
        items = list.items ?? [];
      } catch (err) {
        throw new Error(`unable to fetch metrics from resource metrics API: ${(err as Error).message}`, { cause: err });
      }
      return podMetricsFromList(items, resource, container);
    },
  };
}
