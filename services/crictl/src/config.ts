// Where crictl finds the runtime (cri-tools main.go, crictl_config.go,
// pkg/common/file.go): --runtime-endpoint/-r, else CONTAINER_RUNTIME_ENDPOINT,
// else `runtime-endpoint:` of the config file (--config/-c, CRI_CONFIG_FILE,
// /etc/crictl.yaml — read under KUBELAB_NODE_ROOT), else the first default.
// The flag wins over the file, the file over the environment's default.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';

export const DEFAULT_CONFIG_PATH = '/etc/crictl.yaml';
/** main_unix.go defaultRuntimeEndpoints; only containerd's is tried here (the node has no other runtime). */
export const DEFAULT_RUNTIME_ENDPOINT = 'unix:///run/containerd/containerd.sock';
export const DEFAULT_TIMEOUT_MS = 2000;

export interface ServerConfig {
  runtimeEndpoint?: string;
  imageEndpoint?: string;
  timeoutMs?: number;
  debug?: boolean;
}

/** pkg/common ServerConfiguration from the YAML text (`runtime-endpoint`, `image-endpoint`, `timeout` in seconds, `debug`). */
export function parseServerConfig(text: string): ServerConfig {
  const v = (parseYaml(text) ?? {}) as Record<string, unknown>;
  const out: ServerConfig = {};
  if (typeof v['runtime-endpoint'] === 'string' && v['runtime-endpoint']) out.runtimeEndpoint = v['runtime-endpoint'];
  if (typeof v['image-endpoint'] === 'string' && v['image-endpoint']) out.imageEndpoint = v['image-endpoint'];
  if (typeof v.timeout === 'number' && v.timeout > 0) out.timeoutMs = v.timeout * 1000;
  if (typeof v.debug === 'boolean') out.debug = v.debug;
  return out;
}

export interface EndpointInputs {
  flag?: string | undefined;
  env?: string | undefined;
  file?: ServerConfig | undefined;
  imageFlag?: string | undefined;
  imageEnv?: string | undefined;
}

/** The runtime and image endpoints, resolved as crictl does. */
export function resolveEndpoints(i: EndpointInputs): { runtime: string; image: string } {
  const runtime = i.flag || i.file?.runtimeEndpoint || i.env || DEFAULT_RUNTIME_ENDPOINT;
  const image = i.imageFlag || i.file?.imageEndpoint || i.imageEnv || runtime;
  return { runtime, image };
}

/** A node path under KUBELAB_NODE_ROOT (default `/`), the node tools' shared contract. */
export function nodePath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  const root = env.KUBELAB_NODE_ROOT || '/';
  return root === '/' ? path : join(root, path);
}

/** The config file's settings, or undefined when it does not exist (an unreadable explicit file is an error). */
export function readServerConfig(path: string, explicit: boolean): ServerConfig | undefined {
  try {
    return parseServerConfig(readFileSync(path, 'utf8'));
  } catch (err) {
    if (explicit && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`get server config: ${(err as Error).message}`, { cause: err });
    if (explicit) throw new Error(`get server config: load config file: open ${path}: no such file or directory`, { cause: err });
    return undefined;
  }
}

/** `unix:///path` or a bare path → grpc-js target; tcp:// and host:port pass through as dns targets. */
export function grpcTarget(endpoint: string): string {
  if (endpoint.startsWith('unix://')) return `unix://${endpoint.slice('unix://'.length)}`;
  if (endpoint.startsWith('/')) return `unix://${endpoint}`;
  if (endpoint.startsWith('tcp://')) return endpoint.slice('tcp://'.length);
  return endpoint;
}
