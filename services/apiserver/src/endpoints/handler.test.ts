import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APISERVER_KUBELET_CLIENT, certificateInfo, type CertKeyPem } from '@kubelab/pki';
import { TestPki } from '@kubelab/pki/testing';
import { decodeOpenApiV2 } from '@kubelab/proto';
import type { Deployment, KubeList, KubeObject, Pod, Status } from '@kubelab/api';
import type { Table } from '../printers/table.js';
import { createRestHandler } from './index.js';
import { FakeRegistry } from '../testing/index.js';
import { MAX_JSON_DEPTH } from '../decoding/json-keys.js';

/** Discovery documents (/apis, /api/v1): the parts the assertions read. */
type Discovery = { groups: { name: string }[]; resources: { name: string; namespaced: boolean; verbs: string[] }[] };
/** An OpenAPI v3 document: the parts the assertions read. */
type OpenApi = {
  paths: Record<string, { serverRelativeURL: string; patch: { 'x-kubernetes-group-version-kind': unknown; parameters: { name: string }[] } }>;
  components: { schemas: Record<string, { required?: string[]; properties: Record<string, Record<string, unknown>>; 'x-kubernetes-group-version-kind'?: unknown }> };
};
type Scale = KubeObject & { spec: { replicas: number } };

const NOW = new Date('2025-06-01T12:00:00Z');
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

let reg: FakeRegistry;
let server: Server;
let base: string;
let kubeletPort = 0;
/** The apiserver's kubelet client certificate, and a kubelet serving certificate from a CA the apiserver is not told about. */
let kubeletClient: CertKeyPem;
let kubeletServing: CertKeyPem;
let pki: TestPki;

beforeAll(async () => {
  pki = await TestPki.create();
  [kubeletClient, kubeletServing] = await Promise.all([pki.client(APISERVER_KUBELET_CLIENT), (await TestPki.create('node-1-ca')).serving({ commonName: 'node-1' })]);
});

beforeEach(async () => {
  reg = new FakeRegistry({ now: () => NOW });
  const handler = createRestHandler({
    registry: reg,
    now: () => NOW,
    kubeletAddress: async () => ({ host: '127.0.0.1', port: kubeletPort }),
    kubeletClient: { certPem: kubeletClient.cert, keyPem: kubeletClient.key },
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Sends a request; `json` is the parsed body, typed as the caller expects it (a Status unless told). */
async function call<T = Status>(method: string, path: string, opts: { body?: unknown; type?: string; accept?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.accept) headers.accept = opts.accept;
  let body: RequestInit['body'];
  if (opts.body !== undefined) {
    headers['content-type'] = opts.type ?? 'application/json';
    body = opts.body instanceof Uint8Array ? opts.body : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let json: T | undefined;
  try {
    json = JSON.parse(text) as T;
  } catch {
    json = undefined;
  }
  // Undefined for a body that is not JSON: the tests of those read text.
  return { status: res.status, json: json as T, text, headers: res.headers };
}

const pod = (name: string, extra: Record<string, unknown> = {}, ns = 'default'): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: name }, creationTimestamp: '2025-06-01T11:55:00Z' },
    spec: { containers: [{ name: 'web', image: 'nginx' }] },
    status: { phase: 'Pending' },
    ...extra,
  }) as KubeObject;

describe('discovery and version', () => {
  it('/version reports 1.32 so the kubectl dispatcher runs the 1.32 client', async () => {
    const r = await call('GET', '/version?timeout=5s');
    expect(r.json).toMatchObject({ major: '1', minor: '32' });
  });

  it('/api, /apis and resource lists carry what kubectl needs', async () => {
    expect((await call('GET', '/api')).json).toEqual({ kind: 'APIVersions', versions: ['v1'] });
    const apis = (await call<Discovery>('GET', '/apis')).json;
    expect(apis.groups.map((g: { name: string }) => g.name)).toEqual([
      'apps',
      'discovery.k8s.io',
      'coordination.k8s.io',
      'rbac.authorization.k8s.io',
      'authorization.k8s.io',
      'authentication.k8s.io',
      'certificates.k8s.io',
      'events.k8s.io',
      'apiextensions.k8s.io',
      'apiregistration.k8s.io',
      'batch',
      'storage.k8s.io',
      'policy',
      'scheduling.k8s.io',
      'flowcontrol.apiserver.k8s.io',
      'autoscaling',
      'networking.k8s.io',
    ]);
    // kubectl auth whoami 1.27 asks v1beta1, later ones v1 first.
    expect(apis.groups[5]).toEqual({
      name: 'authentication.k8s.io',
      versions: [
        { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
        { groupVersion: 'authentication.k8s.io/v1beta1', version: 'v1beta1' },
      ],
      preferredVersion: { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
    });
    const authz = (await call<Discovery>('GET', '/apis/authorization.k8s.io/v1')).json;
    expect(authz.resources.map((r) => `${r.name} ${r.namespaced} ${r.verbs.join(',')}`)).toEqual([
      'selfsubjectaccessreviews false create',
      'selfsubjectrulesreviews false create',
      'subjectaccessreviews false create',
      'localsubjectaccessreviews true create',
    ]);
    const authn = (await call<Discovery>('GET', '/apis/authentication.k8s.io/v1')).json;
    expect(authn.resources.map((r) => `${r.name} ${r.namespaced} ${r.verbs.join(',')}`)).toEqual(['tokenreviews false create', 'selfsubjectreviews false create']);
    expect(apis.groups[0]).toEqual({ name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } });
    const v1 = (await call<Discovery>('GET', '/api/v1')).json;
    const byName = Object.fromEntries(v1.resources.map((r: { name: string }) => [r.name, r]));
    expect(byName.pods).toEqual({
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
    });
    expect(byName['pods/eviction']).toEqual({ name: 'pods/eviction', singularName: '', namespaced: true, kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] });
    const apps = (await call<Discovery>('GET', '/apis/apps/v1')).json;
    expect(apps.resources.find((r: { name: string }) => r.name === 'deployments/scale')).toEqual({
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
      verbs: ['get', 'patch', 'update'],
    });
  });

  it('aggregated discovery: the APIGroupDiscoveryList with its Content-Type, ETag and 304', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
    const apis = await call<{ kind: string; items: { metadata: { name: string } }[] }>('GET', '/apis', { accept });
    expect(apis.status).toBe(200);
    expect(apis.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(apis.headers.get('vary')).toBe('Accept');
    expect(apis.json.kind).toBe('APIGroupDiscoveryList');
    expect(apis.json.items[0]!.metadata.name).toBe('apps');
    const etag = apis.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const again = await fetch(`${base}/apis`, { headers: { accept, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const core = await call<{ apiVersion: string; items: { versions: { version: string }[] }[] }>('GET', '/api', {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
    });
    expect(core.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    expect(core.json.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    expect(core.json.items[0]!.versions[0]!.version).toBe('v1');
    // Without the aggregated range: the legacy answer.
    expect((await call('GET', '/api', { accept: 'application/json' })).json).toEqual({ kind: 'APIVersions', versions: ['v1'] });
  });

  it('unknown paths and resources are 404', async () => {
    expect((await call('GET', '/apis/widgets.example.com/v1')).text).toBe('404 page not found\n');
    const r = await call('GET', '/api/v1/namespaces/default/widgets');
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('the server could not find the requested resource');
  });
});

describe('openapi v3', () => {
  it('lists every group version with a content hash and serves explain-ready schemas', async () => {
    const root = (await call<OpenApi>('GET', '/openapi/v3')).json;
    expect(Object.keys(root.paths)).toEqual([
      'api/v1',
      'apis/apps/v1',
      'apis/discovery.k8s.io/v1',
      'apis/coordination.k8s.io/v1',
      'apis/rbac.authorization.k8s.io/v1',
      'apis/authorization.k8s.io/v1',
      'apis/authentication.k8s.io/v1',
      'apis/authentication.k8s.io/v1beta1',
      'apis/certificates.k8s.io/v1',
      'apis/events.k8s.io/v1',
      'apis/apiextensions.k8s.io/v1',
      'apis/apiregistration.k8s.io/v1',
      'apis/batch/v1',
      'apis/storage.k8s.io/v1',
      'apis/policy/v1',
      'apis/scheduling.k8s.io/v1',
      'apis/flowcontrol.apiserver.k8s.io/v1',
      'apis/autoscaling/v2',
      'apis/autoscaling/v1',
      'apis/networking.k8s.io/v1',
    ]);
    const url = root.paths['api/v1']!.serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    const doc = (await call<OpenApi>('GET', url)).json;
    const patchOp = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}']!.patch;
    expect(patchOp['x-kubernetes-group-version-kind']).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(patchOp.parameters.map((p: { name: string }) => p.name)).toContain('fieldValidation');
    const podSpec = doc.components.schemas['io.k8s.api.core.v1.PodSpec']!;
    expect(podSpec.required).toEqual(['containers']);
    expect(podSpec.properties.containers).toMatchObject({
      type: 'array',
      items: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Container' }] },
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    });
    expect(podSpec.properties.tolerations!['x-kubernetes-list-type']).toBe('atomic');
    expect(doc.components.schemas['io.k8s.api.core.v1.Pod']!['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
  });
});

describe('openapi v2', () => {
  const PB = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

  it('JSON by default and protobuf when kubectl asks for it, with one ETag; 304 for a matching If-None-Match; 406 otherwise', async () => {
    const json = await call<{ swagger: string; definitions: Record<string, unknown> }>('GET', '/openapi/v2');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(json.json.swagger).toBe('2.0');
    expect(json.json.definitions).toHaveProperty(['io.k8s.api.core.v1.Pod']);
    const etag = json.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);

    const pb = await fetch(`${base}/openapi/v2`, { headers: { accept: PB } });
    expect(pb.status).toBe(200);
    expect(pb.headers.get('content-type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(pb.headers.get('etag')).toBe(etag);
    const doc = decodeOpenApiV2(new Uint8Array(await pb.arrayBuffer()));
    expect(doc.definitions.additional_properties.map((d) => d.name)).toEqual(Object.keys(json.json.definitions));

    const cached = await fetch(`${base}/openapi/v2`, { headers: { accept: PB, 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');

    const refused = await fetch(`${base}/openapi/v2`, { headers: { accept: 'text/html' } });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('vary')).toBe('Accept');
  });
});

describe('get and list', () => {
  beforeEach(() => {
    reg.seed(pod('a'), pod('b', { metadata: { name: 'b', namespace: 'default', labels: { app: 'b', tier: 'front' }, creationTimestamp: '2025-05-31T10:00:00Z' } }), pod('c', {}, 'kube-system'));
  });

  it('a Table with PartialObjectMetadata rows when kubectl asks for one', async () => {
    const r = await call<Table>('GET', '/api/v1/namespaces/default/pods?limit=500', { accept: TABLE });
    expect(r.json.kind).toBe('Table');
    expect(r.json.metadata.resourceVersion).toBe(String(reg.rev));
    expect(r.json.rows.map((x: { cells: unknown[] }) => x.cells)).toEqual([
      ['a', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
      ['b', '0/1', 'Pending', '0', '26h', '<none>', '<none>', '<none>', '<none>'],
    ]);
    expect(r.json.rows[0]!.object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a', namespace: 'default' } });
  });

  it('-A lists every namespace; includeObject=Object puts the whole pod in the row', async () => {
    const r = await call<Table>('GET', '/api/v1/pods?includeObject=Object', { accept: TABLE });
    expect(r.json.rows.map((x) => (x.object as KubeObject).metadata).map((m) => `${m.namespace}/${m.name}`)).toEqual(['default/a', 'default/b', 'kube-system/c']);
    expect((r.json.rows[2]!.object as Pod).spec?.containers[0]!.image).toBe('nginx');
  });

  it('plain JSON for -o json/yaml/name: a PodList', async () => {
    const r = await call<KubeList<Pod>>('GET', '/api/v1/namespaces/default/pods', { accept: 'application/json' });
    expect(r.json.kind).toBe('PodList');
    expect(r.json.apiVersion).toBe('v1');
    expect(r.json.items.map((p: KubeObject) => p.metadata.name)).toEqual(['a', 'b']);
  });

  it('label and field selectors, limit and continue', async () => {
    const sel = await call<KubeList<Pod>>('GET', '/api/v1/namespaces/default/pods?labelSelector=tier%3Dfront', { accept: 'application/json' });
    expect(sel.json.items.map((p: KubeObject) => p.metadata.name)).toEqual(['b']);
    const fs = await call<KubeList<Pod>>('GET', '/api/v1/pods?fieldSelector=metadata.namespace%3Dkube-system', { accept: 'application/json' });
    expect(fs.json.items.map((p: KubeObject) => p.metadata.name)).toEqual(['c']);
    const page1 = await call<KubeList<Pod>>('GET', '/api/v1/pods?limit=2', { accept: 'application/json' });
    expect(page1.json.items).toHaveLength(2);
    expect(page1.json.metadata.continue).toBe('2');
    const page2 = await call<KubeList<Pod>>('GET', `/api/v1/pods?limit=2&continue=${page1.json.metadata.continue}`, { accept: 'application/json' });
    expect(page2.json.items.map((p: KubeObject) => p.metadata.name)).toEqual(['c']);
  });

  it('get one object: typed JSON, or a one-row Table', async () => {
    const r = await call<Pod>('GET', '/api/v1/namespaces/default/pods/a');
    expect(r.json).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' } });
    const t = await call<Table>('GET', '/api/v1/namespaces/default/pods/a', { accept: TABLE });
    expect(t.json.rows[0]!.cells[0]).toBe('a');
  });

  it("NotFound as metav1.Status with kubectl's text", async () => {
    const r = await call('GET', '/api/v1/namespaces/default/pods/nope');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'pods' },
      code: 404,
    });
    const d = await call('GET', '/apis/apps/v1/namespaces/default/deployments/web');
    expect(d.json.message).toBe('deployments.apps "web" not found');
  });
});

describe('create, update, patch', () => {
  const podBody = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };

  it('creates in the URL namespace and answers 201', async () => {
    const r = await call<Pod>('POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply&fieldValidation=Strict', { body: podBody });
    expect(r.status).toBe(201);
    expect(r.json.metadata).toMatchObject({ name: 'web', namespace: 'default' });
    expect(reg.objects.has('/pods/default/web')).toBe(true);
  });

  it('AlreadyExists on a second create', async () => {
    await call('POST', '/api/v1/namespaces/default/pods', { body: podBody });
    const r = await call('POST', '/api/v1/namespaces/default/pods', { body: podBody });
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ reason: 'AlreadyExists', message: 'pods "web" already exists' });
  });

  it('Strict: unknown fields are a 400 naming each, and nothing is stored', async () => {
    const body = { ...podBody, spec: { foo: 1, containers: [{ name: 'web', image: 'nginx', bogus: true }] } };
    const r = await call('POST', '/api/v1/namespaces/default/pods?fieldValidation=Strict', { body });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo", unknown field "spec.containers[0].bogus"');
    expect(reg.objects.size).toBe(0);
  });

  it('Warn (the default): unknown fields are dropped with a Warning header', async () => {
    const body = { ...podBody, spec: { foo: 1, containers: [{ name: 'web', image: 'nginx' }] } };
    const r = await call('POST', '/api/v1/namespaces/default/pods', { body });
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBe('299 - "unknown field \\"spec.foo\\""');
    expect((reg.objects.get('/pods/default/web') as Pod).spec).not.toHaveProperty('foo');
  });

  describe('duplicate fields, as sigs.k8s.io/json reports them', () => {
    const dupBody =
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","name":"web2"},' + '"spec":{"containers":[{"name":"web","image":"nginx","image":"nginx:1.27","bogus":1}],"bogusDupe":1,"bogusDupe":2}}';

    it('Strict: a 400 naming each duplicate and unknown field in document order, and nothing is stored', async () => {
      const r = await call('POST', '/api/v1/namespaces/default/pods?fieldValidation=Strict', { body: dupBody });
      expect([r.status, r.json.reason, r.json.message]).toEqual([
        400,
        'BadRequest',
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: duplicate field "metadata.name", duplicate field "spec.containers[0].image", unknown field "spec.containers[0].bogus", unknown field "spec.bogusDupe"',
      ]);
      expect(reg.objects.size).toBe(0);
    });

    it('Warn (the default): stored with the last value, one Warning each', async () => {
      const r = await call<Pod>('POST', '/api/v1/namespaces/default/pods', { body: dupBody });
      expect(r.status).toBe(201);
      expect(r.headers.get('warning')).toBe(
        '299 - "duplicate field \\"metadata.name\\"", 299 - "duplicate field \\"spec.containers[0].image\\"", 299 - "unknown field \\"spec.containers[0].bogus\\"", 299 - "unknown field \\"spec.bogusDupe\\""',
      );
      expect(r.json.metadata.name).toBe('web2');
      expect((reg.objects.get('/pods/default/web2') as Pod).spec?.containers[0]?.image).toBe('nginx:1.27');
    });

    it('Ignore: stored with the last value, silently', async () => {
      const r = await call<Pod>('POST', '/api/v1/namespaces/default/pods?fieldValidation=Ignore', { body: dupBody });
      expect([r.status, r.headers.get('warning'), r.json.metadata.name]).toEqual([201, null, 'web2']);
    });

    it("an apply patch (decoded as YAML upstream) reports repeated keys in go-yaml's words", async () => {
      const body =
        '{\n"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},\n"spec": {"activeDeadlineSeconds": 5,\n"activeDeadlineSeconds": 6, "containers": [{"name": "web", "image": "nginx"}]}}';
      const strict = await call('PATCH', '/api/v1/namespaces/default/pods/web?fieldManager=kubectl&fieldValidation=Strict', { body, type: 'application/apply-patch+yaml' });
      expect([strict.status, strict.json.message]).toEqual([
        400,
        'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 4: key "activeDeadlineSeconds" already set in map',
      ]);
      const warn = await call<Pod>('PATCH', '/api/v1/namespaces/default/pods/web?fieldManager=kubectl', { body, type: 'application/apply-patch+yaml' });
      expect([warn.status, warn.headers.get('warning'), warn.json.spec?.activeDeadlineSeconds]).toEqual([201, '299 - "line 4: key \\"activeDeadlineSeconds\\" already set in map"', 6]);
    });

    it("YAML: go-yaml's line-numbered errors first, then the unknown fields sorted; Warn keeps the last value", async () => {
      const yaml = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  name: web2\nspec:\n  zbogus: 1\n  containers:\n  - name: web\n    image: nginx\n    image: nginx:1.27\n    abogus: 1\n';
      const strict = await call('POST', '/api/v1/namespaces/default/pods?fieldValidation=Strict', { body: yaml, type: 'application/yaml' });
      expect([strict.status, strict.json.message]).toEqual([
        400,
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 11: key "image" already set in map, unknown field "spec.containers[0].abogus", unknown field "spec.zbogus"',
      ]);
      expect(reg.objects.size).toBe(0);
      const warn = await call<Pod>('POST', '/api/v1/namespaces/default/pods', { body: yaml, type: 'application/yaml' });
      expect(warn.status).toBe(201);
      expect(warn.headers.get('warning')).toBe(
        '299 - "line 5: key \\"name\\" already set in map", 299 - "line 11: key \\"image\\" already set in map", 299 - "unknown field \\"spec.containers[0].abogus\\"", 299 - "unknown field \\"spec.zbogus\\""',
      );
      expect([warn.json.metadata.name, warn.json.spec?.containers[0]?.image]).toEqual(['web2', 'nginx:1.27']);
      const ignore = await call('POST', '/api/v1/namespaces/default/pods?fieldValidation=Ignore', { body: yaml.replace(/web2/, 'web3'), type: 'application/yaml' });
      expect([ignore.status, ignore.headers.get('warning')]).toEqual([201, null]);
    });

    it("merge patch: the patch's duplicates first, then its unknown fields; Warn applies the last value", async () => {
      reg.seed(pod('a'));
      const patch = '{"metadata":{"labels":{"tier":"a","tier":"b"}},"spec":{"nope":1,"activeDeadlineSeconds":5,"activeDeadlineSeconds":6}}';
      const strict = await call('PATCH', '/api/v1/namespaces/default/pods/a?fieldValidation=Strict', { body: patch, type: 'application/merge-patch+json' });
      expect([strict.status, strict.json.message]).toEqual([
        400,
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: duplicate field "metadata.labels.tier", duplicate field "spec.activeDeadlineSeconds", unknown field "spec.nope"',
      ]);
      const warn = await call<Pod>('PATCH', '/api/v1/namespaces/default/pods/a', { body: patch, type: 'application/strategic-merge-patch+json' });
      expect(warn.status).toBe(200);
      expect(warn.headers.get('warning')).toBe('299 - "duplicate field \\"metadata.labels.tier\\"", 299 - "duplicate field \\"spec.activeDeadlineSeconds\\"", 299 - "unknown field \\"spec.nope\\""');
      expect([warn.json.metadata.labels?.tier, warn.json.spec?.activeDeadlineSeconds]).toEqual(['b', 6]);
    });
  });

  describe("pathological bodies get Go's decoder errors, not a 500", () => {
    const nested = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

    it('a body or patch nested too deep is a 400; the server keeps serving', async () => {
      const body = await call('POST', '/api/v1/namespaces/default/configmaps', { body: `{"kind":"ConfigMap","metadata":{"name":"deep"},"data":${nested(100_000)}}` });
      expect([body.status, body.json.message]).toEqual([400, "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth"]);
      reg.seed(pod('a'));
      for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']) {
        const r = await call('PATCH', '/api/v1/namespaces/default/pods/a', { body: `{"metadata":{"annotations":${nested(100_000)}}}`, type });
        expect([r.status, r.json.reason, r.json.message]).toEqual([400, 'BadRequest', "invalid character '{' exceeded max depth"]);
      }
      const jsonPatch = await call('PATCH', '/api/v1/namespaces/default/pods/a', {
        body: `[{"op":"add","path":"/metadata/annotations","value":${'['.repeat(100_000)}${']'.repeat(100_000)}}]`,
        type: 'application/json-patch+json',
      });
      expect([jsonPatch.status, jsonPatch.json.message]).toEqual([400, "invalid character '[' exceeded max depth"]);
      expect(reg.objects.has('/configmaps/default/deep')).toBe(false);
      expect((await call('GET', '/api/v1/namespaces/default/pods/a')).status).toBe(200);
    });

    it('a YAML body nested too deep is a 400 as well', async () => {
      for (const n of [MAX_JSON_DEPTH + 5, 100_000]) {
        const r = await call('POST', '/api/v1/namespaces/default/configmaps', { body: `kind: ConfigMap\nmetadata: {name: deep}\nnope: ${'['.repeat(n)}${']'.repeat(n)}\n`, type: 'application/yaml' });
        expect([n, r.status, r.json.reason]).toEqual([n, 400, 'BadRequest']);
      }
      expect(reg.objects.size).toBe(0);
    });

    it('just under the limit: an answer about the object, never a 500', async () => {
      reg.seed(pod('a'));
      const d = MAX_JSON_DEPTH - 10;
      for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']) {
        const wrongType = await call('PATCH', '/api/v1/namespaces/default/pods/a?fieldManager=test', { body: `{"spec":{"containers":[{"name":"web","env":${nested(d)}}]}}`, type });
        expect([type, wrongType.status]).toEqual([type, 422]);
        const unknown = await call('PATCH', '/api/v1/namespaces/default/pods/a?fieldManager=test', { body: `{"metadata":{"nope":${nested(d)}}}`, type });
        expect([type, unknown.status]).toEqual([type, 200]);
      }
      const jsonPatch = await call('PATCH', '/api/v1/namespaces/default/pods/a', { body: `[{"op":"add","path":"/metadata/nope","value":${nested(d)}}]`, type: 'application/json-patch+json' });
      expect(jsonPatch.status).toBe(200);
      const created = await call('POST', '/api/v1/namespaces/default/configmaps', { body: `{"kind":"ConfigMap","metadata":{"name":"deep"},"nope":${nested(d)}}` });
      expect(created.status).toBe(201);
    });

    it('a JSON patch of more than 10000 operations is a 413 in upstream words', async () => {
      reg.seed(pod('a'));
      const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/metadata/name', value: 'a' }));
      const r = await call('PATCH', '/api/v1/namespaces/default/pods/a', { body: ops, type: 'application/json-patch+json' });
      expect([r.status, r.json.reason, r.json.message]).toEqual([413, 'RequestEntityTooLarge', 'The allowed maximum operations in a JSON patch is 10000, got 10001']);
    });
  });

  it("a wrong type fails with the Go decoder's message", async () => {
    const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 'three', selector: {}, template: { spec: { containers: [{ name: 'c', image: 5 }] } } } };
    const r = await call('POST', '/apis/apps/v1/namespaces/default/deployments', { body });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });

  it('Invalid (422) from the registry keeps its causes; dryRun stores nothing', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/pods', { body: { ...podBody, spec: { containers: [{ name: 'web' }] } } });
    expect(r.status).toBe(422);
    expect(r.json.details?.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }]);
    const dry = await call('POST', '/api/v1/namespaces/default/pods?dryRun=All', { body: podBody });
    expect(dry.status).toBe(201);
    expect(reg.objects.size).toBe(0);
  });

  it('a namespace in the body must match the URL', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/pods', { body: { ...podBody, metadata: { name: 'web', namespace: 'other' } } });
    expect(r.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
  });

  it('decodes the protobuf body of `kubectl create deployment`', async () => {
    const body = new Uint8Array(Buffer.from(readFileSync(new URL('./testdata/kubectl-1.32-create-deployments.b64', import.meta.url), 'utf8'), 'base64'));
    const r = await call('POST', '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict', { body, type: 'application/vnd.kubernetes.protobuf' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ kind: 'Deployment', metadata: { name: 'pbweb', namespace: 'default' }, spec: { replicas: 3 } });
  });

  it('update: the URL name must match; a stale resourceVersion is a Conflict', async () => {
    reg.seed(pod('a'));
    const cur = (await call('GET', '/api/v1/namespaces/default/pods/a')).json;
    const wrong = await call('PUT', '/api/v1/namespaces/default/pods/a', { body: { ...cur, metadata: { ...cur.metadata, name: 'b' } } });
    expect(wrong.json.message).toBe('the name of the object (b) does not match the name on the URL (a)');
    const ok = await call('PUT', '/api/v1/namespaces/default/pods/a', { body: { ...cur, metadata: { ...cur.metadata, labels: { x: 'y' } } } });
    expect(ok.status).toBe(200);
    const stale = await call('PUT', '/api/v1/namespaces/default/pods/a', { body: cur });
    expect(stale.status).toBe(409);
    expect(stale.json.message).toBe('Operation cannot be fulfilled on pods "a": the object has been modified; please apply your changes to the latest version and try again');
  });

  it('strategic merge patch as kubectl apply sends it', async () => {
    reg.seed(pod('a'));
    const patch = { metadata: { labels: { tier: 'front' } }, spec: { '$setElementOrder/containers': [{ name: 'web' }], containers: [{ name: 'web', image: 'nginx:1.26' }] } };
    const r = await call<Pod>('PATCH', '/api/v1/namespaces/default/pods/a?fieldManager=kubectl-client-side-apply&fieldValidation=Strict', {
      body: patch,
      type: 'application/strategic-merge-patch+json',
    });
    expect(r.status).toBe(200);
    expect(r.json.spec?.containers).toEqual([{ name: 'web', image: 'nginx:1.26' }]);
    expect(r.json.metadata.labels).toEqual({ app: 'a', tier: 'front' });
  });

  it('patch: strict unknown fields, unsupported content type', async () => {
    reg.seed(pod('a'));
    const bad = await call('PATCH', '/api/v1/namespaces/default/pods/a?fieldValidation=Strict', { body: { spec: { nope: 1 } }, type: 'application/merge-patch+json' });
    expect(bad.json.message).toBe('Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.nope"');
    for (const type of ['text/plain', 'application/json', 'application/garbage']) {
      const t = await call('PATCH', '/api/v1/namespaces/default/pods/a', { body: { metadata: { labels: { x: 'y' } } }, type });
      expect([t.status, t.json.reason, t.json.message]).toEqual([
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
      ]);
    }
    expect((reg.objects.get('/pods/default/a') as Pod).metadata.labels).not.toHaveProperty('x');
  });

  it('a create, update or delete body in a format other than JSON, YAML or protobuf is a 415 and nothing is written', async () => {
    const accepted = 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf';
    for (const type of ['text/plain', 'application/garbage', 'application/x-www-form-urlencoded', '*/*']) {
      const created = await call('POST', '/api/v1/namespaces/default/pods', { body: podBody, type });
      expect([created.status, created.json.kind, created.json.reason, created.json.message]).toEqual([415, 'Status', 'UnsupportedMediaType', accepted]);
    }
    expect(reg.objects.size).toBe(0);
    reg.seed(pod('a'));
    const cur = (await call<Pod>('GET', '/api/v1/namespaces/default/pods/a')).json;
    const updated = await call('PUT', '/api/v1/namespaces/default/pods/a', { body: { ...cur, metadata: { ...cur.metadata, labels: { x: 'y' } } }, type: 'text/plain' });
    expect([updated.status, updated.json.message]).toEqual([415, accepted]);
    const deleted = await call('DELETE', '/api/v1/namespaces/default/pods/a', { body: { gracePeriodSeconds: 0 }, type: 'text/plain' });
    expect([deleted.status, deleted.json.message]).toEqual([415, accepted]);
    expect((reg.objects.get('/pods/default/a') as Pod).metadata.labels).not.toHaveProperty('x');
    // A charset parameter is not part of the media type.
    const withCharset = await call('POST', '/api/v1/namespaces/default/pods', { body: { ...podBody, metadata: { name: 'b' } }, type: 'application/json; charset=utf-8' });
    expect(withCharset.status).toBe(201);
  });

  it('patch: a wrong type in the patched object is 422 on "patch"; a JSON patch that does not apply is the generic 422', async () => {
    reg.seed(pod('a'));
    const wrong = await call('PATCH', '/api/v1/namespaces/default/pods/a', { body: { spec: { terminationGracePeriodSeconds: 'soon' } }, type: 'application/merge-patch+json' });
    expect(wrong.status).toBe(422);
    expect(wrong.json.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'patch',
        message: expect.stringMatching(/^Invalid value: "\{.*\}": json: cannot unmarshal string into Go struct field PodSpec\.spec\.terminationGracePeriodSeconds of type int64$/),
      },
    ]);
    const test = await call('PATCH', '/api/v1/namespaces/default/pods/a', { body: [{ op: 'test', path: '/metadata/name', value: 'b' }], type: 'application/json-patch+json' });
    expect([test.status, test.json.reason, test.json.message]).toEqual([422, 'Invalid', 'the server rejected our request due to an error in our request']);
    expect((await call<Pod>('GET', '/api/v1/namespaces/default/pods/a')).json.spec?.terminationGracePeriodSeconds).toBeUndefined();
  });

  it('a body that is not JSON is a 400; one over the size limit a 413; both leave nothing behind', async () => {
    const bad = await call('POST', '/api/v1/namespaces/default/pods', { body: '{"apiVersion": "v1", kind' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^couldn't get version\/kind; json parse error: /);
    const big = await call('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify({ ...podBody, metadata: { name: 'big', annotations: { a: 'x'.repeat(3 * 1024 * 1024) } } }) });
    expect(big.status).toBe(413);
    expect(big.json.reason).toBe('RequestEntityTooLarge');
    const text = await call('POST', '/api/v1/namespaces/default/pods', { body: 'kind: Pod', type: 'text/plain' });
    expect(text.status).toBe(415);
    const yaml = await call('POST', '/api/v1/namespaces/default/pods', { body: 'kind: Pod\nmetadata: {name: [', type: 'application/yaml' });
    expect(yaml.status).toBe(400);
    expect(yaml.json.message).toMatch(/^error converting YAML to JSON: /);
    expect(reg.objects.size).toBe(0);
  });

  it('creates from a YAML body (Content-Type: application/yaml), as curl --data-binary @pod.yaml does', async () => {
    const body = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: from-yaml\nspec:\n  containers:\n    - name: web\n      image: nginx\n';
    const r = await call<Pod>('POST', '/api/v1/namespaces/default/pods', { body, type: 'application/yaml' });
    expect(r.status).toBe(201);
    expect(r.json.metadata.name).toBe('from-yaml');
    expect(reg.objects.has('/pods/default/from-yaml')).toBe(true);
  });

  it('server-side apply creates a missing object', async () => {
    const r = await call('PATCH', '/api/v1/namespaces/default/pods/web?fieldManager=kubectl&fieldValidation=Strict&force=false', { body: podBody, type: 'application/apply-patch+yaml' });
    expect(r.status).toBe(201);
    expect(reg.objects.has('/pods/default/web')).toBe(true);
  });

  it('status subresource writes status only', async () => {
    reg.seed(pod('a'));
    const r = await call<Pod>('PATCH', '/api/v1/namespaces/default/pods/a/status', { body: { status: { phase: 'Running' }, spec: { nodeName: 'x' } }, type: 'application/merge-patch+json' });
    expect(r.json.status?.phase).toBe('Running');
    expect(r.json.spec?.nodeName).toBeUndefined();
  });
});

describe('subresources', () => {
  const deploy = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    status: { replicas: 1 },
  } as KubeObject;

  it('scale: get and merge-patch an autoscaling/v1 Scale', async () => {
    reg.seed(deploy);
    const g = await call<Scale>('GET', '/apis/apps/v1/namespaces/default/deployments/web/scale');
    expect(g.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1 }, status: { replicas: 1, selector: 'app=web' } });
    const p = await call<Scale>('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale', { body: { spec: { replicas: 3 } }, type: 'application/merge-patch+json' });
    expect(p.json.spec.replicas).toBe(3);
    expect((reg.objects.get('apps/deployments/default/web') as Deployment).spec?.replicas).toBe(3);
    const neg = await call('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale', { body: { spec: { replicas: -1 } }, type: 'application/merge-patch+json' });
    expect(neg.status).toBe(422);
    expect(neg.json.message).toBe('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('binding sets the node once; a second binding conflicts', async () => {
    reg.seed(pod('a'));
    const b = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'a' }, target: { kind: 'Node', name: 'node-1' } };
    const r = await call('POST', '/api/v1/namespaces/default/pods/a/binding', { body: b });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    expect((reg.objects.get('/pods/default/a') as Pod).spec?.nodeName).toBe('node-1');
    expect((await call('POST', '/api/v1/namespaces/default/pods/a/binding', { body: b })).status).toBe(409);
  });

  it('eviction deletes gracefully', async () => {
    reg.seed(pod('a', { spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx' }] } }));
    const r = await call('POST', '/api/v1/namespaces/default/pods/a/eviction', { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a', namespace: 'default' } } });
    expect(r.status).toBe(201);
    expect((reg.objects.get('/pods/default/a') as Pod).metadata.deletionTimestamp).toBe('2025-06-01T12:00:00Z');
  });

  it("log: proxies to the kubelet over HTTPS as apiserver-kubelet-client, with the container and options; the kubelet's refusals as upstream's checker words them", async () => {
    const seen: string[] = [];
    const kubelet = createHttpsServer({ cert: kubeletServing.cert, key: kubeletServing.key, ca: pki.caPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerX509Certificate();
      seen.push(`${certificateInfo(peer!.toString()).commonName} ${req.url!}`);
      if (req.url!.includes('/side')) {
        res.writeHead(400);
        res.end('container "side" in pod "a" is waiting to start: ContainerCreating');
        return;
      }
      if (req.url!.includes('/locked')) {
        res.writeHead(403);
        res.end('Forbidden (user=kube-apiserver-kubelet-client, verb=get, resource=nodes, subresource=proxy)');
        return;
      }
      res.end('hello\nworld\n');
    });
    await new Promise<void>((r) => kubelet.listen(0, '127.0.0.1', r));
    kubeletPort = (kubelet.address() as AddressInfo).port;
    try {
      reg.seed(
        pod('a', {
          spec: {
            nodeName: 'node-1',
            containers: [
              { name: 'web', image: 'nginx' },
              { name: 'side', image: 'busybox' },
              { name: 'locked', image: 'busybox' },
            ],
          },
        }),
      );
      const r = await call('GET', '/api/v1/namespaces/default/pods/a/log?container=web&tailLines=5&timestamps=true');
      expect(r.text).toBe('hello\nworld\n');
      expect(seen).toEqual(['kube-apiserver-kubelet-client /containerLogs/default/a/web?timestamps=true&tailLines=5']);
      const forbidden = await call('GET', '/api/v1/namespaces/default/pods/a/log?container=locked');
      expect(forbidden.status).toBe(403);
      expect(forbidden.json).toMatchObject({
        reason: 'Forbidden',
        message: 'Forbidden (user=kube-apiserver-kubelet-client, verb=get, resource=nodes, subresource=proxy) ( pods/log a)',
        details: { name: 'a', kind: 'pods/log' },
      });
      const waiting = await call('GET', '/api/v1/namespaces/default/pods/a/log?container=side');
      expect(waiting.status).toBe(400);
      expect(waiting.json).toMatchObject({ reason: 'BadRequest', message: 'container "side" in pod "a" is waiting to start: ContainerCreating' });
      const none = await call('GET', '/api/v1/namespaces/default/pods/a/log');
      expect(none.json.message).toBe('a container name must be specified for pod a, choose one of: [web side locked]');
    } finally {
      kubelet.closeAllConnections();
      await new Promise((r) => kubelet.close(r));
    }
  });
});

describe('delete and watch', () => {
  it('delete returns the object; a bound pod is deleted gracefully; force removes it', async () => {
    reg.seed(pod('a'), pod('b', { spec: { nodeName: 'n', containers: [{ name: 'web', image: 'nginx' }] } }));
    const a = await call<Pod>('DELETE', '/api/v1/namespaces/default/pods/a', { body: { propagationPolicy: 'Background' } });
    expect(a.status).toBe(200);
    expect(a.json.metadata.name).toBe('a');
    expect(reg.objects.has('/pods/default/a')).toBe(false);
    const b = await call<Pod>('DELETE', '/api/v1/namespaces/default/pods/b');
    expect(b.json.metadata.deletionTimestamp).toBe('2025-06-01T12:00:00Z');
    expect(reg.objects.has('/pods/default/b')).toBe(true);
    await call('DELETE', '/api/v1/namespaces/default/pods/b?gracePeriodSeconds=0');
    expect(reg.objects.has('/pods/default/b')).toBe(false);
  });

  it('watch: initial ADDED for rv=0, then changes, as Table rows; stops when the client leaves', async () => {
    reg.seed(pod('a'));
    const ctrl = new AbortController();
    const res = await fetch(`${base}/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Da&resourceVersion=0&watch=true`, { headers: { accept: TABLE }, signal: ctrl.signal });
    expect(res.headers.get('content-type')).toBe('application/json');
    const reader = res.body!.getReader();
    const lines: string[] = [];
    let buf = '';
    const next = async () => {
      while (!buf.includes('\n')) {
        const { value } = await reader.read();
        buf += Buffer.from(value!).toString();
      }
      const i = buf.indexOf('\n');
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
      return JSON.parse(lines[lines.length - 1]!);
    };
    const first = await next();
    expect(first.type).toBe('ADDED');
    expect(first.object.kind).toBe('Table');
    expect(first.object.columnDefinitions).toHaveLength(9);
    expect(first.object.rows[0].cells.slice(0, 3)).toEqual(['a', '0/1', 'Pending']);
    await call('PATCH', '/api/v1/namespaces/default/pods/a/status', { body: { status: { phase: 'Running' } }, type: 'application/merge-patch+json' });
    const second = await next();
    expect(second.type).toBe('MODIFIED');
    expect(second.object.columnDefinitions).toEqual([]);
    expect(second.object.rows[0].cells[2]).toBe('Running');
    ctrl.abort();
    await expect.poll(() => reg.subscribers.size).toBe(0);
  });

  it('watch with plain JSON carries whole objects; timeoutSeconds ends it', async () => {
    reg.seed(pod('a'));
    const r = await call('GET', '/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1');
    const events = r.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'a' } } });
  });
});
