// health-checker (upstream cmd/healthchecker, pkg/healthchecker): --component=kubelet
// GETs the kubelet's healthz (http://$HOST_ADDRESS:$KUBELET_PORT/healthz,
// localhost:10248 by default); --component=cri makes the call
// `crictl pods --latest` makes (ListPodSandbox) on --cri-socket-path within
// --cri-timeout. Unhealthy prints "<component>:<service> was found unhealthy;
// repair flag : <bool>" and exits 1 (NonOK).

import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { parseDuration } from '@kubelab/component-base';
import { criProto } from '@kubelab/proto';
import { parsePluginArgs } from './args.js';
import type { PluginOutput } from './plugin.js';

export interface HealthCheckerOptions {
  component: string;
  service: string;
  enableRepair: boolean;
  criSocketPath: string;
  criTimeoutMs: number;
  healthCheckTimeoutMs: number;
}

export function parseHealthCheckerArgs(args: readonly string[]): HealthCheckerOptions {
  const f = parsePluginArgs(args);
  const component = f.get('component') ?? 'kubelet';
  return {
    component,
    // SetDefaults: the service is the component's name, containerd for cri.
    service: f.get('service') || (component === 'cri' ? 'containerd' : component),
    enableRepair: (f.get('enable-repair') ?? 'true') === 'true',
    criSocketPath: f.get('cri-socket-path') ?? 'unix:///var/run/containerd/containerd.sock',
    criTimeoutMs: parseDuration(f.get('cri-timeout') ?? '2s'),
    healthCheckTimeoutMs: parseDuration(f.get('health-check-timeout') ?? '10s'),
  };
}

export function unhealthyOutput(o: HealthCheckerOptions): PluginOutput {
  return { exitStatus: 1, output: `${o.component}:${o.service} was found unhealthy; repair flag : ${o.enableRepair}` };
}

/** The kubelet's healthz endpoint (types.KubeletHealthCheckEndpoint), from HOST_ADDRESS and KUBELET_PORT. */
export function kubeletHealthzURL(env: NodeJS.ProcessEnv): string {
  const host = env.HOST_ADDRESS || 'localhost';
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.KUBELET_PORT || '10248'}/healthz`;
}

/** A `unix://` endpoint's socket path on the node (under the node root unless already there). */
export function criSocketOnNode(endpoint: string, nodeRoot: string): string {
  const path = endpoint.replace(/^unix:\/\//, '');
  return nodeRoot === '/' || path.startsWith(nodeRoot) ? path : join(nodeRoot, path);
}

async function kubeletHealthy(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function criHealthy(socketPath: string, timeoutMs: number): Promise<boolean> {
  const Ctor = criProto().runtime.v1.RuntimeService;
  const client = new Ctor(`unix://${socketPath}`, grpc.credentials.createInsecure());
  try {
    return await new Promise<boolean>((resolve) => {
      // --latest: the newest sandbox only, as crictl asks.
      client.ListPodSandbox({}, { deadline: Date.now() + timeoutMs }, (err) => resolve(!err));
    });
  } finally {
    client.close();
  }
}

export async function runHealthChecker(args: readonly string[], nodeRoot: string, env: NodeJS.ProcessEnv = process.env): Promise<PluginOutput> {
  let o: HealthCheckerOptions;
  try {
    o = parseHealthCheckerArgs(args);
  } catch (err) {
    return { exitStatus: 2, output: (err as Error).message };
  }
  let healthy: boolean;
  switch (o.component) {
    case 'kubelet':
      healthy = await kubeletHealthy(kubeletHealthzURL(env), o.healthCheckTimeoutMs);
      break;
    case 'cri':
      healthy = await criHealthy(criSocketOnNode(o.criSocketPath, nodeRoot), Math.min(o.criTimeoutMs, o.healthCheckTimeoutMs));
      break;
    default:
      return { exitStatus: 2, output: `error checking ${o.component} health: unsupported component` };
  }
  return healthy ? { exitStatus: 0, output: '' } : unhealthyOutput(o);
}
