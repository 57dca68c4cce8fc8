// The aggregation layer as the REST handler sees it: the resources of the
// available remote group versions (merged into discovery) and the proxy of
// requests for them (upstream: kube-aggregator's handlers in front of the
// apiserver's own).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANONYMOUS, type ResourceInfo } from '@kubelab/api';
import { requestUser } from '../authentication/request.js';
import { Aggregator } from './controller.js';
import { proxyToBackend, unavailable, type ProxyClientConfig } from './proxy.js';

export { Aggregator, type AggregatorOptions } from './controller.js';
export type { ProxyClientConfig } from './proxy.js';

export interface AggregatedRoutes {
  /** Resources served by extension apiservers now. */
  resources(): ResourceInfo[];
  /** Proxies a request for /apis/<group>/<version>[/...] when an APIService hands that group version to a Service; false when none does. */
  serve(req: IncomingMessage, res: ServerResponse, group: string, version: string): Promise<boolean>;
}

export function aggregatedRoutes(agg: Aggregator, client: ProxyClientConfig | undefined): AggregatedRoutes {
  return {
    resources: () => agg.resources(),
    async serve(req, res, group, version) {
      const a = agg.remoteFor(group, version);
      if (!a) return false;
      // Not available, or no endpoint to send it to: 503 as upstream's proxy handler.
      const target = Aggregator.isAvailable(a) ? agg.backend(a) : { error: 'unavailable' };
      if ('error' in target) {
        unavailable(res);
        return true;
      }
      await proxyToBackend(req, res, target, a, requestUser(req) ?? ANONYMOUS, client);
      return true;
    },
  };
}
