// Original file: ../../proto/runtime/v1/api.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AttachRequest as _runtime_v1_AttachRequest, AttachRequest__Output as _runtime_v1_AttachRequest__Output } from '../../runtime/v1/AttachRequest.js';
import type { AttachResponse as _runtime_v1_AttachResponse, AttachResponse__Output as _runtime_v1_AttachResponse__Output } from '../../runtime/v1/AttachResponse.js';
import type { ContainerEventResponse as _runtime_v1_ContainerEventResponse, ContainerEventResponse__Output as _runtime_v1_ContainerEventResponse__Output } from '../../runtime/v1/ContainerEventResponse.js';
import type { ContainerStatsRequest as _runtime_v1_ContainerStatsRequest, ContainerStatsRequest__Output as _runtime_v1_ContainerStatsRequest__Output } from '../../runtime/v1/ContainerStatsRequest.js';
import type { ContainerStatsResponse as _runtime_v1_ContainerStatsResponse, ContainerStatsResponse__Output as _runtime_v1_ContainerStatsResponse__Output } from '../../runtime/v1/ContainerStatsResponse.js';
import type { ContainerStatusRequest as _runtime_v1_ContainerStatusRequest, ContainerStatusRequest__Output as _runtime_v1_ContainerStatusRequest__Output } from '../../runtime/v1/ContainerStatusRequest.js';
import type { ContainerStatusResponse as _runtime_v1_ContainerStatusResponse, ContainerStatusResponse__Output as _runtime_v1_ContainerStatusResponse__Output } from '../../runtime/v1/ContainerStatusResponse.js';
import type { CreateContainerRequest as _runtime_v1_CreateContainerRequest, CreateContainerRequest__Output as _runtime_v1_CreateContainerRequest__Output } from '../../runtime/v1/CreateContainerRequest.js';
import type { CreateContainerResponse as _runtime_v1_CreateContainerResponse, CreateContainerResponse__Output as _runtime_v1_CreateContainerResponse__Output } from '../../runtime/v1/CreateContainerResponse.js';
import type { ExecRequest as _runtime_v1_ExecRequest, ExecRequest__Output as _runtime_v1_ExecRequest__Output } from '../../runtime/v1/ExecRequest.js';
import type { ExecResponse as _runtime_v1_ExecResponse, ExecResponse__Output as _runtime_v1_ExecResponse__Output } from '../../runtime/v1/ExecResponse.js';
import type { ExecSyncRequest as _runtime_v1_ExecSyncRequest, ExecSyncRequest__Output as _runtime_v1_ExecSyncRequest__Output } from '../../runtime/v1/ExecSyncRequest.js';
import type { ExecSyncResponse as _runtime_v1_ExecSyncResponse, ExecSyncResponse__Output as _runtime_v1_ExecSyncResponse__Output } from '../../runtime/v1/ExecSyncResponse.js';
import type { GetEventsRequest as _runtime_v1_GetEventsRequest, GetEventsRequest__Output as _runtime_v1_GetEventsRequest__Output } from '../../runtime/v1/GetEventsRequest.js';
import type { ListContainerStatsRequest as _runtime_v1_ListContainerStatsRequest, ListContainerStatsRequest__Output as _runtime_v1_ListContainerStatsRequest__Output } from '../../runtime/v1/ListContainerStatsRequest.js';
import type { ListContainerStatsResponse as _runtime_v1_ListContainerStatsResponse, ListContainerStatsResponse__Output as _runtime_v1_ListContainerStatsResponse__Output } from '../../runtime/v1/ListContainerStatsResponse.js';
import type { ListContainersRequest as _runtime_v1_ListContainersRequest, ListContainersRequest__Output as _runtime_v1_ListContainersRequest__Output } from '../../runtime/v1/ListContainersRequest.js';
import type { ListContainersResponse as _runtime_v1_ListContainersResponse, ListContainersResponse__Output as _runtime_v1_ListContainersResponse__Output } from '../../runtime/v1/ListContainersResponse.js';
import type { ListMetricDescriptorsRequest as _runtime_v1_ListMetricDescriptorsRequest, ListMetricDescriptorsRequest__Output as _runtime_v1_ListMetricDescriptorsRequest__Output } from '../../runtime/v1/ListMetricDescriptorsRequest.js';
import type { ListMetricDescriptorsResponse as _runtime_v1_ListMetricDescriptorsResponse, ListMetricDescriptorsResponse__Output as _runtime_v1_ListMetricDescriptorsResponse__Output } from '../../runtime/v1/ListMetricDescriptorsResponse.js';
import type { ListPodSandboxMetricsRequest as _runtime_v1_ListPodSandboxMetricsRequest, ListPodSandboxMetricsRequest__Output as _runtime_v1_ListPodSandboxMetricsRequest__Output } from '../../runtime/v1/ListPodSandboxMetricsRequest.js';
import type { ListPodSandboxMetricsResponse as _runtime_v1_ListPodSandboxMetricsResponse, ListPodSandboxMetricsResponse__Output as _runtime_v1_ListPodSandboxMetricsResponse__Output } from '../../runtime/v1/ListPodSandboxMetricsResponse.js';
import type { ListPodSandboxRequest as _runtime_v1_ListPodSandboxRequest, ListPodSandboxRequest__Output as _runtime_v1_ListPodSandboxRequest__Output } from '../../runtime/v1/ListPodSandboxRequest.js';
import type { ListPodSandboxResponse as _runtime_v1_ListPodSandboxResponse, ListPodSandboxResponse__Output as _runtime_v1_ListPodSandboxResponse__Output } from '../../runtime/v1/ListPodSandboxResponse.js';
import type { ListPodSandboxStatsRequest as _runtime_v1_ListPodSandboxStatsRequest, ListPodSandboxStatsRequest__Output as _runtime_v1_ListPodSandboxStatsRequest__Output } from '../../runtime/v1/ListPodSandboxStatsRequest.js';
import type { ListPodSandboxStatsResponse as _runtime_v1_ListPodSandboxStatsResponse, ListPodSandboxStatsResponse__Output as _runtime_v1_ListPodSandboxStatsResponse__Output } from '../../runtime/v1/ListPodSandboxStatsResponse.js';
import type { PodSandboxStatsRequest as _runtime_v1_PodSandboxStatsRequest, PodSandboxStatsRequest__Output as _runtime_v1_PodSandboxStatsRequest__Output } from '../../runtime/v1/PodSandboxStatsRequest.js';
import type { PodSandboxStatsResponse as _runtime_v1_PodSandboxStatsResponse, PodSandboxStatsResponse__Output as _runtime_v1_PodSandboxStatsResponse__Output } from '../../runtime/v1/PodSandboxStatsResponse.js';
import type { PodSandboxStatusRequest as _runtime_v1_PodSandboxStatusRequest, PodSandboxStatusRequest__Output as _runtime_v1_PodSandboxStatusRequest__Output } from '../../runtime/v1/PodSandboxStatusRequest.js';
import type { PodSandboxStatusResponse as _runtime_v1_PodSandboxStatusResponse, PodSandboxStatusResponse__Output as _runtime_v1_PodSandboxStatusResponse__Output } from '../../runtime/v1/PodSandboxStatusResponse.js';
import type { PortForwardRequest as _runtime_v1_PortForwardRequest, PortForwardRequest__Output as _runtime_v1_PortForwardRequest__Output } from '../../runtime/v1/PortForwardRequest.js';
import type { PortForwardResponse as _runtime_v1_PortForwardResponse, PortForwardResponse__Output as _runtime_v1_PortForwardResponse__Output } from '../../runtime/v1/PortForwardResponse.js';
import type { RemoveContainerRequest as _runtime_v1_RemoveContainerRequest, RemoveContainerRequest__Output as _runtime_v1_RemoveContainerRequest__Output } from '../../runtime/v1/RemoveContainerRequest.js';
import type { RemoveContainerResponse as _runtime_v1_RemoveContainerResponse, RemoveContainerResponse__Output as _runtime_v1_RemoveContainerResponse__Output } from '../../runtime/v1/RemoveContainerResponse.js';
import type { RemovePodSandboxRequest as _runtime_v1_RemovePodSandboxRequest, RemovePodSandboxRequest__Output as _runtime_v1_RemovePodSandboxRequest__Output } from '../../runtime/v1/RemovePodSandboxRequest.js';
import type { RemovePodSandboxResponse as _runtime_v1_RemovePodSandboxResponse, RemovePodSandboxResponse__Output as _runtime_v1_RemovePodSandboxResponse__Output } from '../../runtime/v1/RemovePodSandboxResponse.js';
import type { ReopenContainerLogRequest as _runtime_v1_ReopenContainerLogRequest, ReopenContainerLogRequest__Output as _runtime_v1_ReopenContainerLogRequest__Output } from '../../runtime/v1/ReopenContainerLogRequest.js';
import type { ReopenContainerLogResponse as _runtime_v1_ReopenContainerLogResponse, ReopenContainerLogResponse__Output as _runtime_v1_ReopenContainerLogResponse__Output } from '../../runtime/v1/ReopenContainerLogResponse.js';
import type { RunPodSandboxRequest as _runtime_v1_RunPodSandboxRequest, RunPodSandboxRequest__Output as _runtime_v1_RunPodSandboxRequest__Output } from '../../runtime/v1/RunPodSandboxRequest.js';
import type { RunPodSandboxResponse as _runtime_v1_RunPodSandboxResponse, RunPodSandboxResponse__Output as _runtime_v1_RunPodSandboxResponse__Output } from '../../runtime/v1/RunPodSandboxResponse.js';
import type { RuntimeConfigRequest as _runtime_v1_RuntimeConfigRequest, RuntimeConfigRequest__Output as _runtime_v1_RuntimeConfigRequest__Output } from '../../runtime/v1/RuntimeConfigRequest.js';
import type { RuntimeConfigResponse as _runtime_v1_RuntimeConfigResponse, RuntimeConfigResponse__Output as _runtime_v1_RuntimeConfigResponse__Output } from '../../runtime/v1/RuntimeConfigResponse.js';
import type { StartContainerRequest as _runtime_v1_StartContainerRequest, StartContainerRequest__Output as _runtime_v1_StartContainerRequest__Output } from '../../runtime/v1/StartContainerRequest.js';
import type { StartContainerResponse as _runtime_v1_StartContainerResponse, StartContainerResponse__Output as _runtime_v1_StartContainerResponse__Output } from '../../runtime/v1/StartContainerResponse.js';
import type { StatusRequest as _runtime_v1_StatusRequest, StatusRequest__Output as _runtime_v1_StatusRequest__Output } from '../../runtime/v1/StatusRequest.js';
import type { StatusResponse as _runtime_v1_StatusResponse, StatusResponse__Output as _runtime_v1_StatusResponse__Output } from '../../runtime/v1/StatusResponse.js';
import type { StopContainerRequest as _runtime_v1_StopContainerRequest, StopContainerRequest__Output as _runtime_v1_StopContainerRequest__Output } from '../../runtime/v1/StopContainerRequest.js';
import type { StopContainerResponse as _runtime_v1_StopContainerResponse, StopContainerResponse__Output as _runtime_v1_StopContainerResponse__Output } from '../../runtime/v1/StopContainerResponse.js';
import type { StopPodSandboxRequest as _runtime_v1_StopPodSandboxRequest, StopPodSandboxRequest__Output as _runtime_v1_StopPodSandboxRequest__Output } from '../../runtime/v1/StopPodSandboxRequest.js';
import type { StopPodSandboxResponse as _runtime_v1_StopPodSandboxResponse, StopPodSandboxResponse__Output as _runtime_v1_StopPodSandboxResponse__Output } from '../../runtime/v1/StopPodSandboxResponse.js';
import type { UpdateContainerResourcesRequest as _runtime_v1_UpdateContainerResourcesRequest, UpdateContainerResourcesRequest__Output as _runtime_v1_UpdateContainerResourcesRequest__Output } from '../../runtime/v1/UpdateContainerResourcesRequest.js';
import type { UpdateContainerResourcesResponse as _runtime_v1_UpdateContainerResourcesResponse, UpdateContainerResourcesResponse__Output as _runtime_v1_UpdateContainerResourcesResponse__Output } from '../../runtime/v1/UpdateContainerResourcesResponse.js';
import type { UpdateRuntimeConfigRequest as _runtime_v1_UpdateRuntimeConfigRequest, UpdateRuntimeConfigRequest__Output as _runtime_v1_UpdateRuntimeConfigRequest__Output } from '../../runtime/v1/UpdateRuntimeConfigRequest.js';
import type { UpdateRuntimeConfigResponse as _runtime_v1_UpdateRuntimeConfigResponse, UpdateRuntimeConfigResponse__Output as _runtime_v1_UpdateRuntimeConfigResponse__Output } from '../../runtime/v1/UpdateRuntimeConfigResponse.js';
import type { VersionRequest as _runtime_v1_VersionRequest, VersionRequest__Output as _runtime_v1_VersionRequest__Output } from '../../runtime/v1/VersionRequest.js';
import type { VersionResponse as _runtime_v1_VersionResponse, VersionResponse__Output as _runtime_v1_VersionResponse__Output } from '../../runtime/v1/VersionResponse.js';

export interface RuntimeServiceClient extends grpc.Client {
  Attach(argument: _runtime_v1_AttachRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_AttachResponse__Output>): grpc.ClientUnaryCall;
  Attach(argument: _runtime_v1_AttachRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_AttachResponse__Output>): grpc.ClientUnaryCall;
  Attach(argument: _runtime_v1_AttachRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_AttachResponse__Output>): grpc.ClientUnaryCall;
  Attach(argument: _runtime_v1_AttachRequest, callback: grpc.requestCallback<_runtime_v1_AttachResponse__Output>): grpc.ClientUnaryCall;
  attach(argument: _runtime_v1_AttachRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_AttachResponse__Output>): grpc.ClientUnaryCall;
  attach(argument: _runtime_v1_AttachRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_AttachResponse__Output>): grpc.ClientUnaryCall;
  attach(argument: _runtime_v1_AttachRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_AttachResponse__Output>): grpc.ClientUnaryCall;
  attach(argument: _runtime_v1_AttachRequest, callback: grpc.requestCallback<_runtime_v1_AttachResponse__Output>): grpc.ClientUnaryCall;
  
  ContainerStats(argument: _runtime_v1_ContainerStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ContainerStats(argument: _runtime_v1_ContainerStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ContainerStats(argument: _runtime_v1_ContainerStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ContainerStats(argument: _runtime_v1_ContainerStatsRequest, callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  containerStats(argument: _runtime_v1_ContainerStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  containerStats(argument: _runtime_v1_ContainerStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  containerStats(argument: _runtime_v1_ContainerStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  containerStats(argument: _runtime_v1_ContainerStatsRequest, callback: grpc.requestCallback<_runtime_v1_ContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  
  ContainerStatus(argument: _runtime_v1_ContainerStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  ContainerStatus(argument: _runtime_v1_ContainerStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  ContainerStatus(argument: _runtime_v1_ContainerStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  ContainerStatus(argument: _runtime_v1_ContainerStatusRequest, callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  containerStatus(argument: _runtime_v1_ContainerStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  containerStatus(argument: _runtime_v1_ContainerStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  containerStatus(argument: _runtime_v1_ContainerStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  containerStatus(argument: _runtime_v1_ContainerStatusRequest, callback: grpc.requestCallback<_runtime_v1_ContainerStatusResponse__Output>): grpc.ClientUnaryCall;
  
  CreateContainer(argument: _runtime_v1_CreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _runtime_v1_CreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _runtime_v1_CreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _runtime_v1_CreateContainerRequest, callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _runtime_v1_CreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _runtime_v1_CreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _runtime_v1_CreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _runtime_v1_CreateContainerRequest, callback: grpc.requestCallback<_runtime_v1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  
  Exec(argument: _runtime_v1_ExecRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _runtime_v1_ExecRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _runtime_v1_ExecRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _runtime_v1_ExecRequest, callback: grpc.requestCallback<_runtime_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _runtime_v1_ExecRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _runtime_v1_ExecRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _runtime_v1_ExecRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _runtime_v1_ExecRequest, callback: grpc.requestCallback<_runtime_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  
  ExecSync(argument: _runtime_v1_ExecSyncRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  ExecSync(argument: _runtime_v1_ExecSyncRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  ExecSync(argument: _runtime_v1_ExecSyncRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  ExecSync(argument: _runtime_v1_ExecSyncRequest, callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  execSync(argument: _runtime_v1_ExecSyncRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  execSync(argument: _runtime_v1_ExecSyncRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  execSync(argument: _runtime_v1_ExecSyncRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  execSync(argument: _runtime_v1_ExecSyncRequest, callback: grpc.requestCallback<_runtime_v1_ExecSyncResponse__Output>): grpc.ClientUnaryCall;
  
  GetContainerEvents(argument: _runtime_v1_GetEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_runtime_v1_ContainerEventResponse__Output>;
  GetContainerEvents(argument: _runtime_v1_GetEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_runtime_v1_ContainerEventResponse__Output>;
  getContainerEvents(argument: _runtime_v1_GetEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_runtime_v1_ContainerEventResponse__Output>;
  getContainerEvents(argument: _runtime_v1_GetEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_runtime_v1_ContainerEventResponse__Output>;
  
  ListContainerStats(argument: _runtime_v1_ListContainerStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerStats(argument: _runtime_v1_ListContainerStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerStats(argument: _runtime_v1_ListContainerStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  ListContainerStats(argument: _runtime_v1_ListContainerStatsRequest, callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  listContainerStats(argument: _runtime_v1_ListContainerStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  listContainerStats(argument: _runtime_v1_ListContainerStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  listContainerStats(argument: _runtime_v1_ListContainerStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  listContainerStats(argument: _runtime_v1_ListContainerStatsRequest, callback: grpc.requestCallback<_runtime_v1_ListContainerStatsResponse__Output>): grpc.ClientUnaryCall;
  
  ListContainers(argument: _runtime_v1_ListContainersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _runtime_v1_ListContainersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _runtime_v1_ListContainersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _runtime_v1_ListContainersRequest, callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _runtime_v1_ListContainersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _runtime_v1_ListContainersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _runtime_v1_ListContainersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _runtime_v1_ListContainersRequest, callback: grpc.requestCallback<_runtime_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  
  ListMetricDescriptors(argument: _runtime_v1_ListMetricDescriptorsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListMetricDescriptorsResponse__Output>): grpc.ClientUnaryCall;
  ListMetricDescriptors(argument: _runtime_v1_ListMetricDescriptorsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListMetricDescriptorsResponse__Output>): grpc.ClientUnaryCall;
  ListMetricDescriptors(argument: _runtime_v1_ListMetricDescriptorsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListMetricDescriptorsResponse__Output>): grpc.ClientUnaryCall;
  ListMetricDescriptors(argument: _runtime_v1_ListMetricDescriptorsRequest, callback: grpc.requestCallback<_runtime_v1_ListMetricDescriptorsResponse__Output>): grpc.ClientUnaryCall;
  listMetricDescriptors(argument: _runtime_v1_ListMetricDescriptorsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListMetricDescriptorsResponse__Output>): grpc.ClientUnaryCall;
  listMetricDescriptors(argument: _runtime_v1_ListMetricDescriptorsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListMetricDescriptorsResponse__Output>): grpc.ClientUnaryCall;
  listMetricDescriptors(argument: _runtime_v1_ListMetricDescriptorsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListMetricDescriptorsResponse__Output>): grpc.ClientUnaryCall;
  listMetricDescriptors(argument: _runtime_v1_ListMetricDescriptorsRequest, callback: grpc.requestCallback<_runtime_v1_ListMetricDescriptorsResponse__Output>): grpc.ClientUnaryCall;
  
  ListPodSandbox(argument: _runtime_v1_ListPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandbox(argument: _runtime_v1_ListPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandbox(argument: _runtime_v1_ListPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandbox(argument: _runtime_v1_ListPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  listPodSandbox(argument: _runtime_v1_ListPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  listPodSandbox(argument: _runtime_v1_ListPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  listPodSandbox(argument: _runtime_v1_ListPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  listPodSandbox(argument: _runtime_v1_ListPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  ListPodSandboxMetrics(argument: _runtime_v1_ListPodSandboxMetricsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxMetricsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxMetrics(argument: _runtime_v1_ListPodSandboxMetricsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxMetricsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxMetrics(argument: _runtime_v1_ListPodSandboxMetricsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxMetricsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxMetrics(argument: _runtime_v1_ListPodSandboxMetricsRequest, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxMetricsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxMetrics(argument: _runtime_v1_ListPodSandboxMetricsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxMetricsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxMetrics(argument: _runtime_v1_ListPodSandboxMetricsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxMetricsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxMetrics(argument: _runtime_v1_ListPodSandboxMetricsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxMetricsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxMetrics(argument: _runtime_v1_ListPodSandboxMetricsRequest, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxMetricsResponse__Output>): grpc.ClientUnaryCall;
  
  ListPodSandboxStats(argument: _runtime_v1_ListPodSandboxStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxStats(argument: _runtime_v1_ListPodSandboxStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxStats(argument: _runtime_v1_ListPodSandboxStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  ListPodSandboxStats(argument: _runtime_v1_ListPodSandboxStatsRequest, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxStats(argument: _runtime_v1_ListPodSandboxStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxStats(argument: _runtime_v1_ListPodSandboxStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxStats(argument: _runtime_v1_ListPodSandboxStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  listPodSandboxStats(argument: _runtime_v1_ListPodSandboxStatsRequest, callback: grpc.requestCallback<_runtime_v1_ListPodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  
  PodSandboxStats(argument: _runtime_v1_PodSandboxStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStats(argument: _runtime_v1_PodSandboxStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStats(argument: _runtime_v1_PodSandboxStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStats(argument: _runtime_v1_PodSandboxStatsRequest, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStats(argument: _runtime_v1_PodSandboxStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStats(argument: _runtime_v1_PodSandboxStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStats(argument: _runtime_v1_PodSandboxStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStats(argument: _runtime_v1_PodSandboxStatsRequest, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatsResponse__Output>): grpc.ClientUnaryCall;
  
  PodSandboxStatus(argument: _runtime_v1_PodSandboxStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStatus(argument: _runtime_v1_PodSandboxStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStatus(argument: _runtime_v1_PodSandboxStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  PodSandboxStatus(argument: _runtime_v1_PodSandboxStatusRequest, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStatus(argument: _runtime_v1_PodSandboxStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStatus(argument: _runtime_v1_PodSandboxStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStatus(argument: _runtime_v1_PodSandboxStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  podSandboxStatus(argument: _runtime_v1_PodSandboxStatusRequest, callback: grpc.requestCallback<_runtime_v1_PodSandboxStatusResponse__Output>): grpc.ClientUnaryCall;
  
  PortForward(argument: _runtime_v1_PortForwardRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  PortForward(argument: _runtime_v1_PortForwardRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  PortForward(argument: _runtime_v1_PortForwardRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  PortForward(argument: _runtime_v1_PortForwardRequest, callback: grpc.requestCallback<_runtime_v1_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  portForward(argument: _runtime_v1_PortForwardRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  portForward(argument: _runtime_v1_PortForwardRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  portForward(argument: _runtime_v1_PortForwardRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  portForward(argument: _runtime_v1_PortForwardRequest, callback: grpc.requestCallback<_runtime_v1_PortForwardResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveContainer(argument: _runtime_v1_RemoveContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _runtime_v1_RemoveContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _runtime_v1_RemoveContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _runtime_v1_RemoveContainerRequest, callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _runtime_v1_RemoveContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _runtime_v1_RemoveContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _runtime_v1_RemoveContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _runtime_v1_RemoveContainerRequest, callback: grpc.requestCallback<_runtime_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  
  RemovePodSandbox(argument: _runtime_v1_RemovePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _runtime_v1_RemovePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _runtime_v1_RemovePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _runtime_v1_RemovePodSandboxRequest, callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _runtime_v1_RemovePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _runtime_v1_RemovePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _runtime_v1_RemovePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _runtime_v1_RemovePodSandboxRequest, callback: grpc.requestCallback<_runtime_v1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  ReopenContainerLog(argument: _runtime_v1_ReopenContainerLogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  ReopenContainerLog(argument: _runtime_v1_ReopenContainerLogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  ReopenContainerLog(argument: _runtime_v1_ReopenContainerLogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  ReopenContainerLog(argument: _runtime_v1_ReopenContainerLogRequest, callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  reopenContainerLog(argument: _runtime_v1_ReopenContainerLogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  reopenContainerLog(argument: _runtime_v1_ReopenContainerLogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  reopenContainerLog(argument: _runtime_v1_ReopenContainerLogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  reopenContainerLog(argument: _runtime_v1_ReopenContainerLogRequest, callback: grpc.requestCallback<_runtime_v1_ReopenContainerLogResponse__Output>): grpc.ClientUnaryCall;
  
  RunPodSandbox(argument: _runtime_v1_RunPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _runtime_v1_RunPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _runtime_v1_RunPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _runtime_v1_RunPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _runtime_v1_RunPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _runtime_v1_RunPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _runtime_v1_RunPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _runtime_v1_RunPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  RuntimeConfig(argument: _runtime_v1_RuntimeConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  RuntimeConfig(argument: _runtime_v1_RuntimeConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  RuntimeConfig(argument: _runtime_v1_RuntimeConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  RuntimeConfig(argument: _runtime_v1_RuntimeConfigRequest, callback: grpc.requestCallback<_runtime_v1_RuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  runtimeConfig(argument: _runtime_v1_RuntimeConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  runtimeConfig(argument: _runtime_v1_RuntimeConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  runtimeConfig(argument: _runtime_v1_RuntimeConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  runtimeConfig(argument: _runtime_v1_RuntimeConfigRequest, callback: grpc.requestCallback<_runtime_v1_RuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  
  StartContainer(argument: _runtime_v1_StartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _runtime_v1_StartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _runtime_v1_StartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _runtime_v1_StartContainerRequest, callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _runtime_v1_StartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _runtime_v1_StartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _runtime_v1_StartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _runtime_v1_StartContainerRequest, callback: grpc.requestCallback<_runtime_v1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  
  Status(argument: _runtime_v1_StatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>): grpc.ClientUnaryCall;
  Status(argument: _runtime_v1_StatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>): grpc.ClientUnaryCall;
  Status(argument: _runtime_v1_StatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>): grpc.ClientUnaryCall;
  Status(argument: _runtime_v1_StatusRequest, callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>): grpc.ClientUnaryCall;
  status(argument: _runtime_v1_StatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>): grpc.ClientUnaryCall;
  status(argument: _runtime_v1_StatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>): grpc.ClientUnaryCall;
  status(argument: _runtime_v1_StatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>): grpc.ClientUnaryCall;
  status(argument: _runtime_v1_StatusRequest, callback: grpc.requestCallback<_runtime_v1_StatusResponse__Output>): grpc.ClientUnaryCall;
  
  StopContainer(argument: _runtime_v1_StopContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _runtime_v1_StopContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _runtime_v1_StopContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _runtime_v1_StopContainerRequest, callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _runtime_v1_StopContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _runtime_v1_StopContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _runtime_v1_StopContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _runtime_v1_StopContainerRequest, callback: grpc.requestCallback<_runtime_v1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  
  StopPodSandbox(argument: _runtime_v1_StopPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _runtime_v1_StopPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _runtime_v1_StopPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _runtime_v1_StopPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _runtime_v1_StopPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _runtime_v1_StopPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _runtime_v1_StopPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _runtime_v1_StopPodSandboxRequest, callback: grpc.requestCallback<_runtime_v1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateContainerResources(argument: _runtime_v1_UpdateContainerResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerResources(argument: _runtime_v1_UpdateContainerResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerResources(argument: _runtime_v1_UpdateContainerResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainerResources(argument: _runtime_v1_UpdateContainerResourcesRequest, callback: grpc.requestCallback<_runtime_v1_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  updateContainerResources(argument: _runtime_v1_UpdateContainerResourcesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  updateContainerResources(argument: _runtime_v1_UpdateContainerResourcesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  updateContainerResources(argument: _runtime_v1_UpdateContainerResourcesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  updateContainerResources(argument: _runtime_v1_UpdateContainerResourcesRequest, callback: grpc.requestCallback<_runtime_v1_UpdateContainerResourcesResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateRuntimeConfig(argument: _runtime_v1_UpdateRuntimeConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  UpdateRuntimeConfig(argument: _runtime_v1_UpdateRuntimeConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  UpdateRuntimeConfig(argument: _runtime_v1_UpdateRuntimeConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  UpdateRuntimeConfig(argument: _runtime_v1_UpdateRuntimeConfigRequest, callback: grpc.requestCallback<_runtime_v1_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  updateRuntimeConfig(argument: _runtime_v1_UpdateRuntimeConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  updateRuntimeConfig(argument: _runtime_v1_UpdateRuntimeConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  updateRuntimeConfig(argument: _runtime_v1_UpdateRuntimeConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  updateRuntimeConfig(argument: _runtime_v1_UpdateRuntimeConfigRequest, callback: grpc.requestCallback<_runtime_v1_UpdateRuntimeConfigResponse__Output>): grpc.ClientUnaryCall;
  
  Version(argument: _runtime_v1_VersionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>): grpc.ClientUnaryCall;
  Version(argument: _runtime_v1_VersionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>): grpc.ClientUnaryCall;
  Version(argument: _runtime_v1_VersionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>): grpc.ClientUnaryCall;
  Version(argument: _runtime_v1_VersionRequest, callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>): grpc.ClientUnaryCall;
  version(argument: _runtime_v1_VersionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>): grpc.ClientUnaryCall;
  version(argument: _runtime_v1_VersionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>): grpc.ClientUnaryCall;
  version(argument: _runtime_v1_VersionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>): grpc.ClientUnaryCall;
  version(argument: _runtime_v1_VersionRequest, callback: grpc.requestCallback<_runtime_v1_VersionResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RuntimeServiceHandlers extends grpc.UntypedServiceImplementation {
  Attach: grpc.handleUnaryCall<_runtime_v1_AttachRequest__Output, _runtime_v1_AttachResponse>;
  
  ContainerStats: grpc.handleUnaryCall<_runtime_v1_ContainerStatsRequest__Output, _runtime_v1_ContainerStatsResponse>;
  
  ContainerStatus: grpc.handleUnaryCall<_runtime_v1_ContainerStatusRequest__Output, _runtime_v1_ContainerStatusResponse>;
  
  CreateContainer: grpc.handleUnaryCall<_runtime_v1_CreateContainerRequest__Output, _runtime_v1_CreateContainerResponse>;
  
  Exec: grpc.handleUnaryCall<_runtime_v1_ExecRequest__Output, _runtime_v1_ExecResponse>;
  
  ExecSync: grpc.handleUnaryCall<_runtime_v1_ExecSyncRequest__Output, _runtime_v1_ExecSyncResponse>;
  
  GetContainerEvents: grpc.handleServerStreamingCall<_runtime_v1_GetEventsRequest__Output, _runtime_v1_ContainerEventResponse>;
  
  ListContainerStats: grpc.handleUnaryCall<_runtime_v1_ListContainerStatsRequest__Output, _runtime_v1_ListContainerStatsResponse>;
  
  ListContainers: grpc.handleUnaryCall<_runtime_v1_ListContainersRequest__Output, _runtime_v1_ListContainersResponse>;
  
  ListMetricDescriptors: grpc.handleUnaryCall<_runtime_v1_ListMetricDescriptorsRequest__Output, _runtime_v1_ListMetricDescriptorsResponse>;
  
  ListPodSandbox: grpc.handleUnaryCall<_runtime_v1_ListPodSandboxRequest__Output, _runtime_v1_ListPodSandboxResponse>;
  
  ListPodSandboxMetrics: grpc.handleUnaryCall<_runtime_v1_ListPodSandboxMetricsRequest__Output, _runtime_v1_ListPodSandboxMetricsResponse>;
  
  ListPodSandboxStats: grpc.handleUnaryCall<_runtime_v1_ListPodSandboxStatsRequest__Output, _runtime_v1_ListPodSandboxStatsResponse>;
  
  PodSandboxStats: grpc.handleUnaryCall<_runtime_v1_PodSandboxStatsRequest__Output, _runtime_v1_PodSandboxStatsResponse>;
  
  PodSandboxStatus: grpc.handleUnaryCall<_runtime_v1_PodSandboxStatusRequest__Output, _runtime_v1_PodSandboxStatusResponse>;
  
  PortForward: grpc.handleUnaryCall<_runtime_v1_PortForwardRequest__Output, _runtime_v1_PortForwardResponse>;
  
  RemoveContainer: grpc.handleUnaryCall<_runtime_v1_RemoveContainerRequest__Output, _runtime_v1_RemoveContainerResponse>;
  
  RemovePodSandbox: grpc.handleUnaryCall<_runtime_v1_RemovePodSandboxRequest__Output, _runtime_v1_RemovePodSandboxResponse>;
  
  ReopenContainerLog: grpc.handleUnaryCall<_runtime_v1_ReopenContainerLogRequest__Output, _runtime_v1_ReopenContainerLogResponse>;
  
  RunPodSandbox: grpc.handleUnaryCall<_runtime_v1_RunPodSandboxRequest__Output, _runtime_v1_RunPodSandboxResponse>;
  
  RuntimeConfig: grpc.handleUnaryCall<_runtime_v1_RuntimeConfigRequest__Output, _runtime_v1_RuntimeConfigResponse>;
  
  StartContainer: grpc.handleUnaryCall<_runtime_v1_StartContainerRequest__Output, _runtime_v1_StartContainerResponse>;
  
  Status: grpc.handleUnaryCall<_runtime_v1_StatusRequest__Output, _runtime_v1_StatusResponse>;
  
  StopContainer: grpc.handleUnaryCall<_runtime_v1_StopContainerRequest__Output, _runtime_v1_StopContainerResponse>;
  
  StopPodSandbox: grpc.handleUnaryCall<_runtime_v1_StopPodSandboxRequest__Output, _runtime_v1_StopPodSandboxResponse>;
  
  UpdateContainerResources: grpc.handleUnaryCall<_runtime_v1_UpdateContainerResourcesRequest__Output, _runtime_v1_UpdateContainerResourcesResponse>;
  
  UpdateRuntimeConfig: grpc.handleUnaryCall<_runtime_v1_UpdateRuntimeConfigRequest__Output, _runtime_v1_UpdateRuntimeConfigResponse>;
  
  Version: grpc.handleUnaryCall<_runtime_v1_VersionRequest__Output, _runtime_v1_VersionResponse>;
  
}

export interface RuntimeServiceDefinition extends grpc.ServiceDefinition {
  Attach: MethodDefinition<_runtime_v1_AttachRequest, _runtime_v1_AttachResponse, _runtime_v1_AttachRequest__Output, _runtime_v1_AttachResponse__Output>
  ContainerStats: MethodDefinition<_runtime_v1_ContainerStatsRequest, _runtime_v1_ContainerStatsResponse, _runtime_v1_ContainerStatsRequest__Output, _runtime_v1_ContainerStatsResponse__Output>
  ContainerStatus: MethodDefinition<_runtime_v1_ContainerStatusRequest, _runtime_v1_ContainerStatusResponse, _runtime_v1_ContainerStatusRequest__Output, _runtime_v1_ContainerStatusResponse__Output>
  CreateContainer: MethodDefinition<_runtime_v1_CreateContainerRequest, _runtime_v1_CreateContainerResponse, _runtime_v1_CreateContainerRequest__Output, _runtime_v1_CreateContainerResponse__Output>
  Exec: MethodDefinition<_runtime_v1_ExecRequest, _runtime_v1_ExecResponse, _runtime_v1_ExecRequest__Output, _runtime_v1_ExecResponse__Output>
  ExecSync: MethodDefinition<_runtime_v1_ExecSyncRequest, _runtime_v1_ExecSyncResponse, _runtime_v1_ExecSyncRequest__Output, _runtime_v1_ExecSyncResponse__Output>
  GetContainerEvents: MethodDefinition<_runtime_v1_GetEventsRequest, _runtime_v1_ContainerEventResponse, _runtime_v1_GetEventsRequest__Output, _runtime_v1_ContainerEventResponse__Output>
  ListContainerStats: MethodDefinition<_runtime_v1_ListContainerStatsRequest, _runtime_v1_ListContainerStatsResponse, _runtime_v1_ListContainerStatsRequest__Output, _runtime_v1_ListContainerStatsResponse__Output>
  ListContainers: MethodDefinition<_runtime_v1_ListContainersRequest, _runtime_v1_ListContainersResponse, _runtime_v1_ListContainersRequest__Output, _runtime_v1_ListContainersResponse__Output>
  ListMetricDescriptors: MethodDefinition<_runtime_v1_ListMetricDescriptorsRequest, _runtime_v1_ListMetricDescriptorsResponse, _runtime_v1_ListMetricDescriptorsRequest__Output, _runtime_v1_ListMetricDescriptorsResponse__Output>
  ListPodSandbox: MethodDefinition<_runtime_v1_ListPodSandboxRequest, _runtime_v1_ListPodSandboxResponse, _runtime_v1_ListPodSandboxRequest__Output, _runtime_v1_ListPodSandboxResponse__Output>
  ListPodSandboxMetrics: MethodDefinition<_runtime_v1_ListPodSandboxMetricsRequest, _runtime_v1_ListPodSandboxMetricsResponse, _runtime_v1_ListPodSandboxMetricsRequest__Output, _runtime_v1_ListPodSandboxMetricsResponse__Output>
  ListPodSandboxStats: MethodDefinition<_runtime_v1_ListPodSandboxStatsRequest, _runtime_v1_ListPodSandboxStatsResponse, _runtime_v1_ListPodSandboxStatsRequest__Output, _runtime_v1_ListPodSandboxStatsResponse__Output>
  PodSandboxStats: MethodDefinition<_runtime_v1_PodSandboxStatsRequest, _runtime_v1_PodSandboxStatsResponse, _runtime_v1_PodSandboxStatsRequest__Output, _runtime_v1_PodSandboxStatsResponse__Output>
  PodSandboxStatus: MethodDefinition<_runtime_v1_PodSandboxStatusRequest, _runtime_v1_PodSandboxStatusResponse, _runtime_v1_PodSandboxStatusRequest__Output, _runtime_v1_PodSandboxStatusResponse__Output>
  PortForward: MethodDefinition<_runtime_v1_PortForwardRequest, _runtime_v1_PortForwardResponse, _runtime_v1_PortForwardRequest__Output, _runtime_v1_PortForwardResponse__Output>
  RemoveContainer: MethodDefinition<_runtime_v1_RemoveContainerRequest, _runtime_v1_RemoveContainerResponse, _runtime_v1_RemoveContainerRequest__Output, _runtime_v1_RemoveContainerResponse__Output>
  RemovePodSandbox: MethodDefinition<_runtime_v1_RemovePodSandboxRequest, _runtime_v1_RemovePodSandboxResponse, _runtime_v1_RemovePodSandboxRequest__Output, _runtime_v1_RemovePodSandboxResponse__Output>
  ReopenContainerLog: MethodDefinition<_runtime_v1_ReopenContainerLogRequest, _runtime_v1_ReopenContainerLogResponse, _runtime_v1_ReopenContainerLogRequest__Output, _runtime_v1_ReopenContainerLogResponse__Output>
  RunPodSandbox: MethodDefinition<_runtime_v1_RunPodSandboxRequest, _runtime_v1_RunPodSandboxResponse, _runtime_v1_RunPodSandboxRequest__Output, _runtime_v1_RunPodSandboxResponse__Output>
  RuntimeConfig: MethodDefinition<_runtime_v1_RuntimeConfigRequest, _runtime_v1_RuntimeConfigResponse, _runtime_v1_RuntimeConfigRequest__Output, _runtime_v1_RuntimeConfigResponse__Output>
  StartContainer: MethodDefinition<_runtime_v1_StartContainerRequest, _runtime_v1_StartContainerResponse, _runtime_v1_StartContainerRequest__Output, _runtime_v1_StartContainerResponse__Output>
  Status: MethodDefinition<_runtime_v1_StatusRequest, _runtime_v1_StatusResponse, _runtime_v1_StatusRequest__Output, _runtime_v1_StatusResponse__Output>
  StopContainer: MethodDefinition<_runtime_v1_StopContainerRequest, _runtime_v1_StopContainerResponse, _runtime_v1_StopContainerRequest__Output, _runtime_v1_StopContainerResponse__Output>
  StopPodSandbox: MethodDefinition<_runtime_v1_StopPodSandboxRequest, _runtime_v1_StopPodSandboxResponse, _runtime_v1_StopPodSandboxRequest__Output, _runtime_v1_StopPodSandboxResponse__Output>
  UpdateContainerResources: MethodDefinition<_runtime_v1_UpdateContainerResourcesRequest, _runtime_v1_UpdateContainerResourcesResponse, _runtime_v1_UpdateContainerResourcesRequest__Output, _runtime_v1_UpdateContainerResourcesResponse__Output>
  UpdateRuntimeConfig: MethodDefinition<_runtime_v1_UpdateRuntimeConfigRequest, _runtime_v1_UpdateRuntimeConfigResponse, _runtime_v1_UpdateRuntimeConfigRequest__Output, _runtime_v1_UpdateRuntimeConfigResponse__Output>
  Version: MethodDefinition<_runtime_v1_VersionRequest, _runtime_v1_VersionResponse, _runtime_v1_VersionRequest__Output, _runtime_v1_VersionResponse__Output>
}
