import { describe, expect, it } from 'vitest';
import type { CriContainerStatusResponse__Output } from '@kubelab/proto';
import { containerStatusData, formatVersion } from './inspect.js';
import { toProtoJson } from './protojson.js';
import { formatStatusData } from './status.js';

const status = (state: string, over: Record<string, unknown> = {}) =>
  ({
    status: {
      id: 'abc',
      metadata: { name: 'app', attempt: 0 },
      state,
      createdAt: '1764596000123456789',
      startedAt: '1764596001000000000',
      finishedAt: '1764596002500000000',
      exitCode: 0,
      image: null,
      imageRef: 'ref',
      reason: '',
      message: '',
      labels: { b: '2', a: '1' },
      annotations: {},
      mounts: [],
      logPath: '/var/log/pods/x/app/0.log',
      resources: null,
      imageId: '',
      user: null,
      stopSignal: 'RUNTIME_DEFAULT',
      ...over,
    },
    info: { info: '{"pid":1,"sandboxID":"p"}' },
  }) as unknown as CriContainerStatusResponse__Output;

describe('protojson', () => {
  it('emits scalars, empty lists and maps, leaves unset messages out, keeps declaration order', () => {
    const j = toProtoJson('ContainerStatus', status('CONTAINER_RUNNING').status!);
    expect(j).not.toHaveProperty('image');
    expect(j).toMatchObject({ id: 'abc', createdAt: '1764596000123456789', mounts: [], annotations: {}, logPath: '/var/log/pods/x/app/0.log' });
    expect(Object.keys(j).slice(0, 4)).toEqual(['id', 'metadata', 'state', 'createdAt']);
  });
});

describe('crictl inspect output', () => {
  it('a running container: no finish time; keys sorted at every level; info parsed', () => {
    const text = formatStatusData([containerStatusData(status('CONTAINER_RUNNING'))], 'json');
    const v = JSON.parse(text) as { status: Record<string, unknown>; info: unknown };
    expect(Object.keys(v)).toEqual(['info', 'status']);
    expect(v.info).toEqual({ pid: 1, sandboxID: 'p' });
    expect(v.status).toMatchObject({ startedAt: '2025-12-01T13:33:21Z', finishedAt: '0001-01-01T00:00:00Z' });
    expect(text).toContain('"labels": {\n      "a": "1",\n      "b": "2"\n    }');
  });
  it('a created container has no start time; an exited one has its finish time', () => {
    expect(JSON.parse(formatStatusData([containerStatusData(status('CONTAINER_CREATED'))], 'json')).status.startedAt).toBe('0001-01-01T00:00:00Z');
    expect(JSON.parse(formatStatusData([containerStatusData(status('CONTAINER_EXITED'))], 'json')).status.finishedAt).toBe('2025-12-01T13:33:22.5Z');
  });
  it('escapes HTML characters as Go does, and prints YAML with sorted keys', () => {
    expect(formatStatusData([{ status: { m: '<a&b>' } }], 'json')).toBe('{\n  "status": {\n    "m": "\\u003ca\\u0026b\\u003e"\n  }\n}');
    expect(formatStatusData([{ status: { z: 1, a: [1] } }], 'yaml')).toBe('status:\n  a:\n  - 1\n  z: 1\n');
  });
  it('two entries are an array; an unknown format is an error', () => {
    expect(JSON.parse(formatStatusData([{ status: 1 }, { status: 2 }], 'json'))).toEqual([{ status: 1 }, { status: 2 }]);
    expect(() => formatStatusData([{ status: 1 }], 'xml')).toThrow('unsupported format: "xml"');
  });
  it('version puts two spaces after each colon (fmt.Println of two values)', () => {
    expect(formatVersion({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.7.24', runtimeApiVersion: 'v1' })).toBe(
      'Version:  0.1.0\nRuntimeName:  containerd\nRuntimeVersion:  v1.7.24\nRuntimeApiVersion:  v1\n',
    );
  });
});
