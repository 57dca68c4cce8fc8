// An HTTP GET health check as upstream's pkg/probe/http words its outcome:
// a 2xx or 3xx is a success with the body as output, another code
// "HTTP probe failed with statuscode: N", an error Go's client text
// (`Get "url": dial tcp …: connect: connection refused`). The kubelet's
// httpGet probes and the apiserver's component statuses both use it.

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tcpDialError } from '@kubelab/api';

/** Upstream keeps at most 10 KiB of a probe's body. */
export const MAX_PROBE_BODY_BYTES = 10 * 1024;

export interface HttpProbeOutcome {
  result: 'Success' | 'Failure';
  output: string;
}

/** GETs url (an HTTPS certificate is not checked, as upstream's probes skip verification) within timeoutMs. */
export function httpGetProbe(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<HttpProbeOutcome> {
  const failed = (why: string): HttpProbeOutcome => ({ result: 'Failure', output: `Get ${JSON.stringify(url.href)}: ${why}` });
  return new Promise((resolve) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', headers, timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (d: Buffer) => {
        if (size < MAX_PROBE_BODY_BYTES) chunks.push(d);
        size += d.length;
      });
      res.on('end', () => {
        clearTimeout(timer);
        const body = Buffer.concat(chunks).subarray(0, MAX_PROBE_BODY_BYTES).toString();
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 400) resolve({ result: 'Success', output: body });
        else resolve({ result: 'Failure', output: `HTTP probe failed with statuscode: ${code}` });
      });
      res.on('error', (e) => resolve(failed(e.message)));
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(failed('context deadline exceeded (Client.Timeout exceeded while awaiting headers)'));
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const port = url.port || (url.protocol === 'https:' ? '443' : '80');
      resolve(failed(tcpDialError(host, port, e) ?? `dial tcp ${host}:${port}: ${e.message}`));
    });
    req.end();
  });
}
