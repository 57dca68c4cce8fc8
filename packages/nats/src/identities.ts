// Who talks to NATS (etcd's role) and what each may do there. Upstream only
// the apiserver reaches etcd, over mutual TLS with the etcd CA's
// apiserver-etcd-client certificate; kubelab's NATS also carries the
// runtime's CRI call records, so each client gets its own certificate from
// the same CA and nats-server (`tls { verify_and_map }`) maps its subject to
// a user whose subject permissions allow only what that client does.

import { CRI_STREAM, CRI_SUBJECT_ALL, criSubjectToken, criSubscription } from '@kubelab/proto/cri-record';
import { API_SUBJECT_ALL } from '@kubelab/proto/api-record';
import { SCHED_SUBJECT_ALL } from '@kubelab/proto/sched-record';
import { CONTROL_SUBJECT_ALL, controlSubject } from './control.js';
import { PROXY_SUBJECT_ALL, proxySubject } from '@kubelab/proto/proxy-record';
import { listenSubject, listenWhoSubject } from './listeners.js';

/** A NATS client's certificate subject and the reply subjects it listens on. */
export interface NatsIdentity {
  /** The client certificate's CN (no O: the user is the whole subject). */
  commonName: string;
  /**
   * nats.js's `inboxPrefix`: replies and JetStream deliveries come to
   * `<prefix>.<id>`, so one client's subscribe permission never covers
   * another's replies (a shared `_INBOX.>` would let the trace viewer read the
   * apiserver's KV watch). Clients that only publish have none.
   */
  inboxPrefix?: string;
}

/** kubeadm's apiserver-etcd-client CN: the only identity that writes the object store. */
export const APISERVER_NATS_IDENTITY: NatsIdentity = { commonName: 'kube-apiserver-etcd-client', inboxPrefix: '_INBOX.kube-apiserver' };
/** `kubelab trace`: reads the CRI records and the apiserver's write records, writes nothing. */
export const TRACE_NATS_IDENTITY: NatsIdentity = { commonName: 'kubelab:trace', inboxPrefix: '_INBOX.kubelab-trace' };
/**
 * The operator's identity (etcdctl with kubeadm's certificates): the whole
 * JetStream API, used by `kubelab kv get/ls` and by `kubelab up` to create the
 * CRI record stream. No direct KV writes: those go through the apiserver.
 */
export const ADMIN_NATS_IDENTITY: NatsIdentity = { commonName: 'kubelab:admin', inboxPrefix: '_INBOX.kubelab-admin' };

/** kube-scheduler: publishes its decision records (kubelab.sched.<namespace>.<pod>) and nothing else. */
export const SCHEDULER_NATS_IDENTITY: NatsIdentity = { commonName: 'kubelab:scheduler' };
/**
 * The dashboard: reads what the trace viewer reads, and is the one client
 * that may ask a node's agent to stop or start a unit or inject a fault
 * (kubelab.control.<node>, control.ts).
 */
export const DASHBOARD_NATS_IDENTITY: NatsIdentity = { commonName: 'kubelab:dashboard', inboxPrefix: '_INBOX.kubelab-dashboard' };

/** A node's agent (the local runner for its nodes, node-agent in a compose node): hears that node's control requests and answers the dashboard. */
export function nodeAgentNatsIdentity(node: string): NatsIdentity {
  checkNodeName(node);
  return { commonName: `kubelab:node-agent:${node}` };
}

/** A node's runtime: publishes that node's CRI records and nothing else. */
export function containerdNatsIdentity(node: string): NatsIdentity {
  checkNodeName(node);
  return { commonName: `kubelab:containerd:${node}` };
}

/** A node's kube-proxy: publishes that node's rules-sync records and nothing else. */
export function kubeProxyNatsIdentity(node: string): NatsIdentity {
  checkNodeName(node);
  return { commonName: `kubelab:kube-proxy:${node}` };
}

// The user names below are compared with the certificate subject as Go prints
// it (RFC 2253); names needing escapes there are refused rather than escaped.
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

function checkNodeName(node: string): void {
  if (!PLAIN_NAME.test(node)) throw new Error(`node name "${node}" cannot name a NATS user: use letters, digits, '.', '-' (a DNS subdomain)`);
}

/** The NATS user a certificate maps to: its subject as nats-server's verify_and_map compares it. */
export function natsUserName(identity: NatsIdentity): string {
  return `CN=${identity.commonName}`;
}

/** Subject allow lists (nats-server `permissions`); anything not listed is denied. */
export interface SubjectPermissions {
  publish: string[];
  subscribe: string[];
}

export interface NatsUser {
  user: string;
  permissions: SubjectPermissions;
}

/** The JetStream stream behind a KV bucket. */
export function kvStream(bucket: string): string {
  return `KV_${bucket}`;
}

// The JetStream API subjects a reader of `stream` needs (nats.js reads with
// direct/message gets and ordered consumers, which reply on flow control).
function streamReads(stream: string): string[] {
  return [
    `$JS.API.STREAM.INFO.${stream}`,
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$JS.API.CONSUMER.CREATE.${stream}`,
    `$JS.API.CONSUMER.CREATE.${stream}.>`,
    `$JS.API.CONSUMER.INFO.${stream}.>`,
    `$JS.API.CONSUMER.DELETE.${stream}.>`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.>`,
    `$JS.FC.${stream}.>`,
    `$JS.ACK.${stream}.>`,
  ];
}

// A reader of the apiserver's and the scheduler's records says it listens, and is asked to when a publisher starts (listeners.ts).
const READER_ANNOUNCES = [listenSubject('api'), listenSubject('sched')];
const READER_ASKED = 'kubelab.listen.*.who';
// Where a publisher answers a reader's announcement. Not nats-server's allow_responses: that keeps an
// entry per received message with a reply subject, i.e. per JetStream delivery of the apiserver's KV
// watch, and its upkeep made NATS's CPU per create grow with the stream (20 → 300-900 µs).
const READER_INBOXES = [`${TRACE_NATS_IDENTITY.inboxPrefix}.>`, `${DASHBOARD_NATS_IDENTITY.inboxPrefix}.>`];

const inbox = (id: NatsIdentity): string[] => (id.inboxPrefix ? [`${id.inboxPrefix}.>`] : []);

export interface NatsUsersOptions {
  /** The apiserver's KV bucket (`--kv-bucket`, default `kubelab`). */
  bucket?: string;
  /** Node names whose runtime may publish records. */
  nodes: readonly string[];
}

/** Every NATS user of a cluster, least privilege each. Pure. */
export function natsUsers(opts: NatsUsersOptions): NatsUser[] {
  const bucket = opts.bucket ?? 'kubelab';
  const kv = kvStream(bucket);
  const users: NatsUser[] = [
    {
      // Creates (or updates) its bucket, reads and watches it, writes keys with compare-and-swap;
      // publishes a record of each write request on kubelab.api.<verb>.<resource>.
      user: natsUserName(APISERVER_NATS_IDENTITY),
      permissions: {
        publish: ['$JS.API.INFO', `$JS.API.STREAM.CREATE.${kv}`, `$JS.API.STREAM.UPDATE.${kv}`, ...streamReads(kv), `$KV.${bucket}.>`, API_SUBJECT_ALL, listenWhoSubject('api'), ...READER_INBOXES],
        // Its records only while a reader listens (listeners.ts): the readers' announcements, answered on their inboxes.
        subscribe: [...inbox(APISERVER_NATS_IDENTITY), listenSubject('api')],
      },
    },
    {
      user: natsUserName(ADMIN_NATS_IDENTITY),
      permissions: { publish: ['$JS.API.>', '$JS.FC.>', '$JS.ACK.>'], subscribe: inbox(ADMIN_NATS_IDENTITY) },
    },
    {
      // Live records (CRI calls, the apiserver's writes, kube-proxy's syncs), and the stored CRI ones of --since through a consumer on the stream.
      user: natsUserName(TRACE_NATS_IDENTITY),
      permissions: {
        publish: ['$JS.API.INFO', ...streamReads(CRI_STREAM), ...READER_ANNOUNCES],
        subscribe: [CRI_SUBJECT_ALL, API_SUBJECT_ALL, SCHED_SUBJECT_ALL, PROXY_SUBJECT_ALL, READER_ASKED, ...inbox(TRACE_NATS_IDENTITY)],
      },
    },
    // The scheduler's decision record of each cycle, while a reader listens.
    { user: natsUserName(SCHEDULER_NATS_IDENTITY), permissions: { publish: [SCHED_SUBJECT_ALL, listenWhoSubject('sched'), ...READER_INBOXES], subscribe: [listenSubject('sched')] } },
    {
      // The viewer's live records, and requests to the nodes' agents (replies on its own inbox).
      user: natsUserName(DASHBOARD_NATS_IDENTITY),
      permissions: {
        publish: [CONTROL_SUBJECT_ALL, ...READER_ANNOUNCES],
        subscribe: [CRI_SUBJECT_ALL, API_SUBJECT_ALL, SCHED_SUBJECT_ALL, PROXY_SUBJECT_ALL, READER_ASKED, ...inbox(DASHBOARD_NATS_IDENTITY)],
      },
    },
  ];
  for (const node of opts.nodes) {
    users.push({
      user: natsUserName(containerdNatsIdentity(node)),
      // kubelab.cri.<node>.*: this node's records only; kubelab.net.<node>.pods: this node's pod address map (the local runner's socket-LB), every node's read.
      permissions: { publish: [criSubscription(node, undefined), podMapSubject(node)], subscribe: [POD_MAP_SUBJECT_ALL] },
    });
    users.push({
      // This node's control requests; its replies go to the dashboard's inbox only.
      user: natsUserName(nodeAgentNatsIdentity(node)),
      permissions: { publish: inbox(DASHBOARD_NATS_IDENTITY), subscribe: [controlSubject(node)] },
    });
  }
  for (const node of opts.nodes) {
    // kubelab.proxy.<node>: this node's kube-proxy sync records only; it reads nothing.
    users.push({ user: natsUserName(kubeProxyNatsIdentity(node)), permissions: { publish: [proxySubject(node)], subscribe: [] } });
  }
  return users;
}

/**
 * A node on another machine (`kubelab join`): its own nats-server is a leaf
 * node of the cluster's, connecting with the kubelet's client certificate
 * (issued through its CSR by the cluster CA, subject O=system:nodes,
 * CN=system:node:<node>). The hub maps that subject to this user, whose
 * permissions are the node's runtime, agent and kube-proxy together: what
 * the leaf forwards for its local clients is bounded to that node's subjects.
 */
export function leafNodeNatsUser(node: string): NatsUser {
  checkNodeName(node);
  return {
    user: `CN=system:node:${node},O=system:nodes`,
    permissions: {
      publish: [criSubscription(node, undefined), podMapSubject(node), proxySubject(node), ...inbox(DASHBOARD_NATS_IDENTITY)],
      subscribe: [POD_MAP_SUBJECT_ALL, controlSubject(node)],
    },
  };
}

/**
 * Where a node's runtime publishes its sandboxes' address map in loopback
 * mode (the local runner's pod network, services/containerd socket-lb.ts):
 * pod IP → container port → the 127.0.0.1 port serving it.
 */
export function podMapSubject(node: string): string {
  checkNodeName(node);
  return `kubelab.net.${criSubjectToken(node)}.pods`;
}

/** Every node's pod address map. */
export const POD_MAP_SUBJECT_ALL = 'kubelab.net.*.pods';
