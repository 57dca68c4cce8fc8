// @kubelab/pki: the cluster's certificates and kubeconfigs, as kubeadm makes them.

export { KEY_ALGORITHMS, generateKeyPair, keyPairFromPem, privateKeyToPem, publicKeyToPem, type KeyAlgorithm } from './keys.js';
export {
  CA_VALIDITY_DAYS,
  CertificateAuthority,
  LEAF_VALIDITY_DAYS,
  certificateInfo,
  createCsr,
  distinguishedName,
  parseCsr,
  type CertKeyPem,
  type CertificateInfo,
  type CertificateSpec,
  type CsrInfo,
  type Usage,
} from './certificate.js';
export { selfSignedCertKey, type SelfSignedOptions } from './self-signed.js';
export { KubeconfigError, buildKubeconfig, loadKubeconfig, parseKubeconfig, type ClientCredentials, type KubeconfigSpec } from './kubeconfig.js';
export {
  APISERVER_KUBELET_CLIENT,
  APISERVER_SERVICE_NAMES,
  DEFAULT_CLUSTER_NAME,
  GROUP_CLUSTER_ADMINS,
  KUBECONFIG_FILES,
  KUBECONFIG_USERS,
  PKI_FILES,
  ensureCa,
  ensureCert,
  ensureClusterPki,
  ensureKubeconfig,
  ensureServiceAccountKey,
  kubeletIdentity,
  type ClusterPki,
  type ClusterPkiOptions,
} from './kubeadm.js';
