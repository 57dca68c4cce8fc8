// `kubeadm join`'s token discovery (upstream cmd/kubeadm/app/discovery/token
// and util/pubkeypin): fetch ConfigMap kube-public/cluster-info without
// credentials and without trusting the server, check the detached JWS the
// bootstrap signer made with the token, pin the CA it names by the SHA-256
// of its SubjectPublicKeyInfo, then fetch it again over TLS verified with
// that CA. The errors are kubeadm's texts.

import { createHash, X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { JWS_SIGNATURE_KEY_PREFIX, detachedTokenIsValid, parseBootstrapToken } from '@kubelab/serviceaccount';
import { parse } from 'yaml';

/** `sha256:<hex>` of a certificate's DER SubjectPublicKeyInfo (pubkeypin.Hash): what --discovery-token-ca-cert-hash pins. */
export function caCertHash(pem: string): string {
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(spki).digest('hex')}`;
}

/** The hashes of every certificate in a PEM bundle. */
function pemCertificates(pem: string): string[] {
  return pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** A --discovery-token-ca-cert-hash value checked as pubkeypin.Allow does; answers the lower-case hex. */
export function parseCaCertHash(pin: string): string {
  const parts = pin.split(':');
  if (parts.length !== 2) throw new Error('invalid discovery token CA certificate hash: invalid hash, expected "format:hex-value". Known format(s) are: sha256');
  const [format, value] = parts as [string, string];
  if (format.toLowerCase() !== 'sha256') throw new Error(`invalid discovery token CA certificate hash: unknown hash format "${format}". Known format(s) are: sha256`);
  if (value.length !== 64) throw new Error(`invalid discovery token CA certificate hash: invalid hash "${pin}", expected a 32 byte SHA-256 hash, found ${Math.floor(value.length / 2)} bytes`);
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new Error(`invalid discovery token CA certificate hash: invalid hash "${pin}", could not decode SHA-256 from hex`);
  return value.toLowerCase();
}

export interface ClusterInfoKubeconfig {
  server: string;
  caPem: string;
}

/**
 * kubeadm's checks of an untrusted cluster-info ConfigMap's data against the
 * token and the pins; answers the kubeconfig's cluster. Pure.
 */
export function validateClusterInfo(data: Readonly<Record<string, string>>, token: string, pins: readonly string[]): ClusterInfoKubeconfig {
  const t = parseBootstrapToken(token);
  if (!t) throw new Error(`the bootstrap token "${token}" was not of the form "[a-z0-9]{6}.[a-z0-9]{16}"`);
  const kubeconfig = data.kubeconfig;
  if (!kubeconfig) throw new Error("there is no kubeconfig key in the cluster-info ConfigMap. This API Server isn't set up for token bootstrapping, can't connect");
  const sig = data[`${JWS_SIGNATURE_KEY_PREFIX}${t.id}`];
  if (!sig) throw new Error(`token id "${t.id}" is invalid for this cluster or it has expired. Use "kubeadm token create" on the control-plane node to create a new valid token`);
  if (!detachedTokenIsValid(sig, kubeconfig, t.id, t.secret)) throw new Error("failed to verify JWS signature of received cluster info object, can't trust this API Server");
  let cluster: { server?: string; 'certificate-authority-data'?: string } | undefined;
  try {
    const doc = parse(kubeconfig) as { clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string } }[] };
    cluster = doc.clusters?.at(-1)?.cluster;
  } catch (e) {
    throw new Error(`couldn't parse the kubeconfig file in the cluster-info ConfigMap: ${(e as Error).message}`, { cause: e });
  }
  if (!cluster?.server) throw new Error('malformed kubeconfig in the cluster-info ConfigMap: no clusters defined');
  const caPem = Buffer.from(cluster['certificate-authority-data'] ?? '', 'base64').toString('utf8');
  if (pins.length > 0) {
    const certs = pemCertificates(caPem);
    if (certs.length === 0) throw new Error('failed to parse cluster CA from the cluster-info ConfigMap: data does not contain any valid RSA or ECDSA certificates');
    const hashes = certs.map(caCertHash);
    if (!hashes.some((h) => pins.includes(h.slice('sha256:'.length)))) {
      throw new Error(`cluster CA found in cluster-info ConfigMap is invalid: none of the public keys "${hashes.join(':')}" are pinned`);
    }
  }
  return { server: cluster.server, caPem };
}

const CLUSTER_INFO_PATH = '/api/v1/namespaces/kube-public/configmaps/cluster-info';

/** GET cluster-info without credentials: unverified TLS (`ca` undefined) or verified against `ca`. Answers the ConfigMap's data, or the local socket address. */
export function getClusterInfo(endpoint: string, ca: string | undefined, timeoutMs = 10_000): Promise<{ data: Record<string, string>; localAddress: string }> {
  const url = new URL(`https://${endpoint}${CLUSTER_INFO_PATH}`);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', timeout: timeoutMs, ...(ca ? { ca } : { rejectUnauthorized: false }), headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      const localAddress = res.socket?.localAddress ?? '';
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return reject(new Error(`failed to request the cluster-info ConfigMap: ${res.statusCode} ${body.slice(0, 200)}`));
        try {
          const cm = JSON.parse(body) as { data?: Record<string, string> };
          resolve({ data: cm.data ?? {}, localAddress });
        } catch (e) {
          reject(new Error(`failed to request the cluster-info ConfigMap: ${(e as Error).message}`));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) => reject(new Error(`failed to request the cluster-info ConfigMap: ${e.message}`)));
    req.end();
  });
}

export interface DiscoveryOptions {
  endpoint: string;
  token: string;
  pins: readonly string[];
  timeoutMs: number;
  log: (line: string) => void;
}

/**
 * RetrieveValidatedConfigInfo: poll cluster-info (insecure) until it carries
 * the token's signature or the timeout passes, validate, then read it again
 * over TLS verified with the pinned CA and require the same kubeconfig.
 */
export async function discover(o: DiscoveryOptions): Promise<ClusterInfoKubeconfig & { localAddress: string }> {
  const t = parseBootstrapToken(o.token);
  if (!t) throw new Error(`the bootstrap token "${o.token}" was not of the form "[a-z0-9]{6}.[a-z0-9]{16}"`);
  const pins = o.pins.map(parseCaCertHash);
  const deadline = Date.now() + o.timeoutMs;
  let last: Error = new Error('could not reach the API server');
  let insecure: Record<string, string> | undefined;
  o.log(`[discovery] Created cluster-info discovery client, requesting info from "${o.endpoint}"`);
  while (!insecure) {
    try {
      const { data } = await getClusterInfo(o.endpoint, undefined);
      if (data[`${JWS_SIGNATURE_KEY_PREFIX}${t.id}`]) insecure = data;
      else last = new Error(`could not find a JWS signature in the cluster-info ConfigMap for token ID "${t.id}"`);
    } catch (e) {
      last = e as Error;
    }
    if (insecure) break;
    if (Date.now() >= deadline) throw last;
    o.log(`[discovery] Retrying due to error: ${last.message}`);
    await new Promise((r) => setTimeout(r, Math.min(5000, Math.max(0, deadline - Date.now()))));
  }
  const info = validateClusterInfo(insecure, o.token, pins);
  if (pins.length === 0) return { ...info, localAddress: '' };
  o.log(`[discovery] Requesting info from "${o.endpoint}" again to validate TLS against the pinned public key`);
  const secure = await getClusterInfo(o.endpoint, info.caPem);
  if (secure.data.kubeconfig !== insecure.kubeconfig) throw new Error('the second kubeconfig from the cluster-info ConfigMap (using validated TLS) was different from the first');
  o.log(`[discovery] Cluster info signature and contents are valid and TLS certificate validates against pinned roots, will use API Server "${o.endpoint}"`);
  return { ...info, localAddress: secure.localAddress };
}
