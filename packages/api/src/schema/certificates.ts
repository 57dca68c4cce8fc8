// The schema of certificates.k8s.io/v1: CertificateSigningRequest (k8s.io/api/certificates/v1 types.go).
// Numbered as generated.proto: `kubectl certificate approve|deny` PUTs the object as protobuf.
// `extra` (map<string, ExtraValue> on the wire) is not numbered: the decoder skips it, and the
// approval and status strategies keep the stored spec anyway.

import { top, type TypeDef } from './definition.js';

export const CERTIFICATES_TYPES: Record<string, TypeDef> = {
  CertificateSigningRequest: {
    group: 'certificates',
    protobuf: true,
    description: 'A CertificateSigningRequest asks a signer for an x509 certificate: it is approved or denied (the approval subresource), then issued by the signer (the status subresource).',
    fields: top({
      spec: ['CertificateSigningRequestSpec', 'The certificate request; immutable after creation.', { required: true, protobuf: 2 }],
      status: ['CertificateSigningRequestStatus', 'Whether the request is approved or denied, and the issued certificate.', { protobuf: 3 }],
    }),
  },
  CertificateSigningRequestSpec: {
    group: 'certificates',
    description: 'The certificate request. Only request, signerName, expirationSeconds and usages can be set on creation; the rest is the requesting user, filled in by the apiserver.',
    fields: {
      request: ['bytes', 'An x509 certificate signing request in a "CERTIFICATE REQUEST" PEM block (base64 again in JSON).', { required: true, protobuf: 1 }],
      signerName: [
        'string',
        'The requested signer, a qualified name: kubernetes.io/kube-apiserver-client, kubernetes.io/kube-apiserver-client-kubelet, kubernetes.io/kubelet-serving, or a custom signer.',
        { required: true, protobuf: 7 },
      ],
      expirationSeconds: ['int32', 'The requested validity of the issued certificate (at least 600); the signer may issue a shorter one.', { protobuf: 8 }],
      usages: ['[]string', 'Key usages requested in the issued certificate, e.g. "digital signature", "key encipherment", "client auth".', { required: true, protobuf: 5 }],
      username: ['string', 'The user that created the request; set by the apiserver.', { protobuf: 2 }],
      uid: ['string', 'The uid of the user that created the request; set by the apiserver.', { protobuf: 3 }],
      groups: ['[]string', 'The groups of the user that created the request; set by the apiserver.', { protobuf: 4 }],
      extra: ['object', 'Extra attributes of the user that created the request; set by the apiserver.'],
    },
  },
  CertificateSigningRequestStatus: {
    group: 'certificates',
    description: 'Approved, Denied or Failed conditions, and the issued certificate.',
    fields: {
      conditions: ['[]CertificateSigningRequestCondition', 'Conditions of the request: Approved, Denied, Failed.', { protobuf: 1 }],
      certificate: ['bytes', 'The issued certificate (PEM, base64 again in JSON); set by the signer through the status subresource, then immutable.', { protobuf: 2 }],
    },
  },
  CertificateSigningRequestCondition: {
    group: 'certificates',
    description: 'A condition of a CertificateSigningRequest.',
    fields: {
      type: ['string', 'Approved, Denied (both through the approval subresource, mutually exclusive) or Failed (through status).', { required: true, protobuf: 1 }],
      status: ['string', 'True, False or Unknown; Approved, Denied and Failed may only be True.', { required: true, protobuf: 6 }],
      reason: ['string', 'A brief reason for the request state.', { protobuf: 2 }],
      message: ['string', 'A human readable message with details about the request state.', { protobuf: 3 }],
      lastUpdateTime: ['Time', 'The last update to this condition.', { protobuf: 4 }],
      lastTransitionTime: ['Time', 'The last time the condition changed status; defaulted by the server.', { protobuf: 5 }],
    },
  },
};
