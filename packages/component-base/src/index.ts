export { createLogger, parseLogLevel, kObj, kObjSlice, kRef, ObjectRef, ObjectRefs, DEBUG_VERBOSITY, type Logger, type LoggerOptions, type LogLevel, type LogFormat, type LogStyle } from './logs.js';
export { FlagSet, FlagError, readFlagFile } from './flags.js';
export { withApiserverFlags, apiserverAddressFrom, DEFAULT_APISERVER_GRPC_ADDRESS, type ApiserverFlagValues } from './apiserver-flags.js';
export { parseDuration, formatDuration } from './duration.js';
export {
  serveHealth,
  healthHandler,
  listenHttp,
  newMetricsRegistry,
  type HealthCheck,
  type HealthChecks,
  type HealthServer,
  type HealthServerOptions,
  type Route,
  type SecureServing,
} from './health.js';
export { servingCertificate, type ServingCertificate, type ServingCertificateOptions } from './serving-cert.js';
export {
  reviewClients,
  secureServing,
  securePortConfigFrom,
  withSecureServingFlags,
  type ReviewClientset,
  type SecurePortConfig,
  type SecurePortContext,
  type SecureServingFlagValues,
} from './secure-serving.js';
export { serveSecurePort, type ReviewConnection, type SecurePort, type SecurePortOptions } from './secure-port.js';
// A component's own HTTPS port: delegated authentication and authorization (the kubelet's, the scheduler's, the controller-manager's).
export type { Attributes, AuthenticatorOptions, Authorizer, Decision, ReviewClient, SecurePortAuth, TokenAuthenticator, UserInfo } from './auth/types.js';
export { authenticateRequest, certificateUser, type AuthenticationResult } from './auth/authenticate.js';
export { ExpiringCache } from './auth/cache.js';
export {
  alwaysAllow,
  decisionOf,
  subjectAccessReviewFor,
  WebhookAuthorizer,
  WebhookTokenAuthenticator,
  DEFAULT_AUTHORIZED_TTL_MS,
  DEFAULT_TOKEN_CACHE_TTL_MS,
  DEFAULT_UNAUTHORIZED_TTL_MS,
} from './auth/webhook.js';
export {
  alwaysAllowPathsAuthorizer,
  delegatingAuth,
  delegatingAuthorizer,
  nonResourceAttributes,
  privilegedGroupsAuthorizer,
  unionAuthorizer,
  DEFAULT_ALWAYS_ALLOW_GROUPS,
  DEFAULT_ALWAYS_ALLOW_PATHS,
  DELEGATED_CACHE_TTL_MS,
  type DelegatingAuthOptions,
  type DelegatingAuthorizerOptions,
} from './auth/delegating.js';
export { filterSecurePortRequest, type SecurePortFilterResult } from './auth/filter.js';
export { forbiddenMessage, forbiddenStatus, type ForbiddenAttributes } from './auth/forbidden.js';
export { onShutdown, runMain } from './signals.js';
export { installLeanAsyncResourceBind } from './async-resource-bind.js';
export { withLeaderElectionFlags, leaderElectionFrom, type LeaderElectionFlagValues } from './leader-election-flags.js';
export { which } from './which.js';
export { FastCounter, FastGauge, FastHistogram, type HistogramSeries } from './metrics/labelled.js';
export { isUpgradeRequest, serveUpgrades, proxyUpgrade, upgradeHead } from './upgrade.js';
export {
  FLAG_FIN,
  FrameReader,
  GoAwayStatus,
  HeaderCompressor,
  HeaderDecompressor,
  RstStatus,
  SPDY3_DICTIONARY,
  SpdyProtocolError,
  encodeFrame,
  type Frame,
  type Headers as SpdyHeaders,
} from './httpstream/spdy-frames.js';
export { SpdyConnection, SpdyStream, attachSpdy, type SpdyConnectionOptions } from './httpstream/spdy-connection.js';
export {
  HEADER_ACCEPTED_PROTOCOL_VERSIONS,
  HEADER_PROTOCOL_VERSION,
  PORT_FORWARD_PROTOCOL,
  REMOTECOMMAND_SPDY_PROTOCOLS,
  SPDY_31,
  StreamHeader,
  WEBSOCKET_SPDY_TUNNEL_PREFIX,
  headerValues,
  negotiateStreamProtocol,
  spdyUpgradeResponse,
  tunneledSpdyProtocols,
  type Handshake,
  type RemoteCommandSpdyProtocol,
} from './httpstream/httpstream.js';
export { issuedBy, requestHeaderFromConfigMap, requestHeaderUser, type RequestHeaderConfig } from './auth/requestheader.js';
export { execRunner, mustRun, probeCommand, CommandError, type CommandRunner, type CommandResult } from './command-runner.js';
export { httpGetProbe, MAX_PROBE_BODY_BYTES, type HttpProbeOutcome } from './probe/http.js';
