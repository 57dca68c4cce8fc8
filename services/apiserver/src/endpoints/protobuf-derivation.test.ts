import { describe, expect, it } from 'vitest';
import { SCHEMA } from '@kubelab/api';
import { PROTOBUF_KINDS, protobufFields } from './protobuf.js';

// Today's hand-written message tables, frozen, to check the descriptors the
// decoder derives from the schema against them before the tables go.
type Kind = 'string' | 'int' | 'bool' | 'bytes' | 'msg' | 'map' | 'bytesmap' | 'intstr' | 'time' | 'quantity';

interface PField {
  name: string;
  kind: Kind;
  msg?: PMsg;
  repeated?: boolean;
  /** A pointer field in Go: a zero value was set on purpose, keep it. */
  keepZero?: boolean;
}

type PMsg = Record<number, PField>;

const f = (name: string, kind: Kind, extra: Partial<PField> = {}): PField => ({ name, kind, ...extra });
const m = (name: string, msg: PMsg, extra: Partial<PField> = {}): PField => ({ name, kind: 'msg', msg, ...extra });
const list = (name: string, msg: PMsg): PField => ({ name, kind: 'msg', msg, repeated: true });
const strings = (name: string): PField => ({ name, kind: 'string', repeated: true });

const OwnerReference: PMsg = { 1: f('kind', 'string'), 3: f('name', 'string'), 4: f('uid', 'string'), 5: f('apiVersion', 'string'), 6: f('controller', 'bool', { keepZero: true }), 7: f('blockOwnerDeletion', 'bool', { keepZero: true }) };
const ObjectMeta: PMsg = {
  1: f('name', 'string'),
  2: f('generateName', 'string'),
  3: f('namespace', 'string'),
  5: f('uid', 'string'),
  6: f('resourceVersion', 'string'),
  8: f('creationTimestamp', 'time'),
  11: f('labels', 'map'),
  12: f('annotations', 'map'),
  13: list('ownerReferences', OwnerReference),
  14: strings('finalizers'),
};
const LabelSelector: PMsg = { 1: f('matchLabels', 'map'), 2: list('matchExpressions', { 1: f('key', 'string'), 2: f('operator', 'string'), 3: strings('values') }) };
const ContainerPort: PMsg = { 1: f('name', 'string'), 2: f('hostPort', 'int'), 3: f('containerPort', 'int'), 4: f('protocol', 'string'), 5: f('hostIP', 'string') };
const EnvVar: PMsg = { 1: f('name', 'string'), 2: f('value', 'string') };
const Resources: PMsg = { 1: f('limits', 'map', { msg: { 1: f('string', 'string') } }), 2: f('requests', 'map', { msg: { 1: f('string', 'string') } }) };
const Container: PMsg = {
  1: f('name', 'string'),
  2: f('image', 'string'),
  3: strings('command'),
  4: strings('args'),
  5: f('workingDir', 'string'),
  6: list('ports', ContainerPort),
  7: list('env', EnvVar),
  8: m('resources', Resources, { keepZero: true }),
  13: f('terminationMessagePath', 'string'),
  14: f('imagePullPolicy', 'string'),
  16: f('stdin', 'bool'),
  17: f('stdinOnce', 'bool'),
  18: f('tty', 'bool'),
  20: f('terminationMessagePolicy', 'string'),
};
const PodSpec: PMsg = {
  2: list('containers', Container),
  3: f('restartPolicy', 'string'),
  4: f('terminationGracePeriodSeconds', 'int', { keepZero: true }),
  6: f('dnsPolicy', 'string'),
  7: f('nodeSelector', 'map'),
  8: f('serviceAccountName', 'string'),
  10: f('nodeName', 'string'),
  20: list('initContainers', Container),
};
const PodTemplateSpec: PMsg = { 1: m('metadata', ObjectMeta), 2: m('spec', PodSpec) };
const RollingUpdate: PMsg = { 1: f('maxUnavailable', 'intstr'), 2: f('maxSurge', 'intstr') };
const Deployment: PMsg = {
  1: m('metadata', ObjectMeta),
  2: m('spec', {
    1: f('replicas', 'int', { keepZero: true }),
    2: m('selector', LabelSelector),
    3: m('template', PodTemplateSpec),
    4: m('strategy', { 1: f('type', 'string'), 2: m('rollingUpdate', RollingUpdate) }),
    5: f('minReadySeconds', 'int'),
    6: f('revisionHistoryLimit', 'int', { keepZero: true }),
    7: f('paused', 'bool'),
    9: f('progressDeadlineSeconds', 'int', { keepZero: true }),
  }),
};
const ServicePort: PMsg = { 1: f('name', 'string'), 2: f('protocol', 'string'), 3: f('port', 'int'), 4: f('targetPort', 'intstr'), 5: f('nodePort', 'int'), 6: f('appProtocol', 'string') };
const Service: PMsg = {
  1: m('metadata', ObjectMeta),
  2: m('spec', {
    1: list('ports', ServicePort),
    2: f('selector', 'map'),
    3: f('clusterIP', 'string'),
    4: f('type', 'string'),
    5: strings('externalIPs'),
    7: f('sessionAffinity', 'string'),
    10: f('externalName', 'string'),
    11: f('externalTrafficPolicy', 'string'),
  }),
};
const ConfigMap: PMsg = { 1: m('metadata', ObjectMeta), 2: f('data', 'map'), 3: f('binaryData', 'bytesmap'), 4: f('immutable', 'bool', { keepZero: true }) };
const Secret: PMsg = { 1: m('metadata', ObjectMeta), 2: f('data', 'bytesmap'), 3: f('type', 'string'), 4: f('stringData', 'map'), 5: f('immutable', 'bool', { keepZero: true }) };
const Namespace: PMsg = { 1: m('metadata', ObjectMeta), 2: m('spec', { 1: strings('finalizers') }) };

const BY_KIND: Record<string, PMsg> = { Deployment, Service, ConfigMap, Secret, Namespace };

type Norm = Record<number, { name: string; kind: Kind; repeated: boolean; keepZero: boolean; msg?: Norm }>;

const normFrozen = (m: PMsg): Norm =>
  Object.fromEntries(
    Object.entries(m).map(([no, f]) => [no, { name: f.name, kind: f.kind, repeated: !!f.repeated, keepZero: !!f.keepZero, ...(f.msg ? { msg: normFrozen(f.msg) } : {}) }]),
  );

const KIND_OF: Record<string, Kind> = { string: 'string', int32: 'int', int64: 'int', boolean: 'bool', Time: 'time', IntOrString: 'intstr', 'map[string]string': 'map', 'map[string]bytes': 'bytesmap', 'map[string]Quantity': 'map' };

function normDerived(typeName: string): Norm {
  const out: Norm = {};
  for (const [no, f] of protobufFields(typeName)) {
    const repeated = f.type.startsWith('[]');
    const item = repeated ? f.type.slice(2) : f.type;
    const struct = SCHEMA[item]?.fields ? item : undefined;
    out[no] = {
      name: f.name,
      kind: struct ? 'msg' : KIND_OF[item]!,
      repeated,
      keepZero: f.keepZero,
      // The frozen table spelled Quantity's message { string string = 1 } out.
      ...(struct ? { msg: normDerived(struct) } : f.type === 'map[string]Quantity' ? { msg: { 1: { name: 'string', kind: 'string', repeated: false, keepZero: false } } } : {}),
    };
  }
  return out;
}

describe('protobuf descriptors derived from the schema equal the hand-written tables', () => {
  it('the same kinds', () => {
    expect([...PROTOBUF_KINDS].sort()).toEqual(Object.keys(BY_KIND).sort());
  });
  it.each(Object.keys(BY_KIND))('%s', (kind) => {
    expect(normDerived(kind)).toEqual(normFrozen(BY_KIND[kind]!));
  });
});
