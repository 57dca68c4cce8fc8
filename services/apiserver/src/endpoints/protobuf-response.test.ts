// Protobuf responses through the REST handler: negotiation (first servable
// range wins, Table and metadata-only answers stay JSON, 406 when only
// protobuf is acceptable and the answer has none), get, list and watch.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kubelab/api';
import { FakeRegistry } from '../testing/index.js';
import { createRestHandler } from './index.js';
import { decodeProtobuf } from './protobuf.js';
import { responseEncoding } from './negotiate.js';
import { OBJECTS } from './testdata/objects.js';

const PB = 'application/vnd.kubernetes.protobuf';

describe('responseEncoding', () => {
  it.each([
    ['client-go with protobuf', `${PB},application/json`, true, 'protobuf'],
    ['JSON first', `application/json,${PB}`, true, 'json'],
    ['a kind without a message falls to JSON', `${PB},application/json`, false, 'json'],
    ['only protobuf, none here: 406', PB, false, 'none'],
    ['a protobuf Table range is passed over for JSON', `${PB};as=Table;g=meta.k8s.io;v=v1,application/json`, true, 'json'],
    ['only a protobuf Table range: 406', `${PB};as=Table;g=meta.k8s.io;v=v1`, true, 'none'],
    ['no Accept', undefined, true, 'json'],
    ['*/*', '*/*', true, 'json'],
    ['an unknown type stays lenient (JSON)', 'text/html', true, 'json'],
  ])('%s', (_what, accept, can, want) => {
    expect(responseEncoding(accept, can)).toBe(want);
  });
});

let server: Server;
let base: string;

beforeAll(async () => {
  const reg = new FakeRegistry();
  reg.seed(OBJECTS.Pod as KubeObject, OBJECTS.ConfigMap as KubeObject);
  const handler = createRestHandler({ registry: reg });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const get = async (path: string, accept: string) => {
  const res = await fetch(base + path, { headers: { accept } });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};

describe('protobuf responses', () => {
  it('get: the object as k8s\\0 + Unknown; it decodes back to what JSON shows', async () => {
    const pb = await get('/api/v1/namespaces/default/pods/web-7c9f8d6b5-x2x4k', `${PB}, */*`);
    expect(pb.status).toBe(200);
    expect(pb.type).toBe(PB);
    const json = JSON.parse((await get('/api/v1/namespaces/default/pods/web-7c9f8d6b5-x2x4k', 'application/json')).body.toString()) as KubeObject;
    const decoded = decodeProtobuf(pb.body);
    expect(decoded.metadata).toEqual(json.metadata);
    expect((decoded as unknown as { spec: unknown }).spec).toMatchObject({ nodeName: 'node-1', containers: [expect.objectContaining({ name: 'nginx', image: 'nginx:1.27' })] });
  });

  it('list: a ConfigMapList', async () => {
    const pb = await get('/api/v1/namespaces/default/configmaps', PB);
    expect(pb.type).toBe(PB);
    expect(pb.body.toString('latin1')).toContain('ConfigMapList');
    expect(pb.body.toString('latin1')).toContain('web-conf');
  });

  it('Table stays JSON; protobuf alone for a Table is a 406 in upstream words', async () => {
    const table = await get('/api/v1/namespaces/default/configmaps', `${PB};as=Table;g=meta.k8s.io;v=v1,application/json;as=Table;g=meta.k8s.io;v=v1,application/json`);
    expect(table.type).toBe('application/json');
    expect(JSON.parse(table.body.toString()).kind).toBe('Table');
    const refused = await get('/api/v1/namespaces/default/configmaps', `${PB};as=Table;g=meta.k8s.io;v=v1`);
    expect(refused.status).toBe(406);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ reason: 'NotAcceptable', message: 'only the following media types are accepted: application/json, application/yaml', code: 406 });
  });

  it('watch: length-prefixed WatchEvent frames with the stream=watch Content-Type', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${base}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0`, { headers: { accept: PB }, signal: ctrl.signal });
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    const reader = res.body!.getReader();
    let buf = Buffer.alloc(0);
    while (buf.length < 4 || buf.length < 4 + buf.readUInt32BE(0)) {
      const { value } = await reader.read();
      buf = Buffer.concat([buf, Buffer.from(value!)]);
    }
    ctrl.abort();
    const frame = buf.subarray(4, 4 + buf.readUInt32BE(0));
    // WatchEvent {1 "ADDED", 2 RawExtension {1 k8s\0...}}
    expect(frame[0]).toBe(0x0a);
    expect(frame.subarray(2, 2 + frame[1]!).toString()).toBe('ADDED');
    const rawStart = frame.indexOf(Buffer.from('k8s\0', 'latin1'));
    expect(decodeProtobuf(frame.subarray(rawStart)).metadata.name).toBe('web-conf');
  });
});
