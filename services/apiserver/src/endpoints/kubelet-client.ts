// How the apiserver reaches kubelets (upstream pkg/kubelet/client
// KubeletClientConfig and LogREST's GenericHttpResponseChecker): HTTPS to the
// node's kubelet port, presenting --kubelet-client-certificate/-key; the
// kubelet's serving certificate is checked only against
// --kubelet-certificate-authority when one is given, as upstream (kubeadm's
// kubelets serve self-signed certificates nobody else can verify).

import type { RequestOptions } from 'node:https';
import { badRequest, internalError, StatusError, type StatusReason, joinHostPort, tcpDialError } from '@kubelab/api';
import type { KubeletAddress } from './env.js';

export interface KubeletClientConfig {
  /** --kubelet-client-certificate / --kubelet-client-key as PEM (absent: no client certificate). */
  certPem?: string;
  keyPem?: string;
  /** --kubelet-certificate-authority as PEM (absent: the kubelet's certificate is not verified). */
  caPem?: string;
}

/** The TLS half of a request to a kubelet. */
export function kubeletTlsOptions(c: KubeletClientConfig): Pick<RequestOptions, 'cert' | 'key' | 'ca' | 'rejectUnauthorized'> {
  return {
    ...(c.certPem && c.keyPem ? { cert: c.certPem, key: c.keyPem } : {}),
    ...(c.caPem ? { ca: c.caPem } : {}),
    rejectUnauthorized: !!c.caPem,
  };
}

/** `https://<host>:<port><path>` (IPv6 hosts bracketed). */
export function kubeletUrl(addr: KubeletAddress, pathAndQuery: string): URL {
  return new URL(`https://${joinHostPort(addr.host, addr.port)}${pathAndQuery}`);
}

const GENERIC: Record<number, [StatusReason, string]> = {
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
};

/**
 * A kubelet's non-2xx answer as the apiserver returns it (upstream
 * GenericHttpResponseChecker): 500 an internal error and 400 a bad request
 * with the kubelet's text; the rest as apimachinery's
 * NewGenericServerResponse, which keeps a 403's text (`Forbidden
 * (user=…, verb=…, resource=nodes, subresource=proxy) ( pods/log web)`).
 */
export function kubeletResponseError(code: number, body: string, resource: string, name: string): StatusError {
  if (code === 500) return internalError(new Error(body));
  if (code === 400) return badRequest(body);
  let [reason, message]: [StatusReason, string] = GENERIC[code] ?? ['', `the server responded with the status code ${code} but did not return more information`];
  if (code === 403) [reason, message] = ['Forbidden', body];
  else if (code > 500 && !GENERIC[code]) [reason, message] = ['InternalError', `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`];
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    // The verb is empty in LogREST's checker, hence upstream's "( pods/log name)".
    message: `${message} ( ${resource} ${name})`,
    reason,
    details: { name, kind: resource },
    code,
  });
}

/** A connection error as Go's net package words it (`dial tcp 10.0.0.5:10250: connect: connection refused`). */
export function dialError(e: Error & { code?: string }, addr: KubeletAddress): string {
  return tcpDialError(addr.host, addr.port, e) ?? e.message;
}
