// `kubelab kubeadm …`: kubeadm's file phases as a command, for a setup step
// that is not `pnpm kubelab up` (the compose stack's one-shot `kubeadm-init`
// and `kubeconfig` services). Flag names are kubeadm's where it has one.

import { statSync } from 'node:fs';
import { chown } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FlagError, FlagSet } from '@kubelab/component-base';
import { checkExpirationCommand } from './certs-expiration.js';
import { encryptionConfigCommand } from './encryption-config.js';
import { criStreamCommand, kubeadmNatsCommand, NATS_USAGE_FLAGS, writeHostTraceFiles } from './kubeadm-nats.js';
import { copyKubeconfig, kubeadmInitFiles, type KubeadmInitOptions } from './kubeadm.js';
import { CONTROL_PLANE_USAGE, controlPlaneCommand } from './kubeadm-control-plane.js';
import { KUBEADM_HA_USAGE, kubeadmHaCommand } from './kubeadm-ha.js';
import { KUBEADM_HOLLOW_USAGE, kubeadmHollowCommand } from './kubeadm-hollow.js';

const initFlags = new FlagSet('kubelab kubeadm init')
  .string('dir', '/etc/kubernetes', "The control plane's /etc/kubernetes: pki/, admin.conf, super-admin.conf, controller-manager.conf, scheduler.conf, metrics-server.conf, encryption-config.yaml")
  .stringArray(
    'nodes',
    [],
    "Node names (comma-separated) of kubeadm init's own kind; each gets <nodes-dir>/<node>/kubelet.conf (user system:node:<node>), kube-proxy.conf and node-problem-detector.conf",
  )
  .stringArray(
    'join-nodes',
    [],
    'Node names (comma-separated) that join as with kubeadm join; each gets <nodes-dir>/<node>/bootstrap-kubelet.conf (the bootstrap token), kube-proxy.conf and node-problem-detector.conf, and its kubelet writes kubelet.conf',
  )
  .string('nodes-dir', '', "Folder holding one folder per node, that node's /etc/kubernetes (default <dir>/nodes)")
  .string('control-plane-endpoint', '127.0.0.1:6443', 'host:port of the apiserver written into every kubeconfig')
  .stringArray('apiserver-cert-extra-sans', [], "Extra Subject Alternative Names (DNS names and IPs) of the apiserver's serving certificate")
  .stringArray('etcd-cert-extra-sans', [], "kubelab (kubeadm's etcd.local.serverCertSANs): extra SANs of pki/etcd/server.crt, the names NATS in etcd's role is reached by")
  .string('service-cidr', '10.96.0.0/12', 'The Services range; its first address (the kubernetes Service) is a SAN of the serving certificate')
  .string('owner', '', 'kubelab: UID:GID given every file under --dir (the control-plane images run as 1000:1000)');

/** The `init` flags as kubeadmInitFiles' options (no I/O; errors are FlagErrors). */
export function parseInitArgs(argv: string[], env: NodeJS.ProcessEnv = {}): Omit<KubeadmInitOptions, 'log'> {
  const { values, rest } = initFlags.parse(argv, env);
  if (rest.length > 0) throw new FlagError(`unexpected argument "${rest[0]}"`);
  if (!values.dir) throw new FlagError('--dir must not be empty');
  const nodesDir = values['nodes-dir'] || join(values.dir, 'nodes');
  const names = (list: string[]) => list.map((n) => n.trim()).filter(Boolean);
  const nodes = names(values.nodes);
  const joinNodes = names(values['join-nodes']);
  for (const n of [...nodes, ...joinNodes]) {
    // A node name is a DNS subdomain (and becomes a folder name here).
    const flag = nodes.includes(n) ? '--nodes' : '--join-nodes';
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(n) || n.length > 253) throw new FlagError(`${flag}: "${n}" is not a valid node name (a lowercase RFC 1123 subdomain)`);
    if (nodes.includes(n) && joinNodes.includes(n)) throw new FlagError(`node "${n}" is in both --nodes and --join-nodes`);
  }
  const endpoint = values['control-plane-endpoint'];
  if (!/^[^/:\s]+:\d{1,5}$/.test(endpoint)) throw new FlagError(`--control-plane-endpoint "${endpoint}": want host:port`);
  let owner: KubeadmInitOptions['owner'];
  if (values.owner) {
    const m = /^(\d+):(\d+)$/.exec(values.owner);
    if (!m) throw new FlagError(`--owner "${values.owner}": want UID:GID (numbers)`);
    owner = { uid: Number(m[1]), gid: Number(m[2]) };
  }
  return {
    dir: values.dir,
    server: `https://${endpoint}`,
    serviceCidr: values['service-cidr'],
    apiserverCertExtraSans: values['apiserver-cert-extra-sans'],
    etcdCertExtraSans: values['etcd-cert-extra-sans'],
    nodes: [
      ...nodes.map((name) => ({ name, kubeletConf: join(nodesDir, name, 'kubelet.conf') })),
      ...joinNodes.map((name) => ({ name, kubeletConf: join(nodesDir, name, 'kubelet.conf'), join: true })),
    ],
    kubeProxyConfs: [...nodes, ...joinNodes].map((name) => join(nodesDir, name, 'kube-proxy.conf')),
    // Each node's Node Problem Detector (compose runs one per node) as its ServiceAccount.
    npdConfs: [...nodes, ...joinNodes].map((name) => join(nodesDir, name, 'node-problem-detector.conf')),
    // metrics-server's ServiceAccount identity, for compose's metrics-server service (as `kubelab up` writes it).
    metricsServerConfs: [join(values.dir, 'metrics-server.conf')],
    // The dashboard's ServiceAccount identity, for compose's dashboard service.
    dashboardConfs: [join(values.dir, 'kubelab-dashboard.conf')],
    // Each node's NetworkPolicy agent (kube-network-policies-N) as its ServiceAccount.
    netpolConfs: [...nodes, ...joinNodes].map((name) => join(nodesDir, name, 'kube-network-policies.conf')),
    ...(owner ? { owner } : {}),
  };
}

const adminFlags = new FlagSet('kubelab kubeadm admin-kubeconfig')
  .string('from', '/etc/kubernetes/admin.conf', 'The kubeconfig to copy')
  .string('server', '', 'The apiserver URL as the user reaches it (e.g. https://127.0.0.1:6443, a published port)')
  .string(
    'nats-url',
    '',
    "kubelab: NATS as the user reaches it (e.g. nats://127.0.0.1:4222, a published port); also writes beside OUT what `kubelab trace --state-dir` reads: the etcd CA, the trace identity from --from's pki/etcd, cluster.json",
  );

export function parseAdminKubeconfigArgs(argv: string[], env: NodeJS.ProcessEnv = {}): { from: string; server: string; out: string; natsUrl: string } {
  const { values, rest } = adminFlags.parse(argv, env);
  if (rest.length !== 1) throw new FlagError('want exactly one output path');
  if (values.server && !/^https:\/\/[^/\s]+$/.test(values.server)) throw new FlagError(`--server "${values.server}": want https://host:port`);
  if (values['nats-url'] && !/^(nats|tls):\/\/[^/\s]+$/.test(values['nats-url'])) throw new FlagError(`--nats-url "${values['nats-url']}": want nats://host:port`);
  if (values['nats-url'] && !values.server) throw new FlagError('--nats-url needs --server (cluster.json names both)');
  return { from: values.from, server: values.server, out: rest[0]!, natsUrl: values['nats-url'] };
}

const USAGE = `Usage: kubelab kubeadm <phase> [flags]

  init --dir DIR --nodes A [--join-nodes B,C] [--nodes-dir DIR] [--control-plane-endpoint HOST:PORT]
       [--apiserver-cert-extra-sans LIST] [--etcd-cert-extra-sans LIST] [--service-cidr CIDR] [--owner UID:GID]
          kubeadm init's certs and kubeconfig phases, each node's kubelet.conf (--nodes) or
          bootstrap-kubelet.conf (--join-nodes) and kube-proxy.conf, the bootstrap token
          (DIR/bootstrap-token.json, 24 h) and the encryption config; files that exist are kept
${CONTROL_PLANE_USAGE}  admin-kubeconfig [--from /etc/kubernetes/admin.conf] --server URL [--nats-url URL] OUT
          Copy admin.conf for the user (mode 0600, owned by OUT's folder's owner), with the server they reach;
          with --nats-url also the trace identity and cluster.json, for \`kubelab trace --state-dir <OUT's folder>\`
  encryption-config PATH
          Write the apiserver's --encryption-provider-config (aescbc key1 for secrets) unless PATH exists
  certs check-expiration [--cert-dir DIR | --state-dir DIR]
          When each certificate kubeadm init wrote expires (kubeconfigs read from the folder above
          --cert-dir), in kubeadm's tables; default /etc/kubernetes/pki where it exists, else the state dir's pki/
  nats DIR --nodes node-1,node-2 ${NATS_USAGE_FLAGS} [--cluster-members nats,nats-2,nats-3]
          Issue the NATS client certificates from DIR/pki/etcd/ca (kept when present) and write DIR/nats.conf
          (TLS with DIR/pki/etcd/server, a user per client certificate): what kubelab up does
  cri-stream DIR [--nats-url nats://127.0.0.1:4222] [--timeout 2m]
          Create the stream of CRI call records \`kubelab trace --since\` replays, as DIR's NATS admin
          (waits for NATS): what kubelab up does once nats-server is up
${KUBEADM_HA_USAGE}${KUBEADM_HOLLOW_USAGE}`;

export async function kubeadmCommand(argv: string[]): Promise<number> {
  const [phase, ...rest] = argv;
  try {
    switch (phase) {
      case 'init': {
        await kubeadmInitFiles({ ...parseInitArgs(rest, process.env), log: (l) => process.stdout.write(`${l}\n`) });
        return 0;
      }
      case 'admin-kubeconfig': {
        const a = parseAdminKubeconfigArgs(rest, process.env);
        await copyKubeconfig(a.from, a.out, a.server || undefined);
        const written = [a.out];
        if (a.natsUrl) written.push(...(await writeHostTraceFiles(dirname(a.from), dirname(a.out), { natsUrl: a.natsUrl, server: a.server })));
        // Run as root in a container, the files still belong to the user whose folder they are in.
        if (process.getuid?.() === 0) {
          const { uid, gid } = statSync(dirname(a.out));
          for (const f of written) await chown(f, uid, gid);
          // And the folders made for them (pki/, pki/etcd/).
          const made = new Set<string>();
          for (const f of written) for (let d = dirname(f); d.startsWith(dirname(a.out) + '/'); d = dirname(d)) made.add(d);
          for (const d of made) await chown(d, uid, gid);
        }
        process.stdout.write(`[kubeconfig] Wrote "${a.out}"${a.server ? ` for ${a.server}` : ''}\n`);
        if (a.natsUrl) process.stdout.write(`[trace] Wrote the trace identity and cluster.json in "${dirname(a.out)}" for ${a.natsUrl}\n`);
        return 0;
      }
      case 'control-plane':
        return await controlPlaneCommand(rest);
      case 'encryption-config':
        return encryptionConfigCommand(rest);
      case 'nats':
        return kubeadmNatsCommand(rest);
      case 'cri-stream':
        return criStreamCommand(rest);
      case 'ha':
        return kubeadmHaCommand(rest);
      case 'hollow':
        return kubeadmHollowCommand(rest);
      case 'certs': {
        const [sub, ...args] = rest;
        if (sub !== 'check-expiration') throw new FlagError(`unknown command "${sub ?? ''}" (kubelab has: certs check-expiration)`);
        return checkExpirationCommand(args);
      }
      default:
        process.stderr.write(phase === undefined || phase === 'help' ? USAGE : `kubelab kubeadm: unknown phase "${phase}"\n\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`kubelab kubeadm ${phase}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
