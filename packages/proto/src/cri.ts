import * as grpc from '@grpc/grpc-js';
import type { ProtoGrpcType } from './generated/api.js';
import type { ImageServiceClient } from './generated/runtime/v1/ImageService.js';
import type { RuntimeServiceClient } from './generated/runtime/v1/RuntimeService.js';
import { withListCache } from './list-cache.js';
import { loadProto } from './load.js';

/** The Container Runtime Interface subset (`runtime.v1`, proto/runtime/v1/api.proto). */
export function criProto(): ProtoGrpcType {
  return loadProto('runtime/v1/api.proto') as unknown as ProtoGrpcType;
}

const RELIST_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * CRI clients for a caller that relists (the kubelet): ListPodSandbox,
 * ListContainers and ListImages decode only what changed since their previous
 * answer (list-cache.ts); their elements are frozen and shared between answers.
 * Stats lists change on every call and decode as usual. Each call makes clients
 * with caches of their own: one relisting node's answers never evict another's.
 */
export function relistingCriClients(target: string, credentials: grpc.ChannelCredentials, options: grpc.ClientOptions): { runtime: RuntimeServiceClient; image: ImageServiceClient } {
  const proto = criProto();
  // A relist of a thousand containers is ~650 KB: with HTTP/2's initial 64 KiB window it would
  // cross in ten flow-control round trips. gRPC-Go's kubelet grows its window by BDP estimation
  // (up to 16 MiB); grpc-js has none, so the window starts there.
  options = { 'grpc-node.flow_control_window': RELIST_WINDOW_BYTES, ...options };
  const Runtime = grpc.makeClientConstructor(withListCache(proto.runtime.v1.RuntimeService.service, { ListPodSandbox: 'items', ListContainers: 'containers' }), 'runtime.v1.RuntimeService');
  const Image = grpc.makeClientConstructor(withListCache(proto.runtime.v1.ImageService.service, { ListImages: 'images' }), 'runtime.v1.ImageService');
  return {
    runtime: new Runtime(target, credentials, options) as unknown as RuntimeServiceClient,
    image: new Image(target, credentials, options) as unknown as ImageServiceClient,
  };
}

export type { RuntimeServiceClient, RuntimeServiceHandlers } from './generated/runtime/v1/RuntimeService.js';
export type { ImageServiceClient, ImageServiceHandlers } from './generated/runtime/v1/ImageService.js';

// Message types, as `Cri<Name>` (input shape) and `Cri<Name>__Output` (decoded shape).
export type { AttachRequest as CriAttachRequest, AttachRequest__Output as CriAttachRequest__Output } from './generated/runtime/v1/AttachRequest.js';
export type { AttachResponse as CriAttachResponse, AttachResponse__Output as CriAttachResponse__Output } from './generated/runtime/v1/AttachResponse.js';
export type { AuthConfig as CriAuthConfig, AuthConfig__Output as CriAuthConfig__Output } from './generated/runtime/v1/AuthConfig.js';
export type { Capability as CriCapability, Capability__Output as CriCapability__Output } from './generated/runtime/v1/Capability.js';
export type { CgroupDriver as CriCgroupDriver, CgroupDriver__Output as CriCgroupDriver__Output } from './generated/runtime/v1/CgroupDriver.js';
export type { Container as CriContainer, Container__Output as CriContainer__Output } from './generated/runtime/v1/Container.js';
export type { ContainerAttributes as CriContainerAttributes, ContainerAttributes__Output as CriContainerAttributes__Output } from './generated/runtime/v1/ContainerAttributes.js';
export type { ContainerConfig as CriContainerConfig, ContainerConfig__Output as CriContainerConfig__Output } from './generated/runtime/v1/ContainerConfig.js';
export type { ContainerEventResponse as CriContainerEventResponse, ContainerEventResponse__Output as CriContainerEventResponse__Output } from './generated/runtime/v1/ContainerEventResponse.js';
export type { ContainerEventType as CriContainerEventType, ContainerEventType__Output as CriContainerEventType__Output } from './generated/runtime/v1/ContainerEventType.js';
export type { ContainerFilter as CriContainerFilter, ContainerFilter__Output as CriContainerFilter__Output } from './generated/runtime/v1/ContainerFilter.js';
export type { ContainerMetadata as CriContainerMetadata, ContainerMetadata__Output as CriContainerMetadata__Output } from './generated/runtime/v1/ContainerMetadata.js';
export type { ContainerResources as CriContainerResources, ContainerResources__Output as CriContainerResources__Output } from './generated/runtime/v1/ContainerResources.js';
export type { ContainerState as CriContainerState, ContainerState__Output as CriContainerState__Output } from './generated/runtime/v1/ContainerState.js';
export type { ContainerStateValue as CriContainerStateValue, ContainerStateValue__Output as CriContainerStateValue__Output } from './generated/runtime/v1/ContainerStateValue.js';
export type { ContainerStats as CriContainerStats, ContainerStats__Output as CriContainerStats__Output } from './generated/runtime/v1/ContainerStats.js';
export type { ContainerStatsFilter as CriContainerStatsFilter, ContainerStatsFilter__Output as CriContainerStatsFilter__Output } from './generated/runtime/v1/ContainerStatsFilter.js';
export type { ContainerStatsRequest as CriContainerStatsRequest, ContainerStatsRequest__Output as CriContainerStatsRequest__Output } from './generated/runtime/v1/ContainerStatsRequest.js';
export type { ContainerStatsResponse as CriContainerStatsResponse, ContainerStatsResponse__Output as CriContainerStatsResponse__Output } from './generated/runtime/v1/ContainerStatsResponse.js';
export type { ContainerStatus as CriContainerStatus, ContainerStatus__Output as CriContainerStatus__Output } from './generated/runtime/v1/ContainerStatus.js';
export type { ContainerStatusRequest as CriContainerStatusRequest, ContainerStatusRequest__Output as CriContainerStatusRequest__Output } from './generated/runtime/v1/ContainerStatusRequest.js';
export type { ContainerStatusResponse as CriContainerStatusResponse, ContainerStatusResponse__Output as CriContainerStatusResponse__Output } from './generated/runtime/v1/ContainerStatusResponse.js';
export type { ContainerUser as CriContainerUser, ContainerUser__Output as CriContainerUser__Output } from './generated/runtime/v1/ContainerUser.js';
export type { CpuUsage as CriCpuUsage, CpuUsage__Output as CriCpuUsage__Output } from './generated/runtime/v1/CpuUsage.js';
export type { CreateContainerRequest as CriCreateContainerRequest, CreateContainerRequest__Output as CriCreateContainerRequest__Output } from './generated/runtime/v1/CreateContainerRequest.js';
export type { CreateContainerResponse as CriCreateContainerResponse, CreateContainerResponse__Output as CriCreateContainerResponse__Output } from './generated/runtime/v1/CreateContainerResponse.js';
export type { DNSConfig as CriDNSConfig, DNSConfig__Output as CriDNSConfig__Output } from './generated/runtime/v1/DNSConfig.js';
export type { Device as CriDevice, Device__Output as CriDevice__Output } from './generated/runtime/v1/Device.js';
export type { ExecRequest as CriExecRequest, ExecRequest__Output as CriExecRequest__Output } from './generated/runtime/v1/ExecRequest.js';
export type { ExecResponse as CriExecResponse, ExecResponse__Output as CriExecResponse__Output } from './generated/runtime/v1/ExecResponse.js';
export type { ExecSyncRequest as CriExecSyncRequest, ExecSyncRequest__Output as CriExecSyncRequest__Output } from './generated/runtime/v1/ExecSyncRequest.js';
export type { ExecSyncResponse as CriExecSyncResponse, ExecSyncResponse__Output as CriExecSyncResponse__Output } from './generated/runtime/v1/ExecSyncResponse.js';
export type { FilesystemIdentifier as CriFilesystemIdentifier, FilesystemIdentifier__Output as CriFilesystemIdentifier__Output } from './generated/runtime/v1/FilesystemIdentifier.js';
export type { FilesystemUsage as CriFilesystemUsage, FilesystemUsage__Output as CriFilesystemUsage__Output } from './generated/runtime/v1/FilesystemUsage.js';
export type { GetEventsRequest as CriGetEventsRequest, GetEventsRequest__Output as CriGetEventsRequest__Output } from './generated/runtime/v1/GetEventsRequest.js';
export type { Image as CriImage, Image__Output as CriImage__Output } from './generated/runtime/v1/Image.js';
export type { ImageFilter as CriImageFilter, ImageFilter__Output as CriImageFilter__Output } from './generated/runtime/v1/ImageFilter.js';
export type { ImageFsInfoRequest as CriImageFsInfoRequest, ImageFsInfoRequest__Output as CriImageFsInfoRequest__Output } from './generated/runtime/v1/ImageFsInfoRequest.js';
export type { ImageFsInfoResponse as CriImageFsInfoResponse, ImageFsInfoResponse__Output as CriImageFsInfoResponse__Output } from './generated/runtime/v1/ImageFsInfoResponse.js';
export type { ImageSpec as CriImageSpec, ImageSpec__Output as CriImageSpec__Output } from './generated/runtime/v1/ImageSpec.js';
export type { ImageStatusRequest as CriImageStatusRequest, ImageStatusRequest__Output as CriImageStatusRequest__Output } from './generated/runtime/v1/ImageStatusRequest.js';
export type { ImageStatusResponse as CriImageStatusResponse, ImageStatusResponse__Output as CriImageStatusResponse__Output } from './generated/runtime/v1/ImageStatusResponse.js';
export type { Int64Value as CriInt64Value, Int64Value__Output as CriInt64Value__Output } from './generated/runtime/v1/Int64Value.js';
export type { KeyValue as CriKeyValue, KeyValue__Output as CriKeyValue__Output } from './generated/runtime/v1/KeyValue.js';
export type { LinuxContainerConfig as CriLinuxContainerConfig, LinuxContainerConfig__Output as CriLinuxContainerConfig__Output } from './generated/runtime/v1/LinuxContainerConfig.js';
export type { LinuxContainerResources as CriLinuxContainerResources, LinuxContainerResources__Output as CriLinuxContainerResources__Output } from './generated/runtime/v1/LinuxContainerResources.js';
export type {
  LinuxContainerSecurityContext as CriLinuxContainerSecurityContext,
  LinuxContainerSecurityContext__Output as CriLinuxContainerSecurityContext__Output,
} from './generated/runtime/v1/LinuxContainerSecurityContext.js';
export type { LinuxContainerUser as CriLinuxContainerUser, LinuxContainerUser__Output as CriLinuxContainerUser__Output } from './generated/runtime/v1/LinuxContainerUser.js';
export type { LinuxPodSandboxConfig as CriLinuxPodSandboxConfig, LinuxPodSandboxConfig__Output as CriLinuxPodSandboxConfig__Output } from './generated/runtime/v1/LinuxPodSandboxConfig.js';
export type { LinuxPodSandboxStats as CriLinuxPodSandboxStats, LinuxPodSandboxStats__Output as CriLinuxPodSandboxStats__Output } from './generated/runtime/v1/LinuxPodSandboxStats.js';
export type { LinuxPodSandboxStatus as CriLinuxPodSandboxStatus, LinuxPodSandboxStatus__Output as CriLinuxPodSandboxStatus__Output } from './generated/runtime/v1/LinuxPodSandboxStatus.js';
export type {
  LinuxRuntimeConfiguration as CriLinuxRuntimeConfiguration,
  LinuxRuntimeConfiguration__Output as CriLinuxRuntimeConfiguration__Output,
} from './generated/runtime/v1/LinuxRuntimeConfiguration.js';
export type {
  LinuxSandboxSecurityContext as CriLinuxSandboxSecurityContext,
  LinuxSandboxSecurityContext__Output as CriLinuxSandboxSecurityContext__Output,
} from './generated/runtime/v1/LinuxSandboxSecurityContext.js';
export type {
  ListContainerStatsRequest as CriListContainerStatsRequest,
  ListContainerStatsRequest__Output as CriListContainerStatsRequest__Output,
} from './generated/runtime/v1/ListContainerStatsRequest.js';
export type {
  ListContainerStatsResponse as CriListContainerStatsResponse,
  ListContainerStatsResponse__Output as CriListContainerStatsResponse__Output,
} from './generated/runtime/v1/ListContainerStatsResponse.js';
export type { ListContainersRequest as CriListContainersRequest, ListContainersRequest__Output as CriListContainersRequest__Output } from './generated/runtime/v1/ListContainersRequest.js';
export type { ListContainersResponse as CriListContainersResponse, ListContainersResponse__Output as CriListContainersResponse__Output } from './generated/runtime/v1/ListContainersResponse.js';
export type { ListImagesRequest as CriListImagesRequest, ListImagesRequest__Output as CriListImagesRequest__Output } from './generated/runtime/v1/ListImagesRequest.js';
export type { ListImagesResponse as CriListImagesResponse, ListImagesResponse__Output as CriListImagesResponse__Output } from './generated/runtime/v1/ListImagesResponse.js';
export type { ListPodSandboxRequest as CriListPodSandboxRequest, ListPodSandboxRequest__Output as CriListPodSandboxRequest__Output } from './generated/runtime/v1/ListPodSandboxRequest.js';
export type { ListPodSandboxResponse as CriListPodSandboxResponse, ListPodSandboxResponse__Output as CriListPodSandboxResponse__Output } from './generated/runtime/v1/ListPodSandboxResponse.js';
export type {
  ListPodSandboxStatsRequest as CriListPodSandboxStatsRequest,
  ListPodSandboxStatsRequest__Output as CriListPodSandboxStatsRequest__Output,
} from './generated/runtime/v1/ListPodSandboxStatsRequest.js';
export type {
  ListPodSandboxStatsResponse as CriListPodSandboxStatsResponse,
  ListPodSandboxStatsResponse__Output as CriListPodSandboxStatsResponse__Output,
} from './generated/runtime/v1/ListPodSandboxStatsResponse.js';
export type { MemoryUsage as CriMemoryUsage, MemoryUsage__Output as CriMemoryUsage__Output } from './generated/runtime/v1/MemoryUsage.js';
export type { Mount as CriMount, Mount__Output as CriMount__Output } from './generated/runtime/v1/Mount.js';
export type { MountPropagation as CriMountPropagation, MountPropagation__Output as CriMountPropagation__Output } from './generated/runtime/v1/MountPropagation.js';
export type { Namespace as CriNamespace, Namespace__Output as CriNamespace__Output } from './generated/runtime/v1/Namespace.js';
export type { NamespaceMode as CriNamespaceMode, NamespaceMode__Output as CriNamespaceMode__Output } from './generated/runtime/v1/NamespaceMode.js';
export type { NamespaceOption as CriNamespaceOption, NamespaceOption__Output as CriNamespaceOption__Output } from './generated/runtime/v1/NamespaceOption.js';
export type { NetworkConfig as CriNetworkConfig, NetworkConfig__Output as CriNetworkConfig__Output } from './generated/runtime/v1/NetworkConfig.js';
export type { NetworkInterfaceUsage as CriNetworkInterfaceUsage, NetworkInterfaceUsage__Output as CriNetworkInterfaceUsage__Output } from './generated/runtime/v1/NetworkInterfaceUsage.js';
export type { NetworkUsage as CriNetworkUsage, NetworkUsage__Output as CriNetworkUsage__Output } from './generated/runtime/v1/NetworkUsage.js';
export type { PodIP as CriPodIP, PodIP__Output as CriPodIP__Output } from './generated/runtime/v1/PodIP.js';
export type { PodSandbox as CriPodSandbox, PodSandbox__Output as CriPodSandbox__Output } from './generated/runtime/v1/PodSandbox.js';
export type { PodSandboxAttributes as CriPodSandboxAttributes, PodSandboxAttributes__Output as CriPodSandboxAttributes__Output } from './generated/runtime/v1/PodSandboxAttributes.js';
export type { SecurityProfile as CriSecurityProfile, SecurityProfile__Output as CriSecurityProfile__Output } from './generated/runtime/v1/SecurityProfile.js';
export type { PodSandboxConfig as CriPodSandboxConfig, PodSandboxConfig__Output as CriPodSandboxConfig__Output } from './generated/runtime/v1/PodSandboxConfig.js';
export type { PodSandboxFilter as CriPodSandboxFilter, PodSandboxFilter__Output as CriPodSandboxFilter__Output } from './generated/runtime/v1/PodSandboxFilter.js';
export type { PodSandboxMetadata as CriPodSandboxMetadata, PodSandboxMetadata__Output as CriPodSandboxMetadata__Output } from './generated/runtime/v1/PodSandboxMetadata.js';
export type { PodSandboxNetworkStatus as CriPodSandboxNetworkStatus, PodSandboxNetworkStatus__Output as CriPodSandboxNetworkStatus__Output } from './generated/runtime/v1/PodSandboxNetworkStatus.js';
export type { PodSandboxState as CriPodSandboxState, PodSandboxState__Output as CriPodSandboxState__Output } from './generated/runtime/v1/PodSandboxState.js';
export type { PodSandboxStateValue as CriPodSandboxStateValue, PodSandboxStateValue__Output as CriPodSandboxStateValue__Output } from './generated/runtime/v1/PodSandboxStateValue.js';
export type { PodSandboxStats as CriPodSandboxStats, PodSandboxStats__Output as CriPodSandboxStats__Output } from './generated/runtime/v1/PodSandboxStats.js';
export type { PodSandboxStatsFilter as CriPodSandboxStatsFilter, PodSandboxStatsFilter__Output as CriPodSandboxStatsFilter__Output } from './generated/runtime/v1/PodSandboxStatsFilter.js';
export type { PodSandboxStatsRequest as CriPodSandboxStatsRequest, PodSandboxStatsRequest__Output as CriPodSandboxStatsRequest__Output } from './generated/runtime/v1/PodSandboxStatsRequest.js';
export type { PodSandboxStatsResponse as CriPodSandboxStatsResponse, PodSandboxStatsResponse__Output as CriPodSandboxStatsResponse__Output } from './generated/runtime/v1/PodSandboxStatsResponse.js';
export type { PodSandboxStatus as CriPodSandboxStatus, PodSandboxStatus__Output as CriPodSandboxStatus__Output } from './generated/runtime/v1/PodSandboxStatus.js';
export type { PodSandboxStatusRequest as CriPodSandboxStatusRequest, PodSandboxStatusRequest__Output as CriPodSandboxStatusRequest__Output } from './generated/runtime/v1/PodSandboxStatusRequest.js';
export type {
  PodSandboxStatusResponse as CriPodSandboxStatusResponse,
  PodSandboxStatusResponse__Output as CriPodSandboxStatusResponse__Output,
} from './generated/runtime/v1/PodSandboxStatusResponse.js';
export type { PortForwardRequest as CriPortForwardRequest, PortForwardRequest__Output as CriPortForwardRequest__Output } from './generated/runtime/v1/PortForwardRequest.js';
export type { PortForwardResponse as CriPortForwardResponse, PortForwardResponse__Output as CriPortForwardResponse__Output } from './generated/runtime/v1/PortForwardResponse.js';
export type { PortMapping as CriPortMapping, PortMapping__Output as CriPortMapping__Output } from './generated/runtime/v1/PortMapping.js';
export type { ProcessUsage as CriProcessUsage, ProcessUsage__Output as CriProcessUsage__Output } from './generated/runtime/v1/ProcessUsage.js';
export type { Protocol as CriProtocol, Protocol__Output as CriProtocol__Output } from './generated/runtime/v1/Protocol.js';
export type { PullImageRequest as CriPullImageRequest, PullImageRequest__Output as CriPullImageRequest__Output } from './generated/runtime/v1/PullImageRequest.js';
export type { PullImageResponse as CriPullImageResponse, PullImageResponse__Output as CriPullImageResponse__Output } from './generated/runtime/v1/PullImageResponse.js';
export type { RemoveContainerRequest as CriRemoveContainerRequest, RemoveContainerRequest__Output as CriRemoveContainerRequest__Output } from './generated/runtime/v1/RemoveContainerRequest.js';
export type { RemoveContainerResponse as CriRemoveContainerResponse, RemoveContainerResponse__Output as CriRemoveContainerResponse__Output } from './generated/runtime/v1/RemoveContainerResponse.js';
export type { RemoveImageRequest as CriRemoveImageRequest, RemoveImageRequest__Output as CriRemoveImageRequest__Output } from './generated/runtime/v1/RemoveImageRequest.js';
export type { RemoveImageResponse as CriRemoveImageResponse, RemoveImageResponse__Output as CriRemoveImageResponse__Output } from './generated/runtime/v1/RemoveImageResponse.js';
export type { RemovePodSandboxRequest as CriRemovePodSandboxRequest, RemovePodSandboxRequest__Output as CriRemovePodSandboxRequest__Output } from './generated/runtime/v1/RemovePodSandboxRequest.js';
export type {
  RemovePodSandboxResponse as CriRemovePodSandboxResponse,
  RemovePodSandboxResponse__Output as CriRemovePodSandboxResponse__Output,
} from './generated/runtime/v1/RemovePodSandboxResponse.js';
export type {
  ReopenContainerLogRequest as CriReopenContainerLogRequest,
  ReopenContainerLogRequest__Output as CriReopenContainerLogRequest__Output,
} from './generated/runtime/v1/ReopenContainerLogRequest.js';
export type {
  ReopenContainerLogResponse as CriReopenContainerLogResponse,
  ReopenContainerLogResponse__Output as CriReopenContainerLogResponse__Output,
} from './generated/runtime/v1/ReopenContainerLogResponse.js';
export type { RunPodSandboxRequest as CriRunPodSandboxRequest, RunPodSandboxRequest__Output as CriRunPodSandboxRequest__Output } from './generated/runtime/v1/RunPodSandboxRequest.js';
export type { RunPodSandboxResponse as CriRunPodSandboxResponse, RunPodSandboxResponse__Output as CriRunPodSandboxResponse__Output } from './generated/runtime/v1/RunPodSandboxResponse.js';
export type { RuntimeCondition as CriRuntimeCondition, RuntimeCondition__Output as CriRuntimeCondition__Output } from './generated/runtime/v1/RuntimeCondition.js';
export type { RuntimeConfig as CriRuntimeConfig, RuntimeConfig__Output as CriRuntimeConfig__Output } from './generated/runtime/v1/RuntimeConfig.js';
export type { RuntimeConfigRequest as CriRuntimeConfigRequest, RuntimeConfigRequest__Output as CriRuntimeConfigRequest__Output } from './generated/runtime/v1/RuntimeConfigRequest.js';
export type { RuntimeConfigResponse as CriRuntimeConfigResponse, RuntimeConfigResponse__Output as CriRuntimeConfigResponse__Output } from './generated/runtime/v1/RuntimeConfigResponse.js';
export type { RuntimeFeatures as CriRuntimeFeatures, RuntimeFeatures__Output as CriRuntimeFeatures__Output } from './generated/runtime/v1/RuntimeFeatures.js';
export type { RuntimeHandler as CriRuntimeHandler, RuntimeHandler__Output as CriRuntimeHandler__Output } from './generated/runtime/v1/RuntimeHandler.js';
export type { RuntimeHandlerFeatures as CriRuntimeHandlerFeatures, RuntimeHandlerFeatures__Output as CriRuntimeHandlerFeatures__Output } from './generated/runtime/v1/RuntimeHandlerFeatures.js';
export type { RuntimeStatus as CriRuntimeStatus, RuntimeStatus__Output as CriRuntimeStatus__Output } from './generated/runtime/v1/RuntimeStatus.js';
export type { StartContainerRequest as CriStartContainerRequest, StartContainerRequest__Output as CriStartContainerRequest__Output } from './generated/runtime/v1/StartContainerRequest.js';
export type { StartContainerResponse as CriStartContainerResponse, StartContainerResponse__Output as CriStartContainerResponse__Output } from './generated/runtime/v1/StartContainerResponse.js';
export type { StatusRequest as CriStatusRequest, StatusRequest__Output as CriStatusRequest__Output } from './generated/runtime/v1/StatusRequest.js';
export type { StatusResponse as CriStatusResponse, StatusResponse__Output as CriStatusResponse__Output } from './generated/runtime/v1/StatusResponse.js';
export type { StopContainerRequest as CriStopContainerRequest, StopContainerRequest__Output as CriStopContainerRequest__Output } from './generated/runtime/v1/StopContainerRequest.js';
export type { StopContainerResponse as CriStopContainerResponse, StopContainerResponse__Output as CriStopContainerResponse__Output } from './generated/runtime/v1/StopContainerResponse.js';
export type { StopPodSandboxRequest as CriStopPodSandboxRequest, StopPodSandboxRequest__Output as CriStopPodSandboxRequest__Output } from './generated/runtime/v1/StopPodSandboxRequest.js';
export type { StopPodSandboxResponse as CriStopPodSandboxResponse, StopPodSandboxResponse__Output as CriStopPodSandboxResponse__Output } from './generated/runtime/v1/StopPodSandboxResponse.js';
export type { UInt64Value as CriUInt64Value, UInt64Value__Output as CriUInt64Value__Output } from './generated/runtime/v1/UInt64Value.js';
export type {
  UpdateContainerResourcesRequest as CriUpdateContainerResourcesRequest,
  UpdateContainerResourcesRequest__Output as CriUpdateContainerResourcesRequest__Output,
} from './generated/runtime/v1/UpdateContainerResourcesRequest.js';
export type {
  UpdateContainerResourcesResponse as CriUpdateContainerResourcesResponse,
  UpdateContainerResourcesResponse__Output as CriUpdateContainerResourcesResponse__Output,
} from './generated/runtime/v1/UpdateContainerResourcesResponse.js';
export type {
  UpdateRuntimeConfigRequest as CriUpdateRuntimeConfigRequest,
  UpdateRuntimeConfigRequest__Output as CriUpdateRuntimeConfigRequest__Output,
} from './generated/runtime/v1/UpdateRuntimeConfigRequest.js';
export type {
  UpdateRuntimeConfigResponse as CriUpdateRuntimeConfigResponse,
  UpdateRuntimeConfigResponse__Output as CriUpdateRuntimeConfigResponse__Output,
} from './generated/runtime/v1/UpdateRuntimeConfigResponse.js';
export type { VersionRequest as CriVersionRequest, VersionRequest__Output as CriVersionRequest__Output } from './generated/runtime/v1/VersionRequest.js';
export type { VersionResponse as CriVersionResponse, VersionResponse__Output as CriVersionResponse__Output } from './generated/runtime/v1/VersionResponse.js';
