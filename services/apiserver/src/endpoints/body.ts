// Reading and decoding request bodies: JSON, kubernetes protobuf, and the
// four patch content types; size-limited as upstream (3 MiB).

import type { IncomingMessage } from 'node:http';
import { isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { badRequest, isPatchType, PATCH_TYPES, requestEntityTooLarge, unsupportedMediaType, type PatchTypeName } from '@kubelab/api';
import { decodeProtobuf } from './protobuf.js';
import { scanJson, valueTooDeep, type DuplicateField } from '../decoding/json-keys.js';

export const DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > maxBytes) throw requestEntityTooLarge('the request body is too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A parsed JSON body, with the repeated keys JSON.parse hid (the last value won, as in Go). */
export interface JsonDocument {
  value: unknown;
  text: string;
  duplicates: DuplicateField[];
}

/**
 * Parses a JSON body, refusing nesting deeper than Go's decoder allows (400,
 * not a stack overflow later). An object body's errors read as the
 * serializer's (`couldn't get version/kind; json parse error: …`), a patch's
 * as the Go decoder's own text (upstream's patchers return it as is).
 */
export function parseJsonDocument(body: Buffer, what: 'object' | 'patch' = 'object'): JsonDocument {
  const fail = (why: string) => badRequest(what === 'object' ? `couldn't get version/kind; json parse error: ${why}` : why);
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    throw fail((e as Error).message);
  }
  const keys = scanJson(text);
  if (keys.tooDeep) throw fail(keys.tooDeep);
  return { value, text, duplicates: keys.duplicates };
}

/** A JSON value from a body; upstream's text for a body that is not JSON. */
export function parseJson(body: Buffer): unknown {
  return parseJsonDocument(body).value;
}

/** A parsed YAML body, with go-yaml's words for each key repeated in a mapping (`line 5: key "name" already set in map`). */
export interface YamlDocument {
  value: unknown;
  duplicates: string[];
}

/** A YAML document as a plain object, the last of repeated keys winning (upstream's yaml serializer converts YAML to JSON first). */
export function parseYamlDocument(body: Buffer): YamlDocument {
  const lines = new LineCounter();
  const doc = parseDocument(body.toString('utf8'), { uniqueKeys: false, lineCounter: lines });
  if (doc.errors.length) throw badRequest(`error converting YAML to JSON: ${doc.errors[0]!.message.split('\n')[0]}`);
  const found: Array<{ line: number; text: string }> = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (!seen.has(key)) seen.add(key);
        else if (isScalar(pair.key) && pair.key.range) {
          const line = lines.linePos(pair.key.range[0]).line;
          found.push({ line, text: `line ${line}: key ${JSON.stringify(key)} already set in map` });
        }
      }
    },
  });
  let value: unknown;
  try {
    value = doc.toJS() as unknown;
  } catch (e) {
    throw badRequest(`error converting YAML to JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  const tooDeep = valueTooDeep(value);
  if (tooDeep) throw badRequest(`couldn't get version/kind; json parse error: ${tooDeep}`);
  return { value, duplicates: found.sort((a, b) => a.line - b.line).map((d) => d.text) };
}

/** The formats a create, update or delete body may come in, in upstream's order (its serializers' media types). */
export const BODY_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] as const;

/** Where a create/update body came from, for strict decoding: JSON keeps its text and repeated keys, YAML its repeated keys. */
export type BodySource = { json: JsonDocument } | { yaml: YamlDocument };

/** A create/update body as a plain object, from JSON, YAML or protobuf; no Content-Type is JSON, any other is a 415 (upstream: NegotiateInputSerializer). */
export function decodeBody(req: IncomingMessage, body: Buffer): { value: unknown; source?: BodySource } {
  const type = mediaType(req);
  if (type === 'application/vnd.kubernetes.protobuf') return { value: decodeProtobuf(body) };
  if (type === '' || type === 'application/json') {
    const json = parseJsonDocument(body);
    return { value: json.value, source: { json } };
  }
  if (type === 'application/yaml') {
    const yaml = parseYamlDocument(body);
    return { value: yaml.value, source: { yaml } };
  }
  throw unsupportedMediaType(BODY_MEDIA_TYPES);
}

/** The patch type of a PATCH request; any other Content-Type is a 415 listing the four (upstream: PatchResource's supported types). */
/** The patch types a custom resource takes: no strategic merge, which needs a Go type's patch tags (upstream: the CRD handler's supported types). */
export const CUSTOM_RESOURCE_PATCH_TYPES = PATCH_TYPES.filter((t) => t !== 'application/strategic-merge-patch+json');

export function patchMediaType(req: IncomingMessage, accepted: readonly PatchTypeName[] = PATCH_TYPES): PatchTypeName {
  const type = mediaType(req);
  if (!isPatchType(type) || !accepted.includes(type)) throw unsupportedMediaType(accepted);
  return type;
}
