// certificates.k8s.io/v1 (k8s.io/api/certificates/v1): CertificateSigningRequest.
import type { KubeList, KubeObject, ObjectMeta } from '../../meta/types.js';

export const CERTIFICATES_GROUP = 'certificates.k8s.io';

/** The well-known signers (upstream certificates/v1 constants). */
export const SIGNER_KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
export const SIGNER_KUBE_APISERVER_CLIENT_KUBELET = 'kubernetes.io/kube-apiserver-client-kubelet';
export const SIGNER_KUBELET_SERVING = 'kubernetes.io/kubelet-serving';
/** Only for objects stored through v1beta1; v1 refuses it on create. */
export const SIGNER_LEGACY_UNKNOWN = 'kubernetes.io/legacy-unknown';

/** Key usages as upstream names them (certificates/v1 KeyUsage). */
export const KEY_USAGES = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
] as const;
export type KeyUsage = (typeof KEY_USAGES)[number];

export type RequestConditionType = 'Approved' | 'Denied' | 'Failed';

export interface CertificateSigningRequestSpec {
  /** The PEM "CERTIFICATE REQUEST", base64 in JSON. */
  request: string;
  signerName: string;
  expirationSeconds?: number;
  usages?: (KeyUsage | (string & {}))[];
  /** Set by the apiserver from the requesting user. */
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface CertificateSigningRequestCondition {
  type: RequestConditionType | (string & {});
  status: 'True' | 'False' | 'Unknown' | (string & {});
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequestStatus {
  conditions?: CertificateSigningRequestCondition[];
  /** The issued PEM certificate(s), base64 in JSON. */
  certificate?: string;
}

export interface CertificateSigningRequest extends KubeObject {
  apiVersion?: 'certificates.k8s.io/v1';
  kind?: 'CertificateSigningRequest';
  metadata: ObjectMeta;
  spec: CertificateSigningRequestSpec;
  status?: CertificateSigningRequestStatus;
}
export type CertificateSigningRequestList = KubeList<CertificateSigningRequest>;
