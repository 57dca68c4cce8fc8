// health-checker (upstream cmd/healthchecker, pkg/healthchecker): --component=kubelet
// GETs the kubelet's healthz (http://$HOST_ADDRESS:$KUBELET_PORT/healthz,
// localhost:10248 by default); --component=cri makes the call
// `crictl pods --latest` makes (ListPodSandbox) on --cri-socket-path within
// --cri-timeout. Unhealthy prints "<component>:<service> was found unhealthy;
// repair flag : <bool>" and exits 1 (NonOK). With --enable-repair, a service
// up for longer than --cooldown-time is killed with the node's
// `systemctl kill --kill-who=main <service>` (its manager restarts it), its
// uptime read from `systemctl show <service> --property=InactiveExitTimestamp`.
// The node's systemctl is named by KUBELAB_SYSTEMCTL: a local node shares the
// host's PATH, whose systemctl would act on the host's own services, so
// without it nothing is repaired.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { parseDuration } from '@kubelab/component-base';
import { criProto } from '@kubelab/proto';
import { parsePluginArgs } from './args.js';
import type { PluginOutput } from './plugin.js';
import { joinHostPort } from '@kubelab/api';

export interface HealthCheckerOptions {
  component: string;
  service: string;
  enableRepair: boolean;
  cooldownMs: number;
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
    cooldownMs: parseDuration(f.get('cooldown-time') ?? '2m'),
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
  return `http://${joinHostPort(host, env.KUBELET_PORT || '10248')}/healthz`;
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

/** systemd's timestamp (`Mon 2006-01-02 15:04:05 MST`) in ms; NaN when it is not one (e.g. `n/a`, empty). */
export function parseSystemdTimestamp(text: string): number {
  const m = /^\w{3} (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?: (\S+))?$/.exec(text.trim());
  if (!m) return NaN;
  const utc = !m[3] || m[3] === 'UTC' || m[3] === 'GMT';
  return Date.parse(`${m[1]}T${m[2]}${utc ? 'Z' : ''}`);
}

/** The commands the health checker runs on the node (CmdTimeout 10 s); undefined when one fails. */
export type NodeCommand = (cmd: string, args: readonly string[]) => Promise<string | undefined>;

/** Runs the node's systemctl (KUBELAB_SYSTEMCTL); undefined when there is none. */
export function nodeSystemctl(env: NodeJS.ProcessEnv): NodeCommand | undefined {
  const systemctl = env.KUBELAB_SYSTEMCTL;
  if (!systemctl) return undefined;
  return (_cmd, args) => new Promise((resolve) => execFile(systemctl, args, { timeout: 10_000, env }, (err, stdout) => resolve(err ? undefined : String(stdout).trim())));
}

/** Repairs an unhealthy service past its cooldown (CheckHealth's repair step); says what it did, for the log. */
export async function repairService(o: HealthCheckerOptions, now: number, run: NodeCommand | undefined): Promise<string> {
  if (!run) return `repair of ${o.service} skipped: no node systemctl (KUBELAB_SYSTEMCTL)`;
  const shown = await run('systemctl', ['show', o.service, '--property=InactiveExitTimestamp']);
  const since = parseSystemdTimestamp(shown?.split('=')[1] ?? '');
  if (Number.isNaN(since)) return `error in getting uptime for ${o.component}`;
  const uptime = now - since;
  if (uptime <= o.cooldownMs) return `${o.component} is unhealthy, component uptime: ${uptime}ms`;
  const killed = await run('systemctl', ['kill', '--kill-who=main', o.service]);
  return killed === undefined ? `Failed to kill service ${o.service}` : `${o.component} cooldown period of ${o.cooldownMs}ms exceeded, repairing`;
}

export async function runHealthChecker(
  args: readonly string[],
  nodeRoot: string,
  env: NodeJS.ProcessEnv = process.env,
  repair: (o: HealthCheckerOptions, now: number) => Promise<unknown> = (o, now) => repairService(o, now, nodeSystemctl(env)),
): Promise<PluginOutput> {
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
  if (healthy) return { exitStatus: 0, output: '' };
  if (o.enableRepair) await repair(o, Date.now());
  return unhealthyOutput(o);
}
