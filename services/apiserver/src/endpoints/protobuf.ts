// Decoding `application/vnd.kubernetes.protobuf` request bodies, which
// kubectl 1.32's typed clients send for `kubectl create deployment|configmap|
// secret|namespace|service`. The body is the magic `k8s\0` and a
// runtime.Unknown {1 typeMeta {1 apiVersion, 2 kind}, 2 raw}; raw is the
// object in the field numbers of k8s.io/api's generated.proto.

import { unsupportedMediaType, badRequest, type KubeObject } from '@kubelab/api';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

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

/** The kinds whose protobuf encoding this decoder knows. */
const BY_KIND: Record<string, PMsg> = { Deployment, Service, ConfigMap, Secret, Namespace };

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 70n) throw new Error('varint too long');
    }
  }
  bytes(): Uint8Array {
    const len = Number(this.varint());
    if (this.pos + len > this.buf.length) throw new Error('truncated length-delimited field');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

const text = new TextDecoder();

function toInt(v: bigint): number {
  // int32/int64 negatives are ten-byte two's complement varints.
  return Number(BigInt.asIntN(64, v));
}

/** The raw fields of one message: field number → list of (wire type, value). */
function fields(buf: Uint8Array): Map<number, { wire: number; v: bigint | Uint8Array }[]> {
  const r = new Reader(buf);
  const out = new Map<number, { wire: number; v: bigint | Uint8Array }[]>();
  while (!r.done) {
    const tag = Number(r.varint());
    const no = tag >>> 3;
    const wire = tag & 7;
    let v: bigint | Uint8Array;
    if (wire === 0) v = r.varint();
    else if (wire === 2) v = r.bytes();
    else {
      r.skip(wire);
      continue;
    }
    const arr = out.get(no) ?? [];
    arr.push({ wire, v });
    out.set(no, arr);
  }
  return out;
}

function decodeValue(field: PField, raw: bigint | Uint8Array): unknown {
  const bytes = (): Uint8Array => {
    if (typeof raw === 'bigint') throw new Error(`field ${field.name}: expected length-delimited data`);
    return raw;
  };
  switch (field.kind) {
    case 'string':
      return text.decode(bytes());
    case 'bytes':
      return Buffer.from(bytes()).toString('base64');
    case 'int':
      return typeof raw === 'bigint' ? toInt(raw) : 0;
    case 'bool':
      return typeof raw === 'bigint' ? raw !== 0n : false;
    case 'msg':
      return decodeMessage(bytes(), field.msg!);
    case 'time': {
      const fs = fields(bytes());
      const s = fs.get(1)?.[0]?.v;
      const seconds = typeof s === 'bigint' ? toInt(s) : 0;
      return seconds ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : undefined;
    }
    case 'intstr': {
      const fs = fields(bytes());
      const type = fs.get(1)?.[0]?.v;
      if (type === 1n) {
        const s = fs.get(3)?.[0]?.v;
        return s instanceof Uint8Array ? text.decode(s) : '';
      }
      const i = fs.get(2)?.[0]?.v;
      return typeof i === 'bigint' ? toInt(i) : 0;
    }
    default:
      throw new Error(`field ${field.name}: unexpected kind ${field.kind}`);
  }
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

function decodeMessage(buf: Uint8Array, schema: PMsg): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [no, values] of fields(buf)) {
    const field = schema[no];
    if (!field) continue;
    if (field.kind === 'map' || field.kind === 'bytesmap') {
      const map: Record<string, unknown> = {};
      for (const { v } of values) {
        if (!(v instanceof Uint8Array)) continue;
        const entry = fields(v);
        const k = entry.get(1)?.[0]?.v;
        const val = entry.get(2)?.[0]?.v;
        const key = k instanceof Uint8Array ? text.decode(k) : '';
        if (!(val instanceof Uint8Array)) map[key] = '';
        else if (field.kind === 'bytesmap') map[key] = Buffer.from(val).toString('base64');
        else if (field.msg) map[key] = decodeMessage(val, field.msg).string ?? '';
        else map[key] = text.decode(val);
      }
      if (Object.keys(map).length) out[field.name] = map;
      continue;
    }
    if (field.repeated) {
      const items = values.map(({ v }) => decodeValue(field, v));
      if (items.length) out[field.name] = items;
      continue;
    }
    const v = decodeValue(field, values[values.length - 1]!.v);
    if (field.keepZero ? v !== undefined : !isEmpty(v)) out[field.name] = v;
  }
  return out;
}

/**
 * Decodes a kubernetes protobuf body into the JSON object it stands for.
 * Throws 415 for a kind this decoder does not know, 400 for a malformed body.
 */
export function decodeProtobuf(body: Uint8Array): KubeObject {
  if (body.length < 4 || MAGIC.some((b, i) => body[i] !== b)) {
    throw badRequest('the protobuf body does not start with the kubernetes magic number "k8s\\x00"');
  }
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array | undefined;
  try {
    const unknown = fields(body.subarray(4));
    const tm = unknown.get(1)?.[0]?.v;
    if (tm instanceof Uint8Array) {
      const t = fields(tm);
      const av = t.get(1)?.[0]?.v;
      const k = t.get(2)?.[0]?.v;
      apiVersion = av instanceof Uint8Array ? text.decode(av) : '';
      kind = k instanceof Uint8Array ? text.decode(k) : '';
    }
    const r = unknown.get(2)?.[0]?.v;
    raw = r instanceof Uint8Array ? r : undefined;
  } catch (e) {
    throw badRequest(`unable to decode the protobuf body: ${(e as Error).message}`);
  }
  const schema = BY_KIND[kind];
  if (!schema) throw unsupportedMediaType(`application/vnd.kubernetes.protobuf (kind ${kind || '<none>'})`);
  try {
    const obj = raw ? decodeMessage(raw, schema) : {};
    return { apiVersion, kind, ...obj, metadata: (obj.metadata as KubeObject['metadata']) ?? {} } as KubeObject;
  } catch (e) {
    throw badRequest(`unable to decode the protobuf body of ${kind}: ${(e as Error).message}`);
  }
}
