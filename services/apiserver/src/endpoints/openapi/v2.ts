// GET /openapi/v2 (upstream: kube-openapi's OpenAPIService handler): the
// Swagger 2.0 document as JSON, or as gnostic's protobuf Document, chosen by
// Accept; both share one ETag (the SHA-512 of the JSON) so If-None-Match
// answers 304 without a body. kubectl 1.27/1.28 read it for apply, explain
// and diff.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { OPENAPI_V2_PROTOBUF_CONTENT_TYPE, encodeOpenApiV2 } from '@kubelab/proto';
import { toGnosticDocument } from './gnostic.js';
import { swaggerDocument } from './swagger.js';

export type OpenApiV2Format = 'json' | 'protobuf';

/** What the handler serves, in upstream's order of preference for a wildcard: JSON first. */
const ACCEPTED: { type: string; subtype: string; format: OpenApiV2Format }[] = [
  { type: 'application', subtype: 'json', format: 'json' },
  { type: 'application', subtype: 'com.github.proto-openapi.spec.v2@v1.0+protobuf', format: 'protobuf' },
  { type: 'application', subtype: 'com.github.proto-openapi.spec.v2.v1.0+protobuf', format: 'protobuf' },
];

interface Clause {
  type: string;
  subtype: string;
  q: number;
}

function parseClauses(accept: string): Clause[] {
  const out: Clause[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim());
    const [type = '', subtype = ''] = range.split('/');
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (type && subtype && q > 0 && Number.isFinite(q)) out.push({ type, subtype, q });
  }
  // Highest q first; at equal q a concrete type before a wildcard (as goautoneg sorts).
  const specificity = (c: Clause) => (c.type === '*' ? 0 : c.subtype === '*' ? 1 : 2);
  return out
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.q - a.c.q || specificity(b.c) - specificity(a.c) || a.i - b.i)
    .map((x) => x.c);
}

/** The format the client gets for its Accept header, or undefined for 406 (an empty Accept means any). */
export function negotiateOpenApiV2(accept: string | undefined): OpenApiV2Format | undefined {
  for (const c of parseClauses(accept?.trim() ? accept : '*/*')) {
    const hit = ACCEPTED.find((a) => (c.type === '*' || c.type === a.type) && (c.subtype === '*' || c.subtype === a.subtype));
    if (hit) return hit.format;
  }
  return undefined;
}

/** Whether an If-None-Match header names the current entity tag (weak comparison, `*` for any, as net/http's ServeContent). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

interface Served {
  json: Buffer;
  protobuf: Buffer;
  etag: string;
}

let served: Served | undefined;
let servedFor = '';

/** A custom resources' OpenAPI v3 document (its JSON and the hash its URL carries). */
export interface CustomResourceOpenApi {
  body: string;
  hash: string;
}

/** The document in both forms, rebuilt only when the custom resources' documents change. */
export function openapiV2(custom: ReadonlyMap<string, CustomResourceOpenApi> = new Map()): Served {
  const key = [...custom.values()].map((d) => d.hash).join(',');
  if (!served || servedFor !== key) {
    const doc = swaggerDocument([...custom.values()].map((d) => JSON.parse(d.body) as Record<string, unknown>));
    const json = Buffer.from(JSON.stringify(doc));
    const protobuf = Buffer.from(encodeOpenApiV2(toGnosticDocument(doc)));
    served = { json, protobuf, etag: `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"` };
    servedFor = key;
  }
  return served;
}

export function serveOpenApiV2(req: IncomingMessage, res: ServerResponse, custom?: ReadonlyMap<string, CustomResourceOpenApi>): void {
  const format = negotiateOpenApiV2(req.headers.accept);
  if (!format) {
    res.writeHead(406, { Vary: 'Accept', 'Content-Length': 0 });
    res.end();
    return;
  }
  const doc = openapiV2(custom);
  const headers = { Vary: 'Accept', ETag: doc.etag, 'Content-Type': format === 'json' ? 'application/json' : OPENAPI_V2_PROTOBUF_CONTENT_TYPE };
  if (etagMatches(req.headers['if-none-match'], doc.etag)) {
    res.writeHead(304, { Vary: headers.Vary, ETag: headers.ETag });
    res.end();
    return;
  }
  const body = format === 'json' ? doc.json : doc.protobuf;
  res.writeHead(200, { ...headers, 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}
