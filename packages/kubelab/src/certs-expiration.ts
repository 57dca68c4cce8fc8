// `kubeadm certs check-expiration`: when each certificate kubeadm init wrote
// expires, in kubeadm's two tables (the certificates and kubeconfig client
// certificates, then the certificate authorities). Read from the files, as
// kubeadm reads them: --cert-dir (default /etc/kubernetes/pki) and the
// kubeconfigs in the folder above it.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FlagError, FlagSet } from '@kubelab/component-base';
import { certificateInfo, KUBECONFIG_FILES, PKI_FILES } from '@kubelab/pki';
import { loadKubeconfig } from '@kubelab/pki/kubeconfig';
import { stateDirFrom } from './paths.js';

type CaName = 'ca' | 'etcd-ca' | 'front-proxy-ca';

/** The CAs by kubeadm's names, and their files relative to the kubernetes dir. */
const CAS: Record<CaName, string> = { ca: PKI_FILES.ca, 'etcd-ca': PKI_FILES.etcdCa, 'front-proxy-ca': PKI_FILES.frontProxyCa };

/** Every certificate kubeadm checks that kubelab writes (no etcd-peer: NATS has no peers), by kubeadm's names, with its CA. */
const CERTS: { name: string; ca: CaName; file: string; kubeconfig?: true }[] = [
  { name: 'admin.conf', ca: 'ca', file: KUBECONFIG_FILES.admin, kubeconfig: true },
  { name: 'apiserver', ca: 'ca', file: PKI_FILES.apiserver },
  { name: 'apiserver-etcd-client', ca: 'etcd-ca', file: PKI_FILES.apiserverEtcdClient },
  { name: 'apiserver-kubelet-client', ca: 'ca', file: PKI_FILES.apiserverKubeletClient },
  { name: 'controller-manager.conf', ca: 'ca', file: KUBECONFIG_FILES.controllerManager, kubeconfig: true },
  { name: 'etcd-healthcheck-client', ca: 'etcd-ca', file: PKI_FILES.etcdHealthcheckClient },
  { name: 'etcd-server', ca: 'etcd-ca', file: PKI_FILES.etcdServer },
  { name: 'front-proxy-client', ca: 'front-proxy-ca', file: PKI_FILES.frontProxyClient },
  { name: 'scheduler.conf', ca: 'ca', file: KUBECONFIG_FILES.scheduler, kubeconfig: true },
  { name: 'super-admin.conf', ca: 'ca', file: KUBECONFIG_FILES.superAdmin, kubeconfig: true },
];

export interface ExpirationRow {
  name: string;
  /** undefined: the file is missing. */
  expires?: Date;
  /** The CA's name (certificates only). */
  ca?: string;
  /** Signed by (or, for a CA, being) a CA whose key is not on disk: kubeadm's external CA mode. */
  externallyManaged: boolean;
}

/** apimachinery's ShortHumanDuration: `45s`, `12m`, `23h`, `364d`, `9y`; `<invalid>` once past. */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // Two seconds of clock skew still read as "now".
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(hours / 24 / 365)}y`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

/** Go's "Jan 02, 2006 15:04 MST" in UTC, kubeadm's EXPIRES column. */
export function expiresColumn(d: Date): string {
  return `${MONTHS[d.getUTCMonth()]} ${pad2(d.getUTCDate())}, ${d.getUTCFullYear()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())} UTC`;
}

/** Go's tabwriter as kubeadm sets it up (padding 3, cells left-aligned): each column as wide as its widest cell plus 3. */
function tabulate(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.slice(0, -1).forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]! + 3) : c)).join('') + '\n').join('');
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no').padEnd(8);

/** kubeadm's text output: the certificates, a blank line, the CAs. */
export function expirationTables(certs: readonly ExpirationRow[], cas: readonly ExpirationRow[], now: Date): string {
  const row = (r: ExpirationRow, withCa: boolean): string[] => {
    if (!r.expires) return [`!MISSING! ${r.name}`, '', '', ...(withCa ? [''] : []), ''];
    return [r.name, expiresColumn(r.expires), shortHumanDuration(r.expires.getTime() - now.getTime()), ...(withCa ? [r.ca ?? ''] : []), yesNo(r.externallyManaged)];
  };
  return (
    tabulate([['CERTIFICATE', 'EXPIRES', 'RESIDUAL TIME', 'CERTIFICATE AUTHORITY', 'EXTERNALLY MANAGED'], ...certs.map((r) => row(r, true))]) +
    '\n' +
    tabulate([['CERTIFICATE AUTHORITY', 'EXPIRES', 'RESIDUAL TIME', 'EXTERNALLY MANAGED'], ...cas.map((r) => row(r, false))])
  );
}

/** Reads the rows from disk: the kubernetes dir is the folder holding `certDir`. */
export function readExpirations(certDir: string): { certs: ExpirationRow[]; cas: ExpirationRow[] } {
  const kubernetesDir = dirname(certDir);
  // PKI_FILES name files under pki/; --cert-dir may be any folder.
  const pkiPath = (base: string, ext: string) => join(certDir, `${base.replace(/^pki\//, '')}.${ext}`);
  const external = (ca: CaName) => !existsSync(pkiPath(CAS[ca], 'key'));
  const notAfter = (pem: string | undefined) => (pem ? certificateInfo(pem).notAfter : undefined);
  const cas = (Object.keys(CAS) as CaName[]).map((name) => {
    const file = pkiPath(CAS[name], 'crt');
    return { name, ...(existsSync(file) ? { expires: certificateInfo(readFileSync(file, 'utf8')).notAfter } : {}), externallyManaged: external(name) };
  });
  const certs = CERTS.map((c) => {
    const file = c.kubeconfig ? join(kubernetesDir, c.file) : pkiPath(c.file, 'crt');
    const expires = !existsSync(file) ? undefined : notAfter(c.kubeconfig ? loadKubeconfig(file).clientCertPem : readFileSync(file, 'utf8'));
    return { name: c.name, ...(expires ? { expires } : {}), ca: c.ca, externallyManaged: external(c.ca) };
  });
  return { certs, cas };
}

const KUBEADM_CERT_DIR = '/etc/kubernetes/pki';

const flags = new FlagSet('kubelab kubeadm certs check-expiration')
  .string('cert-dir', '', "The path where the certificates are; the kubeconfigs are read from the folder above it (default /etc/kubernetes/pki, else the state dir's pki)")
  .string('state-dir', '', "kubelab up's state dir (it plays /etc/kubernetes): its pki/ is the --cert-dir");

/** kubeadm's /etc/kubernetes/pki where it exists (a compose container), else the state dir's, as every kubelab command reads it. */
export function certDirFrom(o: { certDir: string; stateDir: string }, exists: (path: string) => boolean): string {
  if (o.certDir) return o.certDir;
  if (o.stateDir) return join(stateDirFrom(o.stateDir), 'pki');
  return exists(KUBEADM_CERT_DIR) ? KUBEADM_CERT_DIR : join(stateDirFrom(undefined), 'pki');
}

export function checkExpirationCommand(argv: string[], now = new Date()): number {
  const { values, rest } = flags.parse(argv, process.env);
  if (rest.length > 0) throw new FlagError(`unexpected argument "${rest[0]}"`);
  const certDir = certDirFrom({ certDir: values['cert-dir'], stateDir: values['state-dir'] }, existsSync);
  if (!existsSync(certDir)) throw new FlagError(`--cert-dir "${certDir}": no such directory`);
  const { certs, cas } = readExpirations(certDir);
  process.stdout.write(expirationTables(certs, cas, now));
  return 0;
}
