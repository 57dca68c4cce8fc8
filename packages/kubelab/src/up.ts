// `kubelab up`: the whole cluster as local processes in the foreground.

import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { which } from '@kubelab/component-base';
import { flagOwners, routeFlags } from './flag-routing.js';
import { serviceEntry, stateDirFrom } from './paths.js';
import { RESTARTED_STATIC_PODS, RestartBackOff, Supervisor, waitHealthy } from './supervisor.js';
import { loadKubeconfig } from '@kubelab/pki/kubeconfig';
import type { Node } from '@kubelab/api';
import { getText, type ClientTlsFiles } from './http-get.js';
import { kubeadmInit } from './kubeadm.js';
import { uploadBootstrapToken } from './bootstrap-token.js';
import { applyNpdAddon } from './npd-addon.js';
import { DEFAULT_SERVICE_CIDR, applyCorednsAddon } from './coredns-addon.js';
import { applyNetworkPolicyAddon } from './network-policy-addon.js';
import { applyMetricsServerAddon } from './metrics-server-addon.js';
import { applyStorageAddon } from './storage-addon.js';
import { applyDashboardAddon } from './dashboard-addon.js';
import { applyDaemonSetAddons, localStaticPods, markControlPlane, writeStaticPods } from './control-plane-node.js';
import { SharedInformerFactory } from '@kubelab/client';
import { adminClientset } from './admin-client.js';
import { readNatsTls } from '@kubelab/nats';
import { ensureCriHistory } from './kubeadm-nats.js';
import { HA_RESTARTED, ensureReplicatedBucket, haComponents, haStaticPodView, isApiReady, isStoreReady, writeHaFiles } from './ha.js';
import { startNodeAgents, type NodeAgents } from './node-control.js';
import { nodeTakesPods } from './node-ready.js';
import { kubeletFinalizePhase } from './kubelet-finalize.js';
import { startLeafAdmission, type LeafAdmission } from './leaf-admission.js';
import { startConcurrency, startPlan } from './start-plan.js';
import { MAX_HOLLOW_NODES, hollowComponents, hollowControllerManagerArgs, hollowNodeNames, prepareHollowNodes } from './hollow.js';
import {
  CONTROL_PLANE_NODE,
  checkAdvertiseAddress,
  clusterInfo,
  components,
  natsClientFiles,
  controlPlanePorts,
  defaultTracingEndpoint,
  kubeadmFiles,
  natsConfig,
  nodeDir,
  nodeNames,
  nodePorts,
  nodeRoot,
  runnerFlags,
  staticPodPath,
  type ComponentSpec,
  type Layout,
} from './topology.js';

export interface UpArgs {
  nodes: number;
  stateDir: string;
  portOffset: number;
  /** kubeadm init's --apiserver-advertise-address (nodes on other machines join there). */
  advertiseAddress?: string;
  componentArgs: string[];
  /** --ha: three etcd members (NATS), apiservers behind haproxy, schedulers and controller-managers (ha.ts). */
  ha?: boolean;
  /** --hollow: the workers are hollow nodes (hollow.ts), many per process. */
  hollow: boolean;
}

/** Most nodes one runner starts. */
const MAX_NODES = 50;
/** How long a started process may take to answer its health check (three helpers saw 30 s missed at load 30-48 on two cores). */
const HEALTH_DEADLINE_MS = 90_000;

export function parseUpArgs(argv: string[]): UpArgs {
  let nodes = 2;
  let nodesArg: string | undefined;
  let hollow = false;
  let stateDir: string | undefined;
  let portOffset = 0;
  let advertiseAddress: string | undefined;
  const componentArgs: string[] = [];
  let ha = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (name === '--nodes') {
      nodesArg = value();
      nodes = Number(nodesArg);
    } else if (name === '--hollow') hollow = true;
    else if (name === '--state-dir') stateDir = value();
    else if (name === '--apiserver-advertise-address') advertiseAddress = checkAdvertiseAddress(value());
    else if (name === '--ha') ha = true;
    else if (name === '--port-offset') {
      const v = value();
      portOffset = Number(v);
      // The highest port a full runner uses is the last node's containerd health port.
      const limit = 65535 - nodePorts(MAX_NODES).containerdHealth;
      if (!Number.isInteger(portOffset) || portOffset < 0 || portOffset > limit) throw new Error(`--port-offset must be a whole number from 0 to ${limit}, got "${v}"`);
    } else componentArgs.push(a);
  }
  const maxNodes = hollow ? MAX_HOLLOW_NODES : MAX_NODES;
  if (!Number.isInteger(nodes) || nodes < 0 || nodes > maxNodes) throw new Error(`--nodes must be a whole number from 0 to ${maxNodes}${hollow ? ' with --hollow' : ''}, got "${nodesArg}"`);
  return { nodes, stateDir: stateDirFrom(stateDir), portOffset, ...(advertiseAddress ? { advertiseAddress } : {}), componentArgs, ...(ha ? { ha } : {}), hollow };
}

/** The dashboard's control-plane components → the runner's processes standing for those static pods. */
const STATIC_POD_PROCESSES: Record<string, string> = { 'kube-scheduler': 'scheduler', 'kube-controller-manager': 'controller-manager' };

const NATS_MISSING = 'kubelab up needs nats-server on PATH: install it (Debian/Ubuntu: apt-get install nats-server) or run the cluster in containers with `docker compose up`.';

export async function up(argv: string[]): Promise<number> {
  const args = parseUpArgs(argv);
  const natsBin = which('nats-server');
  if (!natsBin) {
    process.stderr.write(NATS_MISSING + '\n');
    return 1;
  }
  // --hollow: the process nodes are the control-plane node only; the workers are hollow nodes.
  const layout: Layout = { stateDir: args.stateDir, nodes: args.hollow ? 0 : args.nodes, portOffset: args.portOffset, ports: controlPlanePorts(args.portOffset) };
  if (args.advertiseAddress) layout.advertiseAddress = args.advertiseAddress;
  const hollowNodes = args.hollow ? args.nodes : 0;
  const ha = args.ha === true;
  const specs = [...(ha ? haComponents(layout, components(layout)) : components(layout)), ...hollowComponents(layout, hollowNodes)];
  const haproxyBin = ha ? which('haproxy') : undefined;
  if (ha && !haproxyBin) {
    process.stderr.write("kubelab up --ha needs haproxy on PATH, the apiservers' load balancer: install it (Debian/Ubuntu: apt-get install haproxy).\n");
    return 1;
  }

  // Services not built yet are skipped with a note, so a partial build still runs.
  const entries = new Map<string, string>();
  const skipped = new Set<string>();
  for (const s of specs) {
    if (s.service === 'nats' || s.service === 'haproxy' || entries.has(s.service)) continue;
    const e = serviceEntry(s.service);
    if (e) entries.set(s.service, e);
    else skipped.add(s.service);
  }
  let routed;
  try {
    const tracing = defaultTracingEndpoint(args.componentArgs, layout.ports);
    if (tracing.endpoint) process.stdout.write(`tracing: the components export to the dashboard's OTLP receiver (${tracing.endpoint}); its Traces view shows them\n`);
    // Asking each binary for its flags loads all of them (seconds): only when there are flags to route.
    routed = routeFlags(tracing.args, tracing.args.length ? await flagOwners(entries) : new Map());
    refuseRunnerFlags(routed.byService, runnerFlags(specs));
    for (const a of hollowControllerManagerArgs(hollowNodes)) routed.byService.set('controller-manager', [a, ...(routed.byService.get('controller-manager') ?? [])]);
  } catch (e) {
    process.stderr.write(`kubelab up: ${(e as Error).message}\n`);
    return 2;
  }

  mkdirSync(layout.stateDir, { recursive: true });
  for (const node of nodeNames(layout)) {
    for (const sub of ['pods', 'kubelet', 'containerd']) mkdirSync(join(nodeDir(layout, node), sub), { recursive: true });
    prepareNodeRoot(nodeRoot(layout, node));
  }
  const kubeconfigPath = join(layout.stateDir, 'kubeconfig');
  await kubeadmInit(layout, kubeconfigPath);
  if (args.hollow) await prepareHollowNodes(layout, hollowNodes);
  // kubeadm's control-plane and etcd phases: the static pods standing for this runner's processes.
  await writeStaticPods(staticPodPath(layout, CONTROL_PLANE_NODE), localStaticPods(layout, ha ? haStaticPodView(specs) : specs), (l) => process.stdout.write(`${l}\n`));
  const files = kubeadmFiles(layout);
  const caPem = readFileSync(files.caCert, 'utf8');
  writeFileSync(join(layout.stateDir, 'nats.conf'), natsConfig(layout));
  if (ha) await writeHaFiles(layout);
  writeFileSync(join(layout.stateDir, 'cluster.json'), JSON.stringify(clusterInfo(layout), null, 2) + '\n');

  let failed = false;
  const restarts = new RestartBackOff();
  const sup = new Supervisor({
    stateDir: layout.stateDir,
    command: (spec: ComponentSpec) => (spec.service === 'nats' ? [natsBin] : spec.service === 'haproxy' ? [haproxyBin!] : [process.execPath, entries.get(spec.service)!]),
    onExit: (r, code, signal) => {
      process.stdout.write(`${r.spec.name} exited (${signal ?? `code ${code}`}); logs: ${r.logFile}\n`);
      // The scheduler and controller-manager exit when they lose their lease (a store outage longer than the renew deadline);
      // their static pods' restartPolicy Always has the control-plane node's kubelet start them again, after its back-off.
      if (stopRequested || heldDown.has(r.spec.name) || !(ha ? HA_RESTARTED : RESTARTED_STATIC_PODS).has(r.spec.service)) return;
      const delay = restarts.next(r.spec.name);
      process.stdout.write(`restarting ${r.spec.name} in ${delay / 1000}s (back-off, as the kubelet restarts a static pod)\n`);
      setTimeout(() => {
        if (stopRequested || failed) return;
        void sup.start(r.spec, routed.byService.get(r.spec.service) ?? []).then(
          (again) => {
            restarts.started(r.spec.name);
            process.stdout.write(`started ${r.spec.name} (pid ${again?.child.pid ?? '-'})\n`);
          },
          (e: Error) => process.stderr.write(`kubelab up: cannot restart ${r.spec.name}: ${e.message}\n`),
        );
      }, delay).unref();
    },
    onRestart: (r) => process.stdout.write(`started ${r.spec.name} (pid ${r.child.pid}) by systemctl\n`),
  });

  let agents: NodeAgents | undefined;
  /** Control-plane processes the dashboard stopped: not restarted until it starts them (as a static pod whose manifest was moved away). */
  const heldDown = new Set<string>();
  const controlPlane = async (action: 'stop' | 'start', component: string) => {
    const spec = specs.find((s) => s.name === STATIC_POD_PROCESSES[component]);
    if (!spec) return { ok: false, output: `${component} is not run by this runner\n` };
    const running = sup.get(spec.name);
    if (action === 'stop') {
      heldDown.add(spec.name);
      if (!running) return { ok: true, output: `${component} was not running\n` };
      running.child.kill('SIGTERM');
      await running.exited;
      return { ok: true, output: `${component} stopped (pid ${running.child.pid}); it stays down until started again\n` };
    }
    heldDown.delete(spec.name);
    if (running) return { ok: true, output: `${component} is running (pid ${running.child.pid})\n` };
    const again = await sup.start(spec, routed.byService.get(spec.service) ?? []);
    return { ok: true, output: `${component} started (pid ${again?.child.pid ?? '-'})\n` };
  };
  let leafAdmission: LeafAdmission | undefined;
  const shutdown = async () => {
    process.stdout.write('stopping cluster\n');
    leafAdmission?.close();
    await agents?.close();
    await sup.stopAll();
    process.stdout.write('stopped\n');
  };
  let stopRequested = false;
  const stopped = new Promise<void>((resolve) => {
    const onSignal = () => {
      if (stopRequested) return;
      stopRequested = true;
      void shutdown().then(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

  for (const svc of skipped) process.stdout.write(`skipping ${svc}: services/${svc} is not built (run pnpm build)\n`);
  /** Starts one process and waits for its health (if it has one); false when it died or never became healthy. */
  const startOne = async (spec: ComponentSpec): Promise<boolean> => {
    // After a failure elsewhere (the cluster is being torn down) or a stop request, nothing more starts.
    if (stopRequested || failed || skipped.has(spec.service)) return true;
    const r = await sup.start(spec, routed.byService.get(spec.service) ?? []);
    process.stdout.write(`started ${spec.name} (pid ${r?.child.pid ?? '-'})\n`);
    if (!spec.health) return true;
    let dead = !r;
    void r?.exited.then(() => (dead = true));
    try {
      // A process that is alive but slow (a loaded machine) gets time; a dead one fails at once.
      await waitHealthy(spec.health, HEALTH_DEADLINE_MS, () => dead, spec.insecureHealth ? { insecure: true } : { tls: { ca: caPem } });
      return true;
    } catch (e) {
      // Stopped meanwhile (Ctrl-C, or the dashboard holding it down): not a failure of the start.
      if (stopRequested || heldDown.has(spec.name)) return true;
      process.stderr.write(`${spec.name} did not become healthy: ${(e as Error).message}\n${sup.tail(spec.name)}\n`);
      return false;
    }
  };
  const plan = startPlan(specs, ha);
  for (const spec of plan.serial) {
    if (stopRequested) break;
    if (!(await startOne(spec))) {
      failed = true;
      break;
    }
    if (isStoreReady(spec, ha)) {
      if (ha && !(await haBucketPhase(layout))) {
        failed = true;
        break;
      }
      await ensureTraceHistory(layout);
      // The nodes' agents: the dashboard's stop/start/fault requests (kubelab.control.<node>).
      agents = await startNodeAgents({ stateDir: layout.stateDir, natsUrl: clusterInfo(layout).natsUrl, nodes: nodeNames(layout), controlPlane, log: (l) => process.stdout.write(`${l}\n`) });
    }
    if (isApiReady(spec, ha)) {
      // Nodes from other machines (`kubelab join`): their leaf nodes are let into NATS once their kubelet's certificate is issued.
      leafAdmission = startLeafAdmission({ layout, reload: () => sup.get('nats')?.child.kill('SIGHUP'), log: (l) => process.stdout.write(`${l}\n`) });
      try {
        await bootstrapTokenPhase(layout, args.hollow);
      } catch (e) {
        process.stderr.write(`kubelab up: kubeadm's bootstrap-token phase failed, nodes cannot join: ${(e as Error).message}\n`);
        failed = true;
        break;
      }
    }
  }
  if (!failed) {
    // The rest together, a few groups at a time (start-plan.ts); the first failure stops what has not started yet.
    const queue = [...plan.groups];
    const lane = async (): Promise<void> => {
      for (let group = queue.shift(); group && !failed; group = queue.shift()) {
        for (const spec of group) {
          if (await startOne(spec)) continue;
          failed = true;
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(queue.length, startConcurrency(availableParallelism())) }, lane));
  }
  if (failed) {
    await agents?.close();
    await sup.stopAll();
    return 1;
  }
  if (!stopRequested) {
    const kubelets = skipped.has('kubelet') ? [] : [...nodeNames(layout), ...(skipped.has('kubemark') ? [] : hollowNodeNames(hollowNodes))];
    const admin = loadKubeconfig(files.admin);
    const tls: ClientTlsFiles = { ca: caPem, ...(admin.clientCertPem && admin.clientKeyPem ? { cert: admin.clientCertPem, key: admin.clientKeyPem } : {}) };
    const marked = kubelets.length ? markControlPlanePhase(layout, () => stopRequested) : Promise.resolve(true);
    const finalized = kubelets.includes(CONTROL_PLANE_NODE) ? kubeletFinalize(layout, files.kubelet(CONTROL_PLANE_NODE), () => stopRequested) : Promise.resolve();
    void Promise.all([marked, waitClusterReady(layout, kubelets, tls, () => stopRequested), finalized]).then(([m, ok]) => {
      if (m && ok) {
        const dashboard = skipped.has('dashboard') ? '' : `  dashboard: http://127.0.0.1:${layout.ports.dashboard}/\n`;
        process.stdout.write(`cluster ready\n  export KUBECONFIG=${kubeconfigPath}\n  kubectl get nodes\n${dashboard}`);
      }
    });
  }
  await stopped;
  return 0;
}

/** The HA store's bucket at replicas 3 before the apiservers start (ha.ts); false when the NATS cluster did not form. */
async function haBucketPhase(layout: Layout): Promise<boolean> {
  try {
    const b = await ensureReplicatedBucket(layout);
    process.stdout.write(`[etcd] object store bucket "kubelab" replicated on ${b.replicas} NATS servers (JetStream RAFT), leader ${b.leader ?? 'electing'}\n`);
    return true;
  } catch (e) {
    process.stderr.write(`kubelab up --ha: the NATS cluster did not accept the replicated bucket: ${(e as Error).message}\n`);
    return false;
  }
}

/** The CRI record stream `kubelab trace --since` replays (ensureCriHistory); a failure only costs the history. */
async function ensureTraceHistory(layout: Layout): Promise<void> {
  try {
    const r = await ensureCriHistory(clusterInfo(layout).natsUrl, readNatsTls(natsClientFiles(layout.stateDir, 'admin')));
    if (r.state === 'unavailable') process.stderr.write(`kubelab up: no CRI call history for kubelab trace --since: ${r.reason ?? 'JetStream unavailable'}\n`);
  } catch (e) {
    process.stderr.write(`kubelab up: no CRI call history for kubelab trace --since: ${(e as Error).message}\n`);
  }
}

/**
 * kubeadm init's bootstrap-token phase, before any kubelet starts (as
 * `kubeadm join` runs after init): the token's Secret and cluster-info, as
 * kubernetes-admin (admin.conf) over gRPC.
 */
async function bootstrapTokenPhase(layout: Layout, hollow = false): Promise<void> {
  const files = kubeadmFiles(layout);
  const cs = adminClientset(layout);
  try {
    await uploadBootstrapToken(cs, files.bootstrapToken, (l) => process.stdout.write(`${l}\n`));
    await applyNpdAddon(cs, (l) => process.stdout.write(`${l}\n`));
    await applyCorednsAddon(cs, { serviceCidr: DEFAULT_SERVICE_CIDR, apiserver: `https://127.0.0.1:${layout.ports.apiserver}`, hollow }, (l) => process.stdout.write(`${l}\n`));
    await applyDaemonSetAddons(cs, 'local', (l) => process.stdout.write(`${l}\n`), hollow);
    await applyNetworkPolicyAddon(cs, 'local', (l) => process.stdout.write(`${l}\n`), hollow);
    await applyMetricsServerAddon(cs, layout.ports.metricsServer, (l) => process.stdout.write(`${l}\n`), 'local', hollow);
    await applyStorageAddon(cs, (l) => process.stdout.write(`${l}\n`));
    await applyDashboardAddon(cs, (l) => process.stdout.write(`${l}\n`));
  } finally {
    cs.close();
  }
}

/** kubeadm's mark-control-plane phase once the control-plane node's kubelet registered it; a failure is reported, the cluster keeps running. */
async function markControlPlanePhase(layout: Layout, cancelled: () => boolean): Promise<boolean> {
  const cs = adminClientset(layout);
  try {
    return await markControlPlane(cs, CONTROL_PLANE_NODE, (l) => process.stdout.write(`${l}\n`), cancelled);
  } catch (e) {
    process.stderr.write(`kubelab up: kubeadm's mark-control-plane phase failed: ${(e as Error).message}\n`);
    return false;
  } finally {
    cs.close();
  }
}

/** kubeadm's kubelet-finalize phase for the control-plane node's kubelet; a timeout is reported, kubelet.conf kept. */
async function kubeletFinalize(layout: Layout, kubeconfigPath: string, cancelled: () => boolean): Promise<void> {
  const certDir = join(nodeDir(layout, CONTROL_PLANE_NODE), 'kubelet', 'pki');
  try {
    const done = await kubeletFinalizePhase({ kubeconfigPath, certDir, log: (l) => process.stdout.write(`${l}\n`), cancelled });
    if (!done && !cancelled()) process.stderr.write(`kubelab up: kubeadm's kubelet-finalize phase: no kubelet-client-current.pem in ${certDir}; ${kubeconfigPath} keeps kubeadm's first certificate\n`);
  } catch (e) {
    process.stderr.write(`kubelab up: kubeadm's kubelet-finalize phase failed: ${(e as Error).message}\n`);
  }
}

/** The node's `/` as a kubeadm node has it: /run/containerd (the runtime's socket), /var/run → /run, crictl's /etc/crictl.yaml. */
export function prepareNodeRoot(root: string): void {
  mkdirSync(join(root, 'run', 'containerd'), { recursive: true });
  mkdirSync(join(root, 'var'), { recursive: true });
  if (!existsSync(join(root, 'var', 'run'))) symlinkSync('../run', join(root, 'var', 'run'));
  mkdirSync(join(root, 'etc'), { recursive: true });
  const endpoint = 'unix:///run/containerd/containerd.sock';
  writeFileSync(join(root, 'etc', 'crictl.yaml'), `runtime-endpoint: ${endpoint}\nimage-endpoint: ${endpoint}\ntimeout: 10\n`);
}

/** A flag the runner sets itself (a port, address or path of the local topology) cannot also come from the user. */
export function refuseRunnerFlags(byService: Map<string, string[]>, owned: Map<string, Set<string>>): void {
  for (const [svc, args] of byService) {
    for (const a of args) {
      const name = a.slice(2).split('=')[0]!;
      if (owned.get(svc)?.has(name)) {
        throw new Error(`--${name} is set by kubelab up itself (the ports, addresses and paths of the local cluster); use --port-offset N to move every port, --state-dir DIR for the paths`);
      }
    }
  }
}

/** Control plane healthy and (once kubelets exist) every node Ready by name, the control-plane node's included. */
async function waitClusterReady(layout: Layout, nodes: string[], tls: ClientTlsFiles, cancelled: () => boolean): Promise<boolean> {
  const base = `https://127.0.0.1:${layout.ports.apiserver}`;
  const pause = () => new Promise((r) => setTimeout(r, 250));
  for (;;) {
    if (cancelled()) return false;
    const ready = await getText(`${base}/readyz`, { tls }).catch(() => undefined);
    if (ready?.status === 200) break;
    await pause();
  }
  if (nodes.length === 0) return true;
  // The nodes through an informer (one list, then a watch), as `kubectl wait` follows them: a thousand hollow
  // nodes' list every 250 ms would be megabytes of JSON a second for the apiserver and for this process.
  const cs = adminClientset(layout);
  const factory = new SharedInformerFactory(cs);
  const informer = factory.core.nodes();
  const waiting = new Set(nodes);
  let done = (): void => undefined;
  const allReady = new Promise<void>((r) => (done = r));
  const seen = (n: Node) => {
    if (nodeTakesPods(n)) waiting.delete(n.metadata.name ?? '');
    if (waiting.size === 0) done();
  };
  informer.addEventHandler({ onAdd: seen, onUpdate: (_old, n) => seen(n) });
  factory.start();
  try {
    while (waiting.size > 0) {
      if (cancelled()) return false;
      await Promise.race([allReady, pause()]);
    }
    return true;
  } finally {
    await factory.shutdown();
    cs.close();
  }
}
