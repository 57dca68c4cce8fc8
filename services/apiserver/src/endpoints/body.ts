// Reading and decoding request bodies: JSON, kubernetes protobuf, and the
// four patch content types; size-limited as upstream (3 MiB).

import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { badRequest, isPatchType, PATCH_TYPES, requestEntityTooLarge, unsupportedMediaType, type PatchTypeName } from '@kubelab/api';
import { decodeProtobuf } from './protobuf.js';

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

/** A JSON value from a body; upstream's text for a body that is not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

/** A YAML document as a plain object (upstream's yaml serializer converts YAML to JSON first). */
export function parseYamlBody(body: Buffer): unknown {
  try {
    return parseYaml(body.toString('utf8')) as unknown;
  } catch (e) {
    throw badRequest(`error converting YAML to JSON: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** The formats a create, update or delete body may come in, in upstream's order (its serializers' media types). */
export const BODY_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] as const;

/** A create/update body as a plain object, from JSON, YAML or protobuf; no Content-Type is JSON, any other is a 415 (upstream: NegotiateInputSerializer). */
export function decodeBody(req: IncomingMessage, body: Buffer): unknown {
  const type = mediaType(req);
  if (type === 'application/vnd.kubernetes.protobuf') return decodeProtobuf(body);
  if (type === '' || type === 'application/json') return parseJson(body);
  if (type === 'application/yaml') return parseYamlBody(body);
  throw unsupportedMediaType(BODY_MEDIA_TYPES);
}

/** The patch type of a PATCH request; any other Content-Type is a 415 listing the four (upstream: PatchResource's supported types). */
export function patchMediaType(req: IncomingMessage): PatchTypeName {
  const type = mediaType(req);
  if (!isPatchType(type)) throw unsupportedMediaType(PATCH_TYPES);
  return type;
}
