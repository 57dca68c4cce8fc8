import type { CustomResourceColumnDefinition } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { evaluate, parsePath, setAtPath } from './jsonpath.js';
import { cell, customResourcePrinter } from './printer.js';

const obj = {
  metadata: { name: 'a', creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'app.kubernetes.io/name': 'x' } },
  spec: { cronSpec: '* * * * */5', replicas: 3, ports: [{ port: 80 }, { port: 443 }], ok: true, ratio: 0.5 },
};

describe('the JSON paths of CRDs', () => {
  it.each<[string, unknown[]]>([
    ['.spec.cronSpec', ['* * * * */5']],
    ['{.spec.replicas}', [3]],
    ['.spec.ports[1].port', [443]],
    ['.spec.ports[*].port', [80, 443]],
    [".metadata.labels['app.kubernetes.io/name']", ['x']],
    ['.spec.missing', []],
    ['.spec.ports[5]', []],
    ['spec', []],
  ])('%s', (path, want) => {
    expect(evaluate(obj, path)).toEqual(want);
  });

  it('refuses what is not a simple path', () => {
    expect(parsePath('.spec[?(@.x)]')).toBeUndefined();
  });

  it('setAtPath writes and creates the objects on the way', () => {
    const o: Record<string, unknown> = { spec: {} };
    setAtPath(o, '.spec.scale.replicas', 4);
    expect(o).toEqual({ spec: { scale: { replicas: 4 } } });
  });
});

describe('custom resource Table columns', () => {
  const now = new Date('2026-01-01T00:05:00Z');
  it.each<[CustomResourceColumnDefinition, unknown]>([
    [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }, '* * * * */5'],
    [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }, 3],
    [{ name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' }, 0.5],
    [{ name: 'OK', type: 'boolean', jsonPath: '.spec.ok' }, true],
    [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }, '5m'],
    [{ name: 'Ports', type: 'string', jsonPath: '.spec.ports[*].port' }, '80,443'],
    [{ name: 'Missing', type: 'string', jsonPath: '.spec.nothing' }, null],
    [{ name: 'Wrong', type: 'integer', jsonPath: '.spec.cronSpec' }, null],
  ])('%o', (c, want) => {
    expect(cell(c, obj, now)).toEqual(want);
  });

  it('a version without columns prints Name and Age', () => {
    const p = customResourcePrinter([]);
    expect(p.columns.map((c) => c.name)).toEqual(['Name', 'Age']);
    expect(p.cells(obj, now)).toEqual(['a', '5m']);
  });

  it('priority and format come from the column', () => {
    const p = customResourcePrinter([{ name: 'Image', type: 'string', format: 'byte', priority: 1, description: 'the image', jsonPath: '.spec.image' }]);
    expect(p.columns[1]).toEqual({ name: 'Image', type: 'string', format: 'byte', description: 'the image', priority: 1 });
  });
});
