// Test harness: a runtime on a temp unix socket plus promisified CRI clients.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { relistingCriClients, type ImageServiceClient, type RuntimeServiceClient } from '@kubelab/proto';
import { createLogger } from '@kubelab/component-base';
import { startContainerd, type ContainerdHandle, type ContainerdOptions } from '../index.js';

// Inference on an overloaded method sees its last overload, which for the
// generated unary methods is (argument, callback); streaming methods don't match.
type Unary<C> = {
  [K in keyof C as K extends `${infer F}${string}` ? (F extends Uppercase<F> ? K : never) : never]: C[K] extends {
    (argument: infer A, callback: grpc.requestCallback<infer R>): grpc.ClientUnaryCall;
  }
    ? (req: A, meta?: grpc.Metadata) => Promise<R>
    : never;
};

export interface Cri {
  rt: Unary<RuntimeServiceClient>;
  img: Unary<ImageServiceClient>;
  runtimeClient: RuntimeServiceClient;
  close(): void;
}

function promisify<C extends grpc.Client>(client: C): Unary<C> {
  return new Proxy({} as Unary<C>, {
    get:
      (_t, name: string) =>
      (req: unknown, meta = new grpc.Metadata()) =>
        new Promise((resolve, reject) => {
          (client as unknown as Record<string, (...a: unknown[]) => void>)[name]!(req, meta, { deadline: Date.now() + 20_000 }, (err: Error | null, res: unknown) =>
            err ? reject(err) : resolve(res),
          );
        }),
  });
}

/** CRI clients on the socket; `interceptors` as the kubelet passes grpcClientInterceptors(tracing). */
export function criClient(socketPath: string, opts: { interceptors?: grpc.Interceptor[] } = {}): Cri {
  const options: grpc.ClientOptions = opts.interceptors?.length ? { interceptors: opts.interceptors } : {};
  // As the kubelet's clients: relists decode only what changed.
  const { runtime: runtimeClient, image: imageClient } = relistingCriClients(`unix://${socketPath}`, grpc.credentials.createInsecure(), options);
  return {
    rt: promisify(runtimeClient),
    img: promisify(imageClient),
    runtimeClient,
    close: () => {
      runtimeClient.close();
      imageClient.close();
    },
  };
}

export interface Harness {
  dir: string;
  handle: ContainerdHandle;
  cri: Cri;
  /** A sandbox `name` with one started container `app` of `image` (`extra`: more container config), pulled first. */
  runPod(name: string, image: string, extra?: Record<string, unknown>): Promise<{ podSandboxId: string; containerId: string; logFile: string }>;
  restart(extra?: Partial<ContainerdOptions>): Promise<void>;
  dispose(): Promise<void>;
}

export async function startHarness(extra: Partial<ContainerdOptions> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-cri-'));
  const base: ContainerdOptions = {
    nodeName: 'node-1',
    address: join(dir, 'containerd.sock'),
    root: join(dir, 'root'),
    healthPort: 0,
    timeScale: 1,
    pullBytesPerSecond: 0,
    logger: createLogger({ component: 'containerd', node: 'node-1', level: 'error', write: () => {} }),
    ...extra,
  };
  const h: Harness = {
    dir,
    handle: await startContainerd(base),
    cri: undefined as unknown as Cri,
    restart: async (more = {}) => {
      h.cri.close();
      await h.handle.stop();
      h.handle = await startContainerd({ ...base, ...more });
      h.cri = criClient(h.handle.socketPath);
    },
    runPod: async (name, image, more = {}) => {
      const sbCfg = sandboxConfig(name, dir);
      const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sbCfg });
      await h.cri.img.PullImage({ image: { image } });
      const { containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('app', image, more), sandboxConfig: sbCfg });
      await h.cri.rt.StartContainer({ containerId });
      return { podSandboxId, containerId, logFile: join(sbCfg.logDirectory, 'app/0.log') };
    },
    dispose: async () => {
      h.cri.close();
      await h.handle.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  h.cri = criClient(h.handle.socketPath);
  return h;
}

export function sandboxConfig(name: string, dir: string, extra: Record<string, unknown> = {}) {
  const uid = `uid-${name}`;
  return {
    metadata: { name, namespace: 'default', uid, attempt: 0 },
    hostname: name,
    logDirectory: join(dir, 'pods', `default_${name}_${uid}`),
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'default', app: name },
    annotations: { 'kubernetes.io/config.source': 'api' },
    dnsConfig: { servers: ['10.96.0.10'], searches: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'], options: ['ndots:5'] },
    ...extra,
  };
}

export function containerConfig(name: string, image: string, extra: Record<string, unknown> = {}) {
  return {
    metadata: { name, attempt: 0 },
    image: { image },
    labels: { 'io.kubernetes.container.name': name },
    logPath: `${name}/0.log`,
    ...extra,
  };
}
