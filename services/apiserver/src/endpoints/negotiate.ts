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

/**
 * Whether /api or /apis is asked for as an aggregated APIGroupDiscoveryList,
 * and which version: the first media range the server can answer wins
 * (upstream DiscoveryEndpointRestrictions). Only JSON is served; an
 * aggregated protobuf range is passed over, and a plain range means the
 * legacy document.
 */
export function aggregatedDiscoveryVersion(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  for (const r of parseAccept(accept)) {
    const json = r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*';
    const proto = r.type === 'application/vnd.kubernetes.protobuf';
    if (!json && !proto) continue;
    if (r.params.g === undefined && r.params.as === undefined) return undefined;
    if (json && r.params.g === 'apidiscovery.k8s.io' && r.params.as === 'APIGroupDiscoveryList' && (r.params.v === 'v2' || r.params.v === 'v2beta1')) return r.params.v;
  }
  return undefined;
}

/**
 * JSON or protobuf for a response, by the first range of the client's Accept
 * the server can answer (upstream NegotiateOutputMediaType): protobuf only
 * for a plain object or list of a kind with a message (`canProtobuf`); a
 * Table or PartialObjectMetadata range is answered in JSON. 'none' when the
 * client accepts only protobuf and this response has none (upstream's 406).
 */
export function responseEncoding(accept: string | undefined, canProtobuf: boolean): 'json' | 'protobuf' | 'none' {
  let sawProtobuf = false;
  let sawOther = false;
  for (const r of parseAccept(accept)) {
    const json = r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*';
    const proto = r.type === 'application/vnd.kubernetes.protobuf';
    if (!json && !proto) {
      sawOther ||= r.type !== '';
      continue;
    }
    if (proto && (r.params.as || !canProtobuf)) {
      sawProtobuf = true;
      continue;
    }
    if (proto) return 'protobuf';
    return 'json';
  }
  return sawProtobuf && !sawOther ? 'none' : 'json';
}

export function parseIncludeObject(v: string | null): IncludeObject {
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}
