// kubeadm publishes kube-proxy's configuration as ConfigMap kube-system/kube-proxy
// (key config.conf) and mounts it into the DaemonSet. kubelab has no kubeadm, so
// kube-proxy publishes the configuration it runs with when none exists yet:
// `kubectl get cm kube-proxy -n kube-system -o jsonpath='{.data.config\.conf}'` works.

import { isAlreadyExists, type ConfigMap } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';
import { kubeProxyConfigMap, type KubeProxyConfiguration } from './config.js';

/** Creates the ConfigMap if absent; retries while the apiserver is unreachable; never throws. */
export async function publishConfigMap(clientset: Clientset, cfg: Pick<KubeProxyConfiguration, 'mode' | 'clusterCIDR'>, logger: Logger, signal: AbortSignal): Promise<void> {
  const cm = kubeProxyConfigMap({ mode: cfg.mode, clusterCIDR: cfg.clusterCIDR }) as ConfigMap;
  for (let delay = 500; !signal.aborted; delay = Math.min(delay * 2, 10_000)) {
    try {
      await clientset.core.configMaps('kube-system').create(cm);
      logger.info('Published kube-proxy configuration', { configMap: 'kube-system/kube-proxy', mode: cfg.mode });
      return;
    } catch (err) {
      if (isAlreadyExists(err)) return;
      logger.debug('Cannot publish the kube-proxy ConfigMap yet', { err });
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, delay);
      signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }
}
