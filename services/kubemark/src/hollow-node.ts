// One hollow node (upstream kubemark's HollowKubelet): a full kubelet of this
// project with its own identity (TLS bootstrap into its own kubelet.conf),
// Lease, PLEG, probes and status, speaking CRI over gRPC on its own unix
// socket to its own simulated runtime. Many of them share one process: each
// has its own loggers (files in its node folder), its own node root and
// address; nothing here touches process-wide state (signals, env).

import { join } from 'node:path';
import { clientTlsFromCredentials } from '@kubelab/client';
import { createLogger, type Logger } from '@kubelab/component-base';
import { startContainerd, type ContainerdHandle } from '@kubelab/containerd';
import { loadClientCert, startKubelet, type RunningKubelet, type SyncSlots, type TlsFront } from '@kubelab/kubelet';
import { LogFiles } from './log-files.js';

export interface HollowNodeOptions {
  nodeName: string;
  /** The node's own loopback address: its InternalIP, where its kubelet API and streaming server listen. */
  nodeIP: string;
  /** The node's folder: kubelet.conf, kubelet/ (root-dir, pki), containerd/, pods/, root/, logs/. */
  dir: string;
  /** gRPC address of the apiserver. */
  apiserver: string;
  /** kubeadm's bootstrap-kubelet.conf (one token for every hollow node, as one `kubeadm join` command). */
  bootstrapKubeconfig: string;
  /** The kubelet API's port (the same on every node: each has its own address). */
  kubeletPort: number;
  /** The runtime's streaming server port (exec, attach, port-forward), on the node's address. */
  streamPort: number;
  /** Where the kubelet API's connections are terminated: one TLS server for the nodes of a process, with one serving pair whose SANs hold their addresses. */
  tlsFront: TlsFront;
  /** The cluster CA: client certificates it signed (the apiserver's) authenticate at the kubelet API. */
  clientCaPem: string;
  nodeLabels: Record<string, string>;
  timeScale?: number;
  /** Simulated registry bandwidth in bytes/s (0: instant pulls). */
  pullBytesPerSecond?: number;
  clusterDNS?: string[];
  clusterDomain?: string;
  /** kubelet log verbosity (the runner's kubelets run at 2). */
  verbosity?: number;
  /** The kubelet's --node-lease-duration-seconds (its Lease is renewed every quarter of it; default 40). */
  nodeLeaseDurationSeconds?: number;
  /** The kubelet's --node-status-update-frequency (default 10 s). */
  nodeStatusUpdateFrequencyMs?: number;
  /** The worker's log files, appended to in batches (one of its own when absent). */
  logFiles?: LogFiles;
  /** The worker's pod sync admission, shared by its nodes (absent: every sync starts at once). */
  podSyncSlots?: SyncSlots;
}

export interface HollowNode {
  nodeName: string;
  kubelet: RunningKubelet;
  runtime: ContainerdHandle;
  stop(): Promise<void>;
}

/** A logger writing to `<dir>/logs/<component>.log`, and its file to close. */
function fileLogger(files: LogFiles, dir: string, component: 'kubelet' | 'containerd', node: string, verbosity: number): { log: Logger; close: () => Promise<void> } {
  // A kubelet's loop still running when the node stops (an in-flight status sync) may log after the file closed: dropped.
  const file = files.open(join(dir, 'logs', `${component}.log`));
  const write = file.write;
  const log = component === 'kubelet' ? createLogger({ component, node, verbosity, format: 'text', write }) : createLogger({ component, node, level: 'info', style: 'logrus', format: 'text', write });
  return { log, close: file.close };
}

export async function startHollowNode(o: HollowNodeOptions): Promise<HollowNode> {
  const root = join(o.dir, 'root');
  const sock = join(root, 'run', 'containerd', 'containerd.sock');
  const kubeconfig = join(o.dir, 'kubelet.conf');
  const rootDir = join(o.dir, 'kubelet');
  const certDir = join(rootDir, 'pki');
  const timeScale = o.timeScale ?? 1;
  const files = o.logFiles ?? new LogFiles();
  const klog = fileLogger(files, o.dir, 'kubelet', o.nodeName, o.verbosity ?? 2);
  const clog = fileLogger(files, o.dir, 'containerd', o.nodeName, 0);
  const closeLogs = () => Promise.all([klog.close(), clog.close()]).then(() => {});
  let runtime: ContainerdHandle | undefined;
  try {
    runtime = await startContainerd({
      nodeName: o.nodeName,
      address: sock,
      root: join(o.dir, 'containerd'),
      // No health server and no process metrics per runtime: the process has one of each.
      healthPort: -1,
      processMetrics: false,
      timeScale,
      pullBytesPerSecond: o.pullBytesPerSecond ?? 0,
      networkMode: 'loopback',
      streamServerAddress: o.nodeIP,
      streamServerPort: o.streamPort,
      // Containers run in this process (no shim process per pod) and end with it.
      shims: false,
      // The only client is the kubelet below (grpc-js, a plain :authority).
      authorityFront: false,
      // No CRI call records (no NATS; kubelab trace does not see hollow nodes) and, without a health port, no call metrics.
      callRecords: false,
      logger: clog.log,
    });
    klog.log.info('Kubelet version (hollow node)', { node: o.nodeName, nodeIP: o.nodeIP });
    const creds = await loadClientCert({ kubeconfigPath: kubeconfig, bootstrapKubeconfigPath: o.bootstrapKubeconfig, certDir, nodeName: o.nodeName, log: klog.log });
    const kubelet = await startKubelet({
      apiserver: o.apiserver,
      apiserverTls: clientTlsFromCredentials(creds),
      // As kubemark's hollow kubelet (KubeletConfiguration's default): the certificate it was given or bootstrapped is kept, not rotated.
      rotateCertificates: false,
      certDir,
      nodeName: o.nodeName,
      nodeIP: o.nodeIP,
      nodeLabels: o.nodeLabels,
      containerRuntimeEndpoint: `unix://${sock}`,
      rootDir,
      podLogsDir: join(o.dir, 'pods'),
      nodeRoot: root,
      address: o.nodeIP,
      port: o.kubeletPort,
      // The healthz port is the local node's systemd watchdog's; a hollow node has none.
      healthzPort: -1,
      tlsFront: o.tlsFront,
      clientCaPem: o.clientCaPem,
      clusterDNS: o.clusterDNS ?? [],
      clusterDomain: o.clusterDomain ?? '',
      timeScale,
      ...(o.nodeLeaseDurationSeconds ? { nodeLeaseDurationSeconds: o.nodeLeaseDurationSeconds } : {}),
      ...(o.nodeStatusUpdateFrequencyMs ? { nodeStatusUpdateFrequencyMs: o.nodeStatusUpdateFrequencyMs } : {}),
      // The runtime's container events drive the PLEG; the generic relist runs every 5 minutes (upstream EventedPLEG):
      // a relist each second is two CRI calls per node per second, more than the process can serve for a thousand nodes.
      featureGates: { EventedPLEG: true },
      processMetrics: false,
      ...(o.podSyncSlots ? { podSyncSlots: o.podSyncSlots } : {}),
      logger: klog.log,
    });
    const rt = runtime;
    let stopped = false;
    return {
      nodeName: o.nodeName,
      kubelet,
      runtime: rt,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await kubelet.stop();
        await rt.stop();
        await closeLogs();
      },
    };
  } catch (e) {
    await runtime?.stop().catch(() => {});
    await closeLogs();
    throw e;
  }
}
