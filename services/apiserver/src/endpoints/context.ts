// Per-request options shared by the verbs: the RequestContext handed to the
// registry, and parsing of common query parameters.

import type { IncomingMessage } from 'node:http';
import { badRequest } from '@kubelab/api';
import type { RequestContext } from '../registry/interface.js';
import { restRequestContext } from '../tracing/request.js';
import { userFrom } from './request-user.js';

export function requestContext(req: IncomingMessage, q: URLSearchParams): RequestContext {
  const ctx: RequestContext = {};
  const user = userFrom(req);
  if (user) ctx.user = user;
  const dryRun = q.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All')) throw badRequest(`dryRun: Unsupported value: ${JSON.stringify(dryRun.find((d) => d !== 'All'))}: supported values: "All"`);
  if (dryRun.length) ctx.dryRun = true;
  const fm = q.get('fieldManager');
  if (fm) ctx.fieldManager = fm;
  const ua = req.headers['user-agent'];
  if (ua) ctx.userAgent = ua;
  const force = q.get('force');
  if (force !== null && force !== '') {
    if (force !== 'true' && force !== 'false') throw badRequest(`invalid force ${JSON.stringify(force)}: must be a boolean`);
    ctx.force = force === 'true';
  }
  const tp = req.headers.traceparent;
  if (typeof tp === 'string') ctx.traceparent = tp;
  const tc = restRequestContext(req);
  if (tc) ctx.traceContext = tc;
  return ctx;
}

/** An optional non-negative integer query parameter, 400 when malformed. */
export function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`invalid ${name} ${JSON.stringify(v)}: must be an integer`);
  return Number(v);
}

export function boolParam(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v === 'true' || v === '1';
}
