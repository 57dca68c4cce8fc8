// Starts nats-server and the real apiserver on free loopback ports, writes a
// kubeconfig, and runs the real kubectl binary against them with its own
// --cache-dir (the dispatcher and discovery caches live there).

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiserver, type RunningApiserver } from '@kubelab/apiserver';
import { createTestPki, type ApiserverTestPki } from '@kubelab/apiserver/testing';
import { startControllerManager, type RunningControllerManager } from '@kubelab/controller-manager';
import { buildKubeconfig } from '@kubelab/pki';
import { freePort, startNatsServer, type NatsServerHandle, type WaitOptions } from '@kubelab/testing';
import type { KubeObject } from '@kubelab/api';

export const KUBECTL = '/usr/bin/kubectl';

type Logger = NonNullable<Parameters<typeof startApiserver>[0]['logger']>;
/** The apiserver's logger for tests: errors to stderr, the rest dropped. */
const errorsOnly: Logger = {
  v: () => ({ info() {} }),
  debug() {},
  info() {},
  warn() {},
  error(msg, fields) {
    console.error('kube-apiserver:', msg, fields ?? '');
  },
  with() {
    return errorsOnly;
  },
};
/** A versioned client of the Google Cloud SDK on these machines (it ships 1.27 to 1.33). */
export const sdkKubectl = (minor: number): string => `/usr/lib/google-cloud-sdk/bin/kubectl.1.${minor}`;
/** The newest versioned client the SDK ships. */
export const KUBECTL_133 = sdkKubectl(33);

export interface KubectlResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface Cluster {
  port: number;
  dir: string;
  api: RunningApiserver;
  /** The cluster CA: identities for components the tests start (a kubelet) and for kubectl as another user. */
  pki: ApiserverTestPki;
  kubectl(args: string[], opts?: { stdin?: string | Buffer; bin?: string; timeoutMs?: number }): Promise<KubectlResult>;
  /** As kubectl, with stdout as the bytes kubectl wrote (binary output). */
  kubectlBytes(args: string[], opts?: { stdin?: string | Buffer; bin?: string; timeoutMs?: number }): Promise<Omit<KubectlResult, 'stdout'> & { stdout: Buffer }>;
  /** Starts kubectl and leaves it running (for -w); the caller kills it. */
  spawnKubectl(args: string[], opts?: { bin?: string }): { child: ChildProcess; output: () => string };
  /** Creates objects straight through the registry (nodes, events, status a kubelet would write). */
  seed(...objs: KubeObject[]): Promise<void>;
  get(resource: string, namespace: string | undefined, name: string, group?: string): Promise<KubeObject | undefined>;
  stop(): Promise<void>;
}

/** How the apiserver is started: `--authorization-mode` and, for a test that needs one, an authorizer of its own. */
export type ClusterOptions = Pick<Parameters<typeof startApiserver>[0], 'authorizationModes' | 'authorizerFactories' | 'serviceAccount' | 'podNetwork' | 'componentStatusUrls'>;

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-kubectl-'));
  let nats: NatsServerHandle | undefined;
  let api: RunningApiserver | undefined;
  try {
    nats = await startNatsServer();
    const port = await freePort();
    const pki = await createTestPki();
    api = await startApiserver({
      natsUrl: nats.url,
      bindAddress: '127.0.0.1',
      securePort: port,
      grpcPort: 0,
      logger: errorsOnly,
      tls: pki.tls,
      // kubeadm's --kubelet-client-certificate/-key: pods/log, exec and attach reach kubelets as kube-apiserver-kubelet-client.
      kubeletClient: pki.kubeletClient,
      ...opts,
    });
    await api.ready;
    const kubeconfig = join(dir, 'kubeconfig');
    // As kubeadm's admin.conf: the cluster CA and a client certificate, embedded.
    writeFileSync(
      kubeconfig,
      buildKubeconfig({ clusterName: 'kubelab', server: `https://127.0.0.1:${port}`, caPem: pki.admin.caPem, userName: 'admin', clientCertPem: pki.admin.certPem, clientKeyPem: pki.admin.keyPem }),
      { mode: 0o600 },
    );
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, KUBECONFIG: kubeconfig };
    const baseArgs = (bin: string) => [`--cache-dir=${join(dir, bin === KUBECTL ? 'cache' : `cache-${bin.split('/').pop()}`)}`];
    const kubectlBytes: Cluster['kubectlBytes'] = (args, opts = {}) => {
      const bin = opts.bin ?? KUBECTL;
      return new Promise((resolve) => {
        const child = execFile(bin, [...baseArgs(bin), ...args], { env, timeout: opts.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024, encoding: 'buffer' }, (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
          resolve({ stdout, stderr: stderr.toString('utf8'), code });
        });
        if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
        else child.stdin?.end();
      });
    };
    const running = api;
    const natsHandle = nats;
    return {
      port,
      dir,
      api: running,
      pki,
      async kubectl(args, opts = {}) {
        const r = await kubectlBytes(args, opts);
        return { ...r, stdout: r.stdout.toString('utf8') };
      },
      kubectlBytes,
      spawnKubectl(args, opts = {}) {
        const bin = opts.bin ?? KUBECTL;
        const child = spawn(bin, [...baseArgs(bin), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        return { child, output: () => out };
      },
      async seed(...objs) {
        for (const o of objs) {
          const [group] = (o.apiVersion ?? 'v1').includes('/') ? (o.apiVersion ?? '').split('/') : [''];
          const resource = {
            Node: 'nodes',
            Pod: 'pods',
            Event: 'events',
            Lease: 'leases',
            ConfigMap: 'configmaps',
            ServiceAccount: 'serviceaccounts',
            Namespace: 'namespaces',
            DaemonSet: 'daemonsets',
            PodDisruptionBudget: 'poddisruptionbudgets',
          }[o.kind as string];
          if (!resource) throw new Error(`seed: add ${o.kind} to the harness`);
          const store = running.registry.store(group ?? '', 'v1', resource)!;
          // create() resets status as for any client; write it afterwards as the kubelet would.
          const status = structuredClone((o as { status?: unknown }).status);
          const created = await store.create(o.metadata.namespace, structuredClone(o), {});
          if (status) {
            await store.update(o.metadata.namespace, o.metadata.name!, { ...structuredClone(created), status } as KubeObject, {}, 'status');
          }
        }
      },
      async get(resource, namespace, name, group = '') {
        try {
          return await running.registry.store(group, 'v1', resource)!.get(namespace, name);
        } catch {
          return undefined;
        }
      },
      async stop() {
        await running.stop();
        await natsHandle.dispose();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await api?.stop();
    await nats?.dispose();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Collapses runs of spaces so assertions do not depend on column widths. */
export function squash(text: string): string[] {
  return text
    .trim()
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim());
}

/** How these tests poll with @kubelab/testing's waitFor unless one needs longer. */
export const POLL: WaitOptions = { timeoutMs: 10_000, everyMs: 50 };

type ControllerManagerLogger = NonNullable<NonNullable<Parameters<typeof startControllerManager>[0]>['logger']>;
/** The controller-manager's logger for tests: nothing (its conflicts and retries are part of a normal run). */
const silent: ControllerManagerLogger = {
  v: () => ({ info() {} }),
  debug() {},
  info() {},
  warn() {},
  error() {},
  with() {
    return silent;
  },
} as never;

/** Runs the named controllers of the real controller-manager against the cluster (no kubelet here: a test writes pod statuses itself). */
export function startControllers(c: Cluster, controllers: string[]): Promise<RunningControllerManager> {
  return startControllerManager({
    apiserverAddress: `127.0.0.1:${c.api.grpcPort}`,
    apiserverTls: c.pki.admin,
    bindAddress: '127.0.0.1',
    securePort: 0,
    leaderElect: false,
    config: { controllers },
    logger: silent,
  });
}
