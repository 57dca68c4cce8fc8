import { describe, expect, it } from 'vitest';
import type { Event, Namespace, Node, Pod } from '../index.js';
import { convertFieldLabel, convertFieldSelector, objectFields } from './selectable.js';
import { fieldSelectorFromSet, parseFieldSelector } from './selector.js';

describe('parseFieldSelector', () => {
  it.each([
    ['single equality', 'metadata.name=web', 'metadata.name=web', { 'metadata.name': 'web' }, true],
    ['double equals prints as =', 'status.phase==Running', 'status.phase=Running', { 'status.phase': 'Running' }, true],
    ['not equals', 'spec.nodeName!=', 'spec.nodeName!=', { 'spec.nodeName': 'n1' }, true],
    ['missing field reads empty', 'spec.nodeName=', 'spec.nodeName=', {}, true],
    ['terms sorted', 'b=2,a=1', 'a=1,b=2', { a: '1', b: '2' }, true],
    ['escaped comma in value', 'a=x\\,y', 'a=x\\,y', { a: 'x,y' }, true],
    ['empty selects everything', '', '', {}, true],
  ])('%s: %j', (_name, input, printed, fields, want) => {
    const s = parseFieldSelector(input);
    expect(s.toString()).toBe(printed);
    expect(s.matches(fields)).toBe(want);
  });

  it.each([
    ['no operator', 'metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['bad escape', 'a=\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['unescaped equals in value', 'a==b=c', 'invalid field selector: unescaped character in value: ='],
  ])('%s: %j fails with upstream text', (_name, input, message) => {
    expect(() => parseFieldSelector(input)).toThrow(message);
  });

  it('finds the pinned node name', () => {
    expect(parseFieldSelector('spec.nodeName=node-1').requiresExactMatch('spec.nodeName')).toBe('node-1');
    expect(fieldSelectorFromSet({ 'spec.nodeName': 'n' }).toString()).toBe('spec.nodeName=n');
  });
});

describe('objectFields', () => {
  it('pod exposes spec and status fields', () => {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [], nodeName: 'node-1', restartPolicy: 'Always', schedulerName: 'default-scheduler' },
      status: { phase: 'Running', podIP: '10.244.1.5', podIPs: [{ ip: '10.244.1.5' }] },
    };
    expect(objectFields(pod)).toEqual({
      'metadata.name': 'p',
      'metadata.namespace': 'default',
      'spec.nodeName': 'node-1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': '',
      'spec.hostNetwork': 'false',
      'status.phase': 'Running',
      'status.podIP': '10.244.1.5',
      'status.nominatedNodeName': '',
    });
  });

  it('event exposes involvedObject fields; source falls back to reportingComponent', () => {
    const ev: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'p.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default', uid: 'u1' },
      reason: 'Scheduled',
      type: 'Normal',
      reportingComponent: 'default-scheduler',
    };
    const f = objectFields(ev);
    expect(f['involvedObject.kind']).toBe('Pod');
    expect(f['involvedObject.uid']).toBe('u1');
    expect(f.source).toBe('default-scheduler');
    expect(parseFieldSelector('involvedObject.name=p,type=Normal').matches(f)).toBe(true);
  });

  it('cluster-scoped kinds have no metadata.namespace', () => {
    const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: { unschedulable: true } };
    expect(objectFields(node)).toEqual({ 'metadata.name': 'n1', 'spec.unschedulable': 'true' });
    const ns: Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' }, status: { phase: 'Active' } };
    expect(objectFields(ns)).toEqual({ 'metadata.name': 'x', name: 'x', 'status.phase': 'Active' });
  });
});

describe('convertFieldLabel', () => {
  it.each([
    ['pod nodeName accepted', 'v1', 'Pod', 'spec.nodeName', 'spec.nodeName'],
    ['pod spec.host renamed', 'v1', 'Pod', 'spec.host', 'spec.nodeName'],
    ['secret type', 'v1', 'Secret', 'type', 'type'],
    ['deployment name', 'apps/v1', 'Deployment', 'metadata.name', 'metadata.name'],
  ])('%s', (_name, apiVersion, kind, label, want) => {
    expect(convertFieldLabel(apiVersion, kind, label)).toBe(want);
  });

  it.each([
    ['pod unknown label', 'v1', 'Pod', 'spec.foo', 'field label not supported: spec.foo'],
    ['event unknown label', 'v1', 'Event', 'message', 'field label not supported: message'],
    ['kinds without conversion use the default text', 'apps/v1', 'Deployment', 'spec.replicas', '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"'],
  ])('%s', (_name, apiVersion, kind, label, message) => {
    expect(() => convertFieldLabel(apiVersion, kind, label)).toThrow(message);
  });

  it('converts a whole selector', () => {
    expect(convertFieldSelector('v1', 'Pod', parseFieldSelector('spec.host=n1')).toString()).toBe('spec.nodeName=n1');
  });
});
