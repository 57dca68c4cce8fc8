// The REST side of API Priority and Fairness (upstream: the handler chain's
// WithPriorityAndFairness, after impersonation): a request waits for its
// seat, carries its FlowSchema's and priority level's UIDs as response
// headers, and gives the seat back when its response ends; a rejected one
// gets upstream's plain-text 429 with Retry-After, which clients retry.
// Long-running requests (watches, exec, attach, logs, port-forward, proxy)
// take no seat: upstream charges a watch's start only.

import type { ServerResponse } from 'node:http';
import type { AuthorizationAttributes } from '../authorization/types.js';
import type { FlowAdmission, FlowControl } from './flow-control.js';

export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';
/** Upstream's text for a request APF refused (its tooManyRequests writes it with http.Error). */
export const TOO_MANY_REQUESTS = 'Too many requests, please try again later.';

const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** kube-apiserver's LongRunningFunc: requests that may last as long as the client wants. */
export function isLongRunning(a: AuthorizationAttributes): boolean {
  return a.resourceRequest && (LONG_RUNNING_VERBS.has(a.verb) || LONG_RUNNING_SUBRESOURCES.has(a.subresource));
}

/** True to go on with the request (a seat held until its response closes), false when it was answered 429. */
export function admitRequest(flow: FlowControl, a: AuthorizationAttributes, res: ServerResponse): boolean | Promise<boolean> {
  if (isLongRunning(a)) return true;
  const admission = flow.admit(a);
  const settle = (adm: FlowAdmission): boolean => {
    if (res.headersSent) {
      if (adm.ok) adm.release();
      return false;
    }
    res.setHeader(FLOW_SCHEMA_UID_HEADER, adm.schema.metadata.uid ?? '');
    res.setHeader(PRIORITY_LEVEL_UID_HEADER, adm.level.metadata.uid ?? '');
    if (!adm.ok) {
      const body = `${TOO_MANY_REQUESTS}\n`;
      res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'retry-after': '1', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return false;
    }
    // The client went away while the request waited: the seat goes back and nothing runs.
    if (res.destroyed) {
      adm.release();
      return false;
    }
    // 'finish' too: a response bound to an upgraded socket (serveUpgrades) never emits 'close'.
    res.once('finish', adm.release);
    res.once('close', adm.release);
    return true;
  };
  return admission instanceof Promise ? admission.then(settle) : settle(admission);
}
