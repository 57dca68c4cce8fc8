#!/usr/bin/env node
// kubelab's `kubeadm init` for the compose stack: the phases a learner can see
// on a kubeadm cluster, done the way kubeadm does them.
//   [control-plane] / [etcd]  write the static pod manifests of node control-plane
//   [api-check]               wait for a healthy API server
//   [mark-control-plane]      label and taint that node once its kubelet registered it
//   [bootstrap-token]         upload the bootstrap token kubeadm-init made (Secret
//                             kube-system/bootstrap-token-<id>) and the cluster-info
//                             ConfigMap, so node-1 and node-2 can join (TLS bootstrap)
//   [addons]                  apply kube-proxy (ServiceAccount + DaemonSet) and the
//                             Node Problem Detector's identity (ServiceAccount +
//                             ClusterRoleBinding npd-binding; not an essential addon)
// The control-plane processes themselves are compose services; the static pods
// and the DaemonSet's pods are stand-ins whose probes reach them (docs/architecture.md).
// The certs and kubeconfig phases ran before, in the one-shot kubeadm-init
// service (`kubelab kubeadm init`), which also wrote the bootstrap token's
// objects to /etc/kubernetes/bootstrap-token.json; these phases talk to the
// apiserver as kubeadm does, over HTTPS as kubernetes-admin with
// /etc/kubernetes/admin.conf. The joining kubelets start once this exits, as
// `kubeadm join` runs after `kubeadm init`.

import {mkdirSync, readFileSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {loadKubeconfig, restClient} from '../kube-rest.mjs';

const HERE = new URL('.', import.meta.url).pathname;
const MANIFEST_DIR = process.env.KUBEADM_MANIFEST_DIR ?? '/etc/kubernetes/manifests';
const NODE = process.env.KUBEADM_NODE_NAME ?? 'control-plane';
const KUBECONFIG = process.env.KUBECONFIG || '/etc/kubernetes/admin.conf';
const BOOTSTRAP_TOKEN_FILE = process.env.KUBEADM_BOOTSTRAP_TOKEN_FILE ?? '/etc/kubernetes/bootstrap-token.json';
const TIMEOUT_MS = 4 * 60_000;

const CONTROL_PLANE_LABELS = {'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': ''};
const CONTROL_PLANE_TAINT = {key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule'};
/** Where each addon kind is created (namespace kube-system). */
const COLLECTIONS = {
  ServiceAccount: '/api/v1/namespaces/kube-system/serviceaccounts',
  DaemonSet: '/apis/apps/v1/namespaces/kube-system/daemonsets',
  ClusterRoleBinding: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
};

const log = (line) => console.log(line);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let client;
const api = (method, path, body, contentType = 'application/json') => client.call(method, path, {body, contentType});

/** Retries `attempt` (undefined = not yet) until it answers or the timeout passes. */
async function until(what, attempt) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    try {
      const v = await attempt();
      if (v !== undefined) return v;
    } catch {
      // Not reachable yet.
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${TIMEOUT_MS / 1000}s waiting for ${what}`);
    await sleep(1000);
  }
}

function writeManifests() {
  mkdirSync(MANIFEST_DIR, {recursive: true});
  log(`[control-plane] Using manifest folder "${MANIFEST_DIR}"`);
  const files = readdirSync(join(HERE, 'manifests'))
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  for (const f of files) {
    const name = f.replace(/\.yaml$/, '');
    if (name === 'etcd') log(`[etcd] Creating static Pod manifest for local etcd in "${MANIFEST_DIR}"`);
    else log(`[control-plane] Creating static Pod manifest for "${name}"`);
    writeFileSync(join(MANIFEST_DIR, f), readFileSync(join(HERE, 'manifests', f)));
  }
}

async function apiCheck() {
  log(`[api-check] Waiting for a healthy API server. This can take up to ${TIMEOUT_MS / 60_000}m0s`);
  const t0 = Date.now();
  await until('the API server', async () => ((await api('GET', '/readyz')).status === 200 ? true : undefined));
  log(`[api-check] The API server is healthy after ${((Date.now() - t0) / 1000).toFixed(3)}s`);
}

async function markControlPlane() {
  log(`[mark-control-plane] Waiting for node ${NODE} to register`);
  await until(`node ${NODE}`, async () => {
    const r = await api('GET', `/api/v1/nodes/${NODE}`);
    if (r.status !== 200) return undefined;
    const node = r.json;
    const taints = node.spec?.taints ?? [];
    const hasTaint = taints.some((t) => t.key === CONTROL_PLANE_TAINT.key && t.effect === CONTROL_PLANE_TAINT.effect);
    const patch = {
      metadata: {labels: CONTROL_PLANE_LABELS, resourceVersion: node.metadata.resourceVersion},
      spec: {taints: hasTaint ? taints : [...taints, CONTROL_PLANE_TAINT]},
    };
    const p = await api('PATCH', `/api/v1/nodes/${NODE}`, patch, 'application/merge-patch+json');
    if (p.status === 409) return undefined; // changed meanwhile: read again
    if (p.status !== 200) throw new Error(`patching node ${NODE}: ${p.status} ${p.text}`);
    return true;
  });
  log(`[mark-control-plane] Marking the node ${NODE} as control-plane by adding the labels: [${Object.keys(CONTROL_PLANE_LABELS).join(' ')}]`);
  log(`[mark-control-plane] Marking the node ${NODE} as control-plane by adding the taints [${CONTROL_PLANE_TAINT.key}:${CONTROL_PLANE_TAINT.effect}]`);
}

/** Creates an object of the token file in its namespace; one that exists is kept (a restarted stack). */
async function createKept(obj, plural) {
  const r = await api('POST', `/api/v1/namespaces/${obj.metadata.namespace}/${plural}`, obj);
  if (r.status !== 201 && r.status !== 409) throw new Error(`creating ${obj.kind} ${obj.metadata.namespace}/${obj.metadata.name}: ${r.status} ${r.text}`);
}

// What `kubelab up` does with packages/kubelab/src/bootstrap-token.ts uploadBootstrapToken.
async function bootstrapToken() {
  const {items} = JSON.parse(readFileSync(BOOTSTRAP_TOKEN_FILE, 'utf8'));
  const secret = items.find((o) => o.kind === 'Secret');
  const clusterInfo = items.find((o) => o.kind === 'ConfigMap');
  log(`[bootstrap-token] Using token: ${Buffer.from(secret.data['token-id'], 'base64')}.<secret in ${BOOTSTRAP_TOKEN_FILE}>`);
  log("[bootstrap-token] Configuring bootstrap tokens, cluster-info ConfigMap (the RBAC Roles for joining nodes are the apiserver's bootstrap policy)");
  await createKept(secret, 'secrets');
  log('[bootstrap-token] Creating the "cluster-info" ConfigMap in the "kube-public" namespace');
  await createKept(clusterInfo, 'configmaps');
}

async function applyAddon(name, {essential = true} = {}) {
  const docs = readFileSync(join(HERE, 'addons', `${name}.yaml`), 'utf8').split(/^---$/m);
  for (const doc of docs) {
    const kind = /^kind:\s*(\S+)/m.exec(doc)?.[1];
    if (!kind) continue;
    const path = COLLECTIONS[kind];
    if (!path) throw new Error(`addon ${name}: no collection for kind ${kind}`);
    // The YAML goes to the apiserver as it is (Content-Type: application/yaml).
    const r = await api('POST', path, doc, 'application/yaml');
    if (r.status !== 201 && r.status !== 409) throw new Error(`addon ${name}: creating ${kind}: ${r.status} ${r.text}`);
  }
  log(`[addons] Applied ${essential ? 'essential addon' : 'addon'}: ${name}`);
}

async function main() {
  client = restClient(loadKubeconfig(KUBECONFIG));
  writeManifests();
  await apiCheck();
  await markControlPlane();
  await bootstrapToken();
  await applyAddon('kube-proxy');
  await applyAddon('node-problem-detector-rbac', {essential: false});
  log('');
  log('Your Kubernetes control-plane has initialized successfully!');
}

main().catch((err) => {
  console.error(`error execution phase: ${err.message}`);
  process.exit(1);
});
