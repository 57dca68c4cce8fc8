// The apiserver's REST API for the node image's scripts (
// node-routes.mjs), which carry no dependencies: HTTPS with node:https, the
// server, CA and client certificate taken from a kubeconfig, as client-go's
// clientcmd builds a rest.Config from one. The kubeconfigs read here are the
// ones `kubelab kubeadm init` writes (admin.conf, a node's kube-proxy.conf): one
// cluster, one user, the certificates embedded as *-data fields; that flat
// form is all this reader accepts, and anything else is a clear error.

import { readFileSync } from 'node:fs';
import { request } from 'node:https';

const KEYS = ['server', 'certificate-authority-data', 'client-certificate-data', 'client-key-data'];

/** The KEYS of a flat kubeconfig; one that appears twice means more than one cluster or user. */
function fields(text, path) {
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^[\s-]*([a-z-]+):\s*(\S+)\s*$/.exec(line);
    if (!m || !KEYS.includes(m[1])) continue;
    const [, key, value] = m;
    if (key in out && out[key] !== value) throw new Error(`kubeconfig ${path}: more than one "${key}" (want one cluster and one user, as kubeadm writes it)`);
    out[key] = value;
  }
  return out;
}

const pem = (b64) => Buffer.from(b64, 'base64');

/** The server URL, CA and client certificate of a kubeadm-written kubeconfig. */
export function loadKubeconfig(path) {
  const f = fields(readFileSync(path, 'utf8'), path);
  const missing = KEYS.filter((k) => !f[k]);
  if (missing.length > 0) throw new Error(`kubeconfig ${path}: no ${missing.join(', ')}`);
  return { server: f.server.replace(/\/+$/, ''), ca: pem(f['certificate-authority-data']), cert: pem(f['client-certificate-data']), key: pem(f['client-key-data']) };
}

/**
 * A client for one apiserver: `call` answers {status, text, json}; `stream`
 * yields the response body's lines until it ends (a watch). The server's
 * certificate is checked against the kubeconfig's CA and its host name.
 */
export function restClient(kc) {
  const open = (method, path, { body, contentType, timeoutMs, ownConnection } = {}) =>
    new Promise((resolve, reject) => {
      const url = new URL(kc.server + path);
      const headers = { Accept: 'application/json', 'User-Agent': 'kubelab-node-scripts' };
      if (body !== undefined) headers['Content-Type'] = contentType ?? 'application/json';
      // A watch gets its own connection: the global agent's keep-alive sockets
      // time out after 5 s of silence (Node >= 19), which would end a quiet watch.
      const tls = { ca: kc.ca, cert: kc.cert, key: kc.key, ...(ownConnection ? { agent: false } : {}) };
      const req = request(url, { method, headers, ...tls, ...(timeoutMs ? { timeout: timeoutMs } : {}) }, resolve);
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    });

  return {
    server: kc.server,
    async call(method, path, opts = {}) {
      const res = await open(method, path, { timeoutMs: 10_000, ...opts });
      res.setEncoding('utf8');
      let text = '';
      for await (const chunk of res) text += chunk;
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, json, text };
    },
    async *stream(path) {
      const res = await open('GET', path, { ownConnection: true });
      if (res.statusCode !== 200) {
        res.resume();
        throw new Error(`GET ${path}: HTTP ${res.statusCode}`);
      }
      res.setEncoding('utf8');
      let buf = '';
      for await (const chunk of res) {
        buf += chunk;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) yield line;
        }
      }
    },
  };
}
