// The Node Problem Detector against a secured apiserver (Node,RBAC; its own
// identity bound to system:node-problem-detector as upstream's rbac.yaml
// does): kernel log lines appended to the node's journal become the node's
// conditions and events with upstream's texts, the health checks turn their
// conditions True for a kubelet and a runtime that do not answer, and the
// Prometheus port shows problem_counter and problem_gauge.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event, Node, NodeCondition } from '@kubelab/api';
import { startTestCluster, type TestCluster } from '@kubelab/apiserver/testing';
import { createClientset, type Clientset } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { freePort, requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_DIR, DEFAULT_CUSTOM_PLUGIN_MONITORS, DEFAULT_SYSTEM_LOG_MONITORS } from '../src/config.js';
import { appendJournal } from '../src/journal-source.js';
import { startNodeProblemDetector, type NodeProblemDetectorHandle } from '../src/server.js';

const NODE = 'node-1';
const NPD_USER = 'system:serviceaccount:kube-system:node-problem-detector';
const POLL = { timeoutMs: 10_000 };

/** systemd's own line about a unit (SYSLOG_IDENTIFIER=systemd, UNIT=…). */
function systemdLine(message: string, unit: string, atMs: number): Parameters<typeof appendJournal>[1] {
  return { __REALTIME_TIMESTAMP: String(atMs * 1000), _HOSTNAME: NODE, _PID: '1', _TRANSPORT: 'journal', SYSLOG_IDENTIFIER: 'systemd', PRIORITY: '6', UNIT: unit, MESSAGE: message };
}

function kernelLine(message: string): Parameters<typeof appendJournal>[1] {
  const now = Date.now();
  return {
    __REALTIME_TIMESTAMP: String(now * 1000),
    _SOURCE_MONOTONIC_TIMESTAMP: String(Math.round(performance.now() * 1000)),
    _HOSTNAME: NODE,
    _TRANSPORT: 'kernel',
    SYSLOG_IDENTIFIER: 'kernel',
    PRIORITY: '3',
    MESSAGE: message,
  };
}

describe.runIf(requireTool('nats-server'))('node-problem-detector with the apiserver', () => {
  let cluster: TestCluster;
  let admin: Clientset;
  let npdClient: Clientset;
  let npd: NodeProblemDetectorHandle;
  let kubelet: Server;
  let root: string;

  const condition = async (type: string): Promise<NodeCondition | undefined> => ((await admin.core.nodes().get(NODE)) as Node).status?.conditions?.find((c) => c.type === type);
  const conditionWith = (type: string, status: string) =>
    waitFor(
      `${type}=${status} on ${NODE}`,
      async () => {
        const c = await condition(type);
        return c?.status === status ? c : undefined;
      },
      POLL,
    );
  const eventWith = (reason: string) => waitFor(`a ${reason} event`, async () => (await admin.core.events('default').list()).items.find((e: Event) => e.reason === reason), POLL);

  beforeAll(async () => {
    cluster = await startTestCluster({ authorizationModes: ['Node', 'RBAC'] });
    admin = createClientset({ ...cluster.clientConfig, component: 'test' });
    await admin.core.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name: NODE } });
    // deployment/rbac.yaml of upstream: the DaemonSet's service account bound to the bootstrap role.
    await admin.rbac.clusterRoleBindings().create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'npd-binding' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-problem-detector' },
      subjects: [{ kind: 'ServiceAccount', name: 'node-problem-detector', namespace: 'kube-system' }],
    });
    npdClient = createClientset({
      ...(await cluster.clientConfigFor({ commonName: NPD_USER, organizations: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'] })),
      component: 'node-problem-detector',
    });
    // A kubelet whose healthz fails.
    kubelet = createServer((_req, res) => {
      res.writeHead(500);
      res.end('[-]syncloop failed\nhealthz check failed');
    });
    await new Promise<void>((r) => kubelet.listen(0, '127.0.0.1', r));
    root = mkdtempSync(join(tmpdir(), 'npd-root-'));
    // A crash-looping kubelet in the last minutes: started five times, never stopped (the log counter's window is 20m).
    for (let i = 5; i > 0; i--) await appendJournal(root, systemdLine('Started kubelet.service - kubelet: The Kubernetes Node Agent.', 'kubelet.service', Date.now() - i * 10_000));
    npd = await startNodeProblemDetector({
      nodeName: NODE,
      nodeRoot: root,
      env: { HOST_ADDRESS: '127.0.0.1', KUBELET_PORT: String((kubelet.address() as AddressInfo).port) },
      clientset: npdClient,
      systemLogMonitors: DEFAULT_SYSTEM_LOG_MONITORS.map((f) => join(DEFAULT_CONFIG_DIR, f)),
      // The runtime's socket does not exist under the temporary node root: the CRI check fails.
      // The node booted an hour ago: the log counter's --delay=5m after boot is long past.
      uptimeMs: () => 3_600_000,
      customPluginMonitors: DEFAULT_CUSTOM_PLUGIN_MONITORS.map((f) => join(DEFAULT_CONFIG_DIR, f)),
      serverPort: await freePort(),
      prometheusPort: await freePort(),
      logger: createLogger({ component: 'node-problem-detector', format: 'json', write: () => undefined }),
    });
  }, 30_000);

  afterAll(async () => {
    await npd?.stop();
    npdClient?.close();
    admin?.close();
    kubelet?.close();
    await cluster?.cleanup();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('sets the initial conditions of its monitors at start, with upstream reasons and messages', async () => {
    const c = await waitFor('KernelDeadlock on the node', () => condition('KernelDeadlock'), POLL);
    expect(c).toMatchObject({ status: 'False', reason: 'KernelHasNoDeadlock', message: 'kernel has no deadlock' });
    expect(await conditionWith('ReadonlyFilesystem', 'False')).toMatchObject({ reason: 'FilesystemIsNotReadOnly', message: 'Filesystem is not read-only' });
    expect(c?.lastHeartbeatTime).toBeTruthy();
  });

  it('a hung task in the kernel log: TaskHung event, and a hung docker task turns KernelDeadlock True', async () => {
    await appendJournal(root, kernelLine('INFO: task tar:2 blocked for more than 120 seconds.'));
    const hung = await eventWith('TaskHung');
    expect(hung).toMatchObject({
      type: 'Warning',
      message: 'INFO: task tar:2 blocked for more than 120 seconds.',
      source: { component: 'kernel-monitor', host: NODE },
      involvedObject: { kind: 'Node', name: NODE, apiVersion: 'v1' },
    });
    expect((await condition('KernelDeadlock'))?.status).toBe('False');

    await appendJournal(root, kernelLine('INFO: task docker:20744 blocked for more than 120 seconds.'));
    const deadlock = await conditionWith('KernelDeadlock', 'True');
    expect(deadlock).toMatchObject({ reason: 'DockerHung', message: 'INFO: task docker:20744 blocked for more than 120 seconds.' });
    expect(await eventWith('DockerHung')).toMatchObject({
      type: 'Warning',
      message: 'Node condition KernelDeadlock is now: True, reason: DockerHung, message: "INFO: task docker:20744 blocked for more than 120 seconds."',
      source: { component: 'kernel-monitor', host: NODE },
    });
  });

  it('an OOM kill in the kernel log: an OOMKilling event with the kernel line', async () => {
    // upstream's test/kernel_log_generator/problems/oom_kill
    await appendJournal(root, kernelLine('Memory cgroup out of memory: Kill process 1012 (heapster) score 1035 or sacrifice child'));
    await appendJournal(root, kernelLine('Killed process 1012 (heapster) total-vm:327128kB, anon-rss:306328kB, file-rss:11132kB, shmem-rss:12345kB'));
    expect(await eventWith('OOMKilling')).toMatchObject({
      type: 'Warning',
      message: 'Killed process 1012 (heapster) total-vm:327128kB, anon-rss:306328kB, file-rss:11132kB, shmem-rss:12345kB',
      source: { component: 'kernel-monitor', host: NODE },
    });
  });

  it('a filesystem remounted read-only: ReadonlyFilesystem True', async () => {
    await appendJournal(root, kernelLine('EXT4-fs (sda1): Remounting filesystem read-only'));
    expect(await conditionWith('ReadonlyFilesystem', 'True')).toMatchObject({ reason: 'FilesystemIsReadOnly', message: 'EXT4-fs (sda1): Remounting filesystem read-only' });
    expect((await eventWith('FilesystemIsReadOnly')).source).toEqual({ component: 'readonly-monitor', host: NODE });
  });

  it('health checks: KubeletUnhealthy and ContainerRuntimeUnhealthy True with the health checker output', async () => {
    expect(await conditionWith('KubeletUnhealthy', 'True')).toMatchObject({ reason: 'KubeletUnhealthy', message: 'kubelet:kubelet was found unhealthy; repair flag : true' });
    expect(await conditionWith('ContainerRuntimeUnhealthy', 'True')).toMatchObject({ reason: 'ContainerdUnhealthy', message: 'cri:containerd was found unhealthy; repair flag : true' });
    expect((await eventWith('KubeletUnhealthy')).source).toEqual({ component: 'health-checker', host: NODE });
  });

  it('a kubelet restarted five times in 20 minutes: FrequentKubeletRestart True, KubeletStart events (count 5)', async () => {
    expect(await conditionWith('FrequentKubeletRestart', 'True')).toMatchObject({
      reason: 'FrequentKubeletRestart',
      message: 'Found 5 matching logs, which meets the threshold of 5',
    });
    expect(await condition('FrequentContainerdRestart')).toMatchObject({ status: 'False', reason: 'NoFrequentContainerdRestart', message: 'containerd is functioning properly' });
    const starts = await waitFor(
      'the KubeletStart event counted 5 times',
      async () => {
        const e = await eventWith('KubeletStart');
        return e.count === 5 ? e : undefined;
      },
      POLL,
    );
    expect(starts).toMatchObject({ type: 'Warning', message: 'Started kubelet.service - kubelet: The Kubernetes Node Agent.', source: { component: 'systemd-monitor', host: NODE } });
  });

  it('serves problem_counter and problem_gauge on its Prometheus port', async () => {
    const text = await (await fetch(`http://127.0.0.1:${npd.prometheusPort}/metrics`)).text();
    expect(text).toContain('# HELP problem_counter Number of times a specific type of problem have occurred.\n# TYPE problem_counter counter');
    expect(text).toContain('# HELP problem_gauge Whether a specific type of problem is affecting the node or not.\n# TYPE problem_gauge gauge');
    expect(text).toMatch(/^problem_counter\{reason="TaskHung"\} 2$/m);
    expect(text).toMatch(/^problem_counter\{reason="OOMKilling"\} 1$/m);
    expect(text).toMatch(/^problem_gauge\{reason="DockerHung",type="KernelDeadlock"\} 1$/m);
    expect(text).toMatch(/^problem_gauge\{reason="FilesystemIsReadOnly",type="ReadonlyFilesystem"\} 1$/m);
    expect(text).toMatch(/^problem_gauge\{reason="XfsHasShutdown",type="XfsShutdown"\} 0$/m);
  });

  it('serves the conditions it exports on /conditions', async () => {
    const body = (await (await fetch(`http://127.0.0.1:${npd.serverPort}/conditions`)).json()) as { type: string; status: string }[];
    expect(body.map((c) => `${c.type}=${c.status}`).sort()).toEqual([
      'ContainerRuntimeUnhealthy=True',
      'CperHardwareErrorFatal=False',
      'FrequentContainerdRestart=False',
      'FrequentDockerRestart=False',
      'FrequentKubeletRestart=True',
      'KernelDeadlock=True',
      'KubeletUnhealthy=True',
      'ReadonlyFilesystem=True',
      'XfsShutdown=False',
    ]);
  });

  it('is refused what its role does not allow (deleting the node)', async () => {
    await expect(npdClient.core.nodes().delete(NODE)).rejects.toThrow(/forbidden: User "system:serviceaccount:kube-system:node-problem-detector" cannot delete resource "nodes"/);
  });
});
