// startPolicyAgent: the informers (Pods, Namespaces, NetworkPolicies), the
// controller, and the agent's HTTP port (kube-network-policies' :9080:
// /healthz, /metrics, and kubelab's /rules as kube-proxy serves its own).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClientset, registerClientMetrics, SharedInformerFactory, type ClientTls, type Clientset } from '@kubelab/client';
import { createLogger, newMetricsRegistry, serveHealth, type HealthServer, type Logger, type Route } from '@kubelab/component-base';
import { probeIptables } from './apply.js';
import { PolicyController } from './controller.js';
import { execRunner, type CommandRunner } from '@kubelab/component-base';

export interface PolicyAgentOptions {
  nodeName: string;
  clusterCIDR?: string;
  apiserverAddress?: string;
  apiserverTls?: ClientTls;
  /** A bearer token per call (the ServiceAccount token a kubeconfig's tokenFile names: a joined node's agent), with apiserverTls's CA and no client certificate. */
  apiserverBearerToken?: () => string | undefined;
  /** A ready clientset instead of an address (tests). */
  clientset?: Clientset;
  /** host:port of /healthz, /metrics and /rules (port 0: a free one). */
  bindAddress?: string;
  /** 'never' renders only, even with NET_ADMIN (the local runner). */
  apply?: 'auto' | 'never';
  /** The local runner's socket-LB directory: policies.json for the runtime's connect hook (socket-lb.ts). */
  socketLbDir?: string;
  /** Apply inside this network namespace (`ip netns exec`): the tests' own. */
  netns?: string;
  logger?: Logger;
}

export interface PolicyAgentHandle {
  port: number;
  /** 'iptables' when rules are applied, 'render' when only rendered. */
  mode: 'iptables' | 'render';
  controller: PolicyController;
  stop(): Promise<void>;
}

function rulesRoute(controller: PolicyController, mode: string): Route {
  return async (_req: IncomingMessage, res: ServerResponse) => {
    const view = controller.rules();
    if (!view) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('no network policy rules yet: waiting for the Pods, Namespaces and NetworkPolicies informers to sync\n');
      return;
    }
    try {
      const text = await view.text();
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-kubelab-proxy-mode': mode, 'x-kubelab-rules-source': view.source, 'x-kubelab-rules-count': String(view.ruleCount) });
      res.end(text);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`reading the network policy rules back from the kernel failed: ${(err as Error).message}\n`);
    }
  };
}

export async function startPolicyAgent(opts: PolicyAgentOptions): Promise<PolicyAgentHandle> {
  const logger = opts.logger ?? createLogger({ component: 'kube-network-policies', node: opts.nodeName });
  let runner: CommandRunner | undefined;
  if ((opts.apply ?? 'auto') === 'auto') {
    const candidate = execRunner(opts.netns, { timeoutMs: 60_000 });
    const why = await probeIptables(candidate);
    if (why) logger.warn('Rendering network policy rules only', { reason: why });
    else runner = candidate;
  }
  const mode = runner ? 'iptables' : 'render';
  const clientset =
    opts.clientset ??
    createClientset({
      address: opts.apiserverAddress ?? '127.0.0.1:6444',
      ...(opts.apiserverTls ? { tls: opts.apiserverTls } : {}),
      ...(opts.apiserverBearerToken ? { bearerToken: opts.apiserverBearerToken } : {}),
      component: 'kube-network-policies',
    });
  const factory = new SharedInformerFactory(clientset, { logger });
  const pods = factory.core.pods();
  const namespaces = factory.core.namespaces();
  const policies = factory.networking.networkPolicies();
  const controller = new PolicyController({
    nodeName: opts.nodeName,
    clusterCIDR: opts.clusterCIDR ?? '10.244.0.0/16',
    pods: pods.lister(),
    namespaces: namespaces.lister(),
    policies: policies.lister(),
    ...(runner ? { runner } : {}),
    ...(opts.socketLbDir ? { socketLbDir: opts.socketLbDir } : {}),
    logger,
  });
  const changed = { onAdd: () => controller.enqueue(), onUpdate: () => controller.enqueue(), onDelete: () => controller.enqueue() };
  pods.addEventHandler(changed);
  namespaces.addEventHandler(changed);
  policies.addEventHandler(changed);

  const registry = newMetricsRegistry();
  registerClientMetrics(registry);
  const bind = opts.bindAddress ?? '0.0.0.0:9080';
  const i = bind.lastIndexOf(':');
  const port = Number(bind.slice(i + 1));
  if (i < 0 || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --metrics-bind-address "${bind}": want host:port`);
  let server: HealthServer;
  try {
    server = await serveHealth({ host: bind.slice(0, i) || '0.0.0.0', port, metrics: registry, routes: { '/rules': rulesRoute(controller, mode) } });
  } catch (err) {
    if (!opts.clientset) clientset.close();
    throw new Error(`kube-network-policies: cannot listen: ${(err as Error).message}`, { cause: err });
  }

  factory.start();
  const abort = new AbortController();
  void Promise.all([pods.whenSynced(), namespaces.whenSynced(), policies.whenSynced()]).then(() => !abort.signal.aborted && controller.cachesSynced());
  logger.info('kube-network-policies started', { mode, port: server.port });
  let stopped = false;
  return {
    port: server.port,
    mode,
    controller,
    async stop() {
      if (stopped) return;
      stopped = true;
      abort.abort();
      await controller.stop();
      await factory.shutdown();
      if (!opts.clientset) clientset.close();
      await server.close();
    },
  };
}
