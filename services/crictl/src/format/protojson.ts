// CRI messages as crictl prints them with -o json: protojson with
// EmitDefaultValues (every scalar, empty lists and maps; unset messages left
// out), lowerCamelCase names, 64-bit integers as strings, enums by name, bytes
// in base64, fields in declaration order. The field list comes from the
// descriptors proto-loader keeps beside each message of proto/runtime/v1.

import { criProto } from '@kubelab/proto';

interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName: string;
}
interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: (MessageDescriptor & { options?: { mapEntry?: boolean } | null })[];
  options?: { mapEntry?: boolean } | null;
}

let registry: Map<string, MessageDescriptor> | undefined;

function messages(): Map<string, MessageDescriptor> {
  if (registry) return registry;
  registry = new Map();
  const pkg = criProto().runtime.v1 as unknown as Record<string, { type?: MessageDescriptor; format?: string }>;
  for (const [name, def] of Object.entries(pkg)) if (def?.format?.includes('DescriptorProto') && def.type) registry.set(name, def.type);
  return registry;
}

/** protojson's JSON name: snake_case → lowerCamelCase. */
export function jsonName(field: string): string {
  return field.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

const INT64 = new Set(['TYPE_INT64', 'TYPE_UINT64', 'TYPE_SINT64', 'TYPE_FIXED64', 'TYPE_SFIXED64']);

function scalar(f: FieldDescriptor, v: unknown): unknown {
  if (INT64.has(f.type)) return String(v ?? '0');
  if (f.type === 'TYPE_BYTES') return Buffer.from((v as Uint8Array | undefined) ?? []).toString('base64');
  if (f.type === 'TYPE_BOOL') return Boolean(v);
  if (f.type === 'TYPE_STRING') return (v as string | undefined) ?? '';
  if (f.type === 'TYPE_ENUM') return v ?? 0;
  return Number(v ?? 0);
}

function marshalWith(desc: MessageDescriptor, msg: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const resolve = (typeName: string) => {
    const short = typeName.split('.').pop()!;
    return desc.nestedType.find((n) => n.name === short) ?? messages().get(short);
  };
  for (const f of desc.field) {
    const key = jsonName(f.name);
    const v = msg[f.name];
    const sub = f.type === 'TYPE_MESSAGE' ? resolve(f.typeName) : undefined;
    if (sub?.options?.mapEntry) {
      const valueField = sub.field.find((x) => x.name === 'value')!;
      const valueType = valueField.type === 'TYPE_MESSAGE' ? resolve(valueField.typeName) : undefined;
      const entries = Object.entries((v as Record<string, unknown> | null | undefined) ?? {});
      out[key] = Object.fromEntries(entries.map(([k, x]) => [k, valueType ? marshalWith(valueType, x as Record<string, unknown>) : scalar(valueField, x)]));
    } else if (f.label === 'LABEL_REPEATED') {
      const list = (v as unknown[] | null | undefined) ?? [];
      out[key] = list.map((x) => (sub ? marshalWith(sub, x as Record<string, unknown>) : scalar(f, x)));
    } else if (sub) {
      if (v !== null && v !== undefined) out[key] = marshalWith(sub, v as Record<string, unknown>);
    } else out[key] = scalar(f, v);
  }
  return out;
}

/** A decoded message of type `type` (a runtime.v1 message name) as protojson's object. */
export function toProtoJson(type: string, msg: object): Record<string, unknown> {
  const desc = messages().get(type);
  if (!desc) throw new Error(`unknown CRI message type ${type}`);
  return marshalWith(desc, msg as Record<string, unknown>);
}

/** `outputProtobufObjAsJSON`: the message indented by two spaces. */
export function protoJsonText(type: string, msg: object): string {
  return JSON.stringify(toProtoJson(type, msg), null, 2);
}
