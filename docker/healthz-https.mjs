#!/usr/bin/env node
// healthz-https PORT [PATH] [CA_FILE | --insecure]: exits 0 when
// https://127.0.0.1:PORT/PATH answers 200. The apiserver, the scheduler and
// the controller-manager serve HTTPS only (no plain port, as upstream),
// which bash's /dev/tcp (healthz.sh) cannot speak and the slim image has no
// curl or openssl: so these probes are a Node.js process. The health paths
// answer anonymous requests; the serving certificate is verified against
// CA_FILE (kubeadm's pki/ca.crt; 127.0.0.1 is one of its SANs) when that
// file exists, and not verified without it (the image's self-signed
// default) or with --insecure (curl -k: the scheduler's and
// controller-manager's self-signed certificates, as kubeadm's HTTPS probes).
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:https';

const [port, path = '/readyz', caFile = ''] = process.argv.slice(2);
if (!port) {
  console.error('usage: healthz-https PORT [PATH] [CA_FILE | --insecure]');
  process.exit(2);
}
const insecure = caFile === '--insecure';
const ca = !insecure && caFile && existsSync(caFile) ? readFileSync(caFile) : undefined;
const req = request({ host: '127.0.0.1', port: Number(port), path, ca, rejectUnauthorized: ca !== undefined, timeout: 8000 }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', (e) => {
  console.error(e.message);
  process.exit(1);
});
req.end();
