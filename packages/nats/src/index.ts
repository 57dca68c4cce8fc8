// @kubelab/nats: NATS in etcd's role, secured: who may connect (a client
// certificate per component, mapped to a NATS user), what each may do
// (subject permissions), the nats-server configuration that says so, and the
// options clients connect with.

export { NATS_TLS_FLAGS, natsAuthOptions, readNatsTls, type NatsClientTls, type NatsTlsFiles, type NatsTlsFlagNames } from './client.js';
export { NATS_MAX_PAYLOAD, natsServerConfig, type NatsServerConfigOptions, type NatsServerTlsFiles } from './config.js';
export {
  ADMIN_NATS_IDENTITY,
  APISERVER_NATS_IDENTITY,
  TRACE_NATS_IDENTITY,
  SCHEDULER_NATS_IDENTITY,
  DASHBOARD_NATS_IDENTITY,
  containerdNatsIdentity,
  kubeProxyNatsIdentity,
  leafNodeNatsUser,
  nodeAgentNatsIdentity,
  podMapSubject,
  POD_MAP_SUBJECT_ALL,
  kvStream,
  natsUserName,
  natsUsers,
  type NatsIdentity,
  type NatsUser,
  type NatsUsersOptions,
  type SubjectPermissions,
} from './identities.js';
export {
  CONTROL_PLANE_COMPONENTS,
  CONTROL_SUBJECT_ALL,
  CONTROL_UNITS,
  controlCommandLine,
  controlSubject,
  isControlPlaneComponent,
  parseNodeControlRequest,
  type ControlUnit,
  type NodeControlReply,
  type NodeControlRequest,
} from './control.js';
export { announceListening, HEARTBEAT_MS, LISTEN_TTL_MS, ListenerGate, listenSubject, listening, listenWhoSubject, type Announcement, type RecordSource } from './listeners.js';
