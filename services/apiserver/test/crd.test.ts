// CustomResourceDefinitions over REST against a real apiserver: the CRD's
// conditions, the custom resource's verbs, its schema (validation, pruning,
// defaulting), /status and /scale, discovery, Table columns, and deletion
// of the CRD taking its objects with it.

import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

type Json = Record<string, any>;

const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The CronTab CRD of the upstream docs' task, with /status, /scale and printer columns. */
export const cronTabCrd = () => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['cronSpec'],
                properties: {
                  cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                  image: { type: 'string', maxLength: 20 },
                  replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                  policy: { type: 'string', enum: ['Allow', 'Forbid'] },
                  extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } } },
            },
          },
        },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } },
        additionalPrinterColumns: [
          { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
});

const cronTab = (name: string, spec: Json = { cronSpec: '* * * * */5', image: 'my-cron-image' }) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec });

describe.runIf(requireTool('nats-server'))('CustomResourceDefinitions over REST', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startTestCluster({ rest: true });
  });
  afterAll(async () => {
    await c?.cleanup();
  });
  const rest = async (path: string, opts: { method?: string; body?: unknown; type?: string; accept?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.body !== undefined) headers['Content-Type'] = opts.type ?? 'application/json';
    if (opts.accept) headers.Accept = opts.accept;
    const r = await c.rest(path, { method: opts.method ?? 'GET', headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
    return { status: r.status, body: (r.body ? JSON.parse(r.body) : undefined) as Json };
  };

  it('a CRD is accepted and established with upstream conditions, and its resource is discovered', async () => {
    const created = await rest(CRD_PATH, { method: 'POST', body: cronTabCrd() });
    expect(created.status).toBe(201);
    expect(created.body.status.storedVersions).toEqual(['v1']);
    const crd = await waitFor('the CRD to be Established', async () => {
      const r = await rest(`${CRD_PATH}/crontabs.stable.example.com`);
      return r.body.status?.conditions?.some((c: Json) => c.type === 'Established' && c.status === 'True') ? r.body : undefined;
    });
    expect(crd.status.conditions.map((c: Json) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
      ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
    ]);
    expect(crd.status.acceptedNames).toEqual({ plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList', categories: ['all'] });
    const list = await rest('/apis/stable.example.com/v1');
    expect(list.body.resources[0]).toEqual({
      name: 'crontabs',
      singularName: 'crontab',
      namespaced: true,
      kind: 'CronTab',
      verbs: expect.arrayContaining(['create', 'get', 'list', 'watch', 'patch', 'update', 'delete', 'deletecollection']),
      shortNames: ['ct'],
      categories: ['all'],
    });
    expect(list.body.resources.map((r: Json) => r.name)).toEqual(['crontabs', 'crontabs/status', 'crontabs/scale']);
    const groups = await rest('/apis');
    expect(groups.body.groups.find((g: Json) => g.name === 'stable.example.com')).toEqual({
      name: 'stable.example.com',
      versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
    });
  });

  it('creates with defaults, prunes unknown fields, keeps preserved ones', async () => {
    const r = await rest(CRONTABS, { method: 'POST', body: cronTab('a', { cronSpec: '* * * * */5', unknown: 'x', extra: { any: { thing: 1 } } }) });
    expect(r.status).toBe(201);
    expect(r.body.spec).toEqual({ cronSpec: '* * * * */5', replicas: 1, extra: { any: { thing: 1 } } });
    expect(r.body.metadata.generation).toBe(1);
    expect((await rest(`${CRONTABS}/a`)).body.spec.replicas).toBe(1);
  });

  it('refuses an invalid object with upstream 422 field errors', async () => {
    const r = await rest(CRONTABS, { method: 'POST', body: cronTab('bad', { cronSpec: 'nope', image: 'x'.repeat(21), replicas: 'three', policy: 'Maybe' }) });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'CronTab.stable.example.com "bad" is invalid: [spec.cronSpec: Invalid value: "nope": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\', spec.image: Too long: may not be more than 20 bytes, spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", spec.policy: Unsupported value: "Maybe": supported values: "Allow", "Forbid"]',
    );
    const missing = await rest(CRONTABS, { method: 'POST', body: cronTab('bad', { replicas: 11 }) });
    expect(missing.body.message).toBe(
      'CronTab.stable.example.com "bad" is invalid: [spec.cronSpec: Required value, spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10]',
    );
  });

  it('merge and JSON patches apply; a strategic merge patch is 415 as upstream', async () => {
    const merged = await rest(`${CRONTABS}/a`, { method: 'PATCH', type: 'application/merge-patch+json', body: { spec: { image: 'v2' } } });
    expect([merged.status, merged.body.spec.image, merged.body.metadata.generation]).toEqual([200, 'v2', 2]);
    const json = await rest(`${CRONTABS}/a`, { method: 'PATCH', type: 'application/json-patch+json', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] });
    expect([json.status, json.body.spec.replicas]).toEqual([200, 3]);
    const smp = await rest(`${CRONTABS}/a`, { method: 'PATCH', type: 'application/strategic-merge-patch+json', body: { spec: { image: 'v3' } } });
    expect(smp.status).toBe(415);
    expect(smp.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('/status writes only status; the main resource ignores status; generation follows spec only', async () => {
    const cur = (await rest(`${CRONTABS}/a`)).body;
    const st = await rest(`${CRONTABS}/a/status`, { method: 'PUT', body: { ...cur, spec: { ...cur.spec, image: 'ignored' }, status: { replicas: 2, labelSelector: 'app=cron' } } });
    expect([st.status, st.body.spec.image, st.body.status, st.body.metadata.generation]).toEqual([200, 'v2', { replicas: 2, labelSelector: 'app=cron' }, cur.metadata.generation]);
    const main = await rest(`${CRONTABS}/a`, { method: 'PATCH', type: 'application/merge-patch+json', body: { status: { replicas: 9 } } });
    expect([main.body.status.replicas, main.body.metadata.generation]).toEqual([2, cur.metadata.generation]);
  });

  it('/scale reads and writes through the CRD paths', async () => {
    const scale = await rest(`${CRONTABS}/a/scale`);
    expect([scale.body.kind, scale.body.apiVersion, scale.body.spec, scale.body.status]).toEqual(['Scale', 'autoscaling/v1', { replicas: 3 }, { replicas: 2, selector: 'app=cron' }]);
    const scaled = await rest(`${CRONTABS}/a/scale`, { method: 'PATCH', type: 'application/merge-patch+json', body: { spec: { replicas: 5 } } });
    expect(scaled.body.spec).toEqual({ replicas: 5 });
    expect((await rest(`${CRONTABS}/a`)).body.spec.replicas).toBe(5);
  });

  it('fields the schema does not declare: warnings by default, a strict decoding error under Strict', async () => {
    const warned = await c.rest(CRONTABS, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cronTab('w', { cronSpec: '* * * * *', foo: 1 })) });
    expect([warned.status, warned.headers.warning]).toEqual([201, '299 - "unknown field \\"spec.foo\\""']);
    const strict = await rest(`${CRONTABS}?fieldValidation=Strict`, { method: 'POST', body: cronTab('s', { cronSpec: '* * * * *', foo: 1 }) });
    expect([strict.status, strict.body.message]).toEqual([400, 'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.foo"']);
  });

  it('a watch sees custom objects change', async () => {
    const list = await rest(CRONTABS);
    // From the list's resourceVersion, the watch sees a create made after it, whenever the stream opens.
    const pending = c.rest(`${CRONTABS}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}&timeoutSeconds=2`, {});
    expect((await rest(CRONTABS, { method: 'POST', body: cronTab('watched') })).status).toBe(201);
    const watch = await pending;
    const events = watch.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    expect(events.map((e) => [e.type, e.object.kind, e.object.apiVersion, e.object.metadata.name])).toEqual([['ADDED', 'CronTab', 'stable.example.com/v1', 'watched']]);
  });

  it('OpenAPI v3 publishes the schema under upstream names', async () => {
    const root = await rest('/openapi/v3');
    const url: string = root.body.paths['apis/stable.example.com/v1'].serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/stable.example.com\/v1\?hash=[0-9A-F]+$/);
    const doc = await rest(url);
    const s = doc.body.components.schemas['com.example.stable.v1.CronTab'];
    expect(s['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    expect(Object.keys(s.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(s.properties.spec.properties.replicas).toEqual({ type: 'integer', minimum: 1, maximum: 10, default: 1 });
    expect(doc.body.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toBeDefined();
  });

  it('OpenAPI v2 carries the schema and paths too (JSON and protobuf), and changes its ETag with them', async () => {
    const json = await c.rest('/openapi/v2', { headers: { accept: 'application/json' } });
    expect([json.status, json.headers['content-type']]).toEqual([200, 'application/json']);
    const doc = { body: JSON.parse(json.body) as Json };
    const s = doc.body.definitions['com.example.stable.v1.CronTab'];
    expect(s['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    expect(s.properties.spec.properties.replicas).toEqual({ type: 'integer', minimum: 1, maximum: 10, default: 1 });
    expect(Object.keys(doc.body.paths)).toContain('/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}');
    expect(doc.body.definitions['io.k8s.api.core.v1.Pod']).toBeDefined();
    const pb = await c.rest('/openapi/v2', { headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect(pb.status).toBe(200);
    expect(pb.headers.etag).toBe(json.headers.etag);
  });

  it('Table output has the additionalPrinterColumns', async () => {
    const table = await rest(CRONTABS, { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' });
    expect(table.body.columnDefinitions.map((c: Json) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Spec', 'string'],
      ['Replicas', 'integer'],
      ['Age', 'date'],
    ]);
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['a', '* * * * */5', 5]);
  });

  it('a CRD that is not valid is refused with upstream field errors', async () => {
    const bad = cronTabCrd();
    bad.metadata.name = 'wrong.stable.example.com';
    (bad.spec.versions[0] as Json).storage = false;
    delete (bad.spec.versions[0] as Json).schema;
    const r = await rest(CRD_PATH, { method: 'POST', body: bad });
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('metadata.name: Invalid value: "wrong.stable.example.com": must be spec.names.plural+"."+spec.group');
    expect(r.body.message).toContain('spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required');
    expect(r.body.message).toContain('must have exactly one version marked as storage version');
  });

  it('deleting the CRD deletes its objects, then the CRD, and the endpoints go', async () => {
    expect((await rest(CRONTABS, { method: 'POST', body: cronTab('b') })).status).toBe(201);
    const del = await rest(`${CRD_PATH}/crontabs.stable.example.com`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(del.body.status.conditions.find((c: Json) => c.type === 'Terminating')).toMatchObject({ status: 'True', reason: 'InstanceDeletionPending' });
    await waitFor('the CRD to be gone', async () => (await rest(`${CRD_PATH}/crontabs.stable.example.com`)).status === 404);
    expect((await rest(CRONTABS)).status).toBe(404);
    expect((await rest('/apis')).body.groups.some((g: Json) => g.name === 'stable.example.com')).toBe(false);
    // Re-created, the CRD starts empty: its old objects went with it.
    await rest(CRD_PATH, { method: 'POST', body: cronTabCrd() });
    const list = await waitFor('the CRD to serve again', async () => {
      const r = await rest(CRONTABS);
      return r.status === 200 ? r.body : undefined;
    });
    expect(list.items).toEqual([]);
  });
});
