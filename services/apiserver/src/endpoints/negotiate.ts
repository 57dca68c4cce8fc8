// Content negotiation of responses (upstream: apiserver/pkg/endpoints/
// handlers/negotiation): kubectl asks for `as=Table` for human output and
// plain JSON for -o json|yaml|name; everything is answered in JSON.

import type { IncludeObject } from '../printers/index.js';

export type ResponseShape = 'object' | 'table' | 'partialMetadata';

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

export function parseAccept(accept: string | undefined): MediaRange[] {
  if (!accept) return [];
  return accept.split(',').map((part) => {
    const [type, ...ps] = part.split(';').map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const p of ps) {
      const i = p.indexOf('=');
      if (i > 0) params[p.slice(0, i).trim()] = p.slice(i + 1).trim();
    }
    return { type: type ?? '', params };
  });
}

/** The first acceptable shape in the client's order of preference. */
export function responseShape(accept: string | undefined): ResponseShape {
  for (const r of parseAccept(accept)) {
    const json = r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*';
    const proto = r.type === 'application/vnd.kubernetes.protobuf';
    if (r.params.g === 'meta.k8s.io' && (r.params.v === 'v1' || r.params.v === 'v1beta1') && (json || proto)) {
      if (r.params.as === 'Table') return 'table';
      if (r.params.as === 'PartialObjectMetadata' || r.params.as === 'PartialObjectMetadataList') return 'partialMetadata';
      continue;
    }
    if (r.params.as) continue;
    if (json || proto) return 'object';
  }
  return 'object';
}

export function parseIncludeObject(v: string | null): IncludeObject {
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}
