// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BindRequest as _kubelab_apiserver_v1_BindRequest, BindRequest__Output as _kubelab_apiserver_v1_BindRequest__Output } from '../../../kubelab/apiserver/v1/BindRequest.js';
import type { BindResponse as _kubelab_apiserver_v1_BindResponse, BindResponse__Output as _kubelab_apiserver_v1_BindResponse__Output } from '../../../kubelab/apiserver/v1/BindResponse.js';
import type { CreateRequest as _kubelab_apiserver_v1_CreateRequest, CreateRequest__Output as _kubelab_apiserver_v1_CreateRequest__Output } from '../../../kubelab/apiserver/v1/CreateRequest.js';
import type { CreateStreamRequest as _kubelab_apiserver_v1_CreateStreamRequest, CreateStreamRequest__Output as _kubelab_apiserver_v1_CreateStreamRequest__Output } from '../../../kubelab/apiserver/v1/CreateStreamRequest.js';
import type { CreateStreamResponse as _kubelab_apiserver_v1_CreateStreamResponse, CreateStreamResponse__Output as _kubelab_apiserver_v1_CreateStreamResponse__Output } from '../../../kubelab/apiserver/v1/CreateStreamResponse.js';
import type { CreateTokenRequest as _kubelab_apiserver_v1_CreateTokenRequest, CreateTokenRequest__Output as _kubelab_apiserver_v1_CreateTokenRequest__Output } from '../../../kubelab/apiserver/v1/CreateTokenRequest.js';
import type { DeleteRequest as _kubelab_apiserver_v1_DeleteRequest, DeleteRequest__Output as _kubelab_apiserver_v1_DeleteRequest__Output } from '../../../kubelab/apiserver/v1/DeleteRequest.js';
import type { DeleteResponse as _kubelab_apiserver_v1_DeleteResponse, DeleteResponse__Output as _kubelab_apiserver_v1_DeleteResponse__Output } from '../../../kubelab/apiserver/v1/DeleteResponse.js';
import type { GetRequest as _kubelab_apiserver_v1_GetRequest, GetRequest__Output as _kubelab_apiserver_v1_GetRequest__Output } from '../../../kubelab/apiserver/v1/GetRequest.js';
import type { ListRequest as _kubelab_apiserver_v1_ListRequest, ListRequest__Output as _kubelab_apiserver_v1_ListRequest__Output } from '../../../kubelab/apiserver/v1/ListRequest.js';
import type { Object as _kubelab_apiserver_v1_Object, Object__Output as _kubelab_apiserver_v1_Object__Output } from '../../../kubelab/apiserver/v1/Object.js';
import type { ObjectList as _kubelab_apiserver_v1_ObjectList, ObjectList__Output as _kubelab_apiserver_v1_ObjectList__Output } from '../../../kubelab/apiserver/v1/ObjectList.js';
import type { PatchRequest as _kubelab_apiserver_v1_PatchRequest, PatchRequest__Output as _kubelab_apiserver_v1_PatchRequest__Output } from '../../../kubelab/apiserver/v1/PatchRequest.js';
import type { UpdateRequest as _kubelab_apiserver_v1_UpdateRequest, UpdateRequest__Output as _kubelab_apiserver_v1_UpdateRequest__Output } from '../../../kubelab/apiserver/v1/UpdateRequest.js';
import type { WatchEvent as _kubelab_apiserver_v1_WatchEvent, WatchEvent__Output as _kubelab_apiserver_v1_WatchEvent__Output } from '../../../kubelab/apiserver/v1/WatchEvent.js';
import type { WatchRequest as _kubelab_apiserver_v1_WatchRequest, WatchRequest__Output as _kubelab_apiserver_v1_WatchRequest__Output } from '../../../kubelab/apiserver/v1/WatchRequest.js';

export interface ResourceServiceClient extends grpc.Client {
  Bind(argument: _kubelab_apiserver_v1_BindRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_BindResponse__Output>): grpc.ClientUnaryCall;
  Bind(argument: _kubelab_apiserver_v1_BindRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_BindResponse__Output>): grpc.ClientUnaryCall;
  Bind(argument: _kubelab_apiserver_v1_BindRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_BindResponse__Output>): grpc.ClientUnaryCall;
  Bind(argument: _kubelab_apiserver_v1_BindRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_BindResponse__Output>): grpc.ClientUnaryCall;
  bind(argument: _kubelab_apiserver_v1_BindRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_BindResponse__Output>): grpc.ClientUnaryCall;
  bind(argument: _kubelab_apiserver_v1_BindRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_BindResponse__Output>): grpc.ClientUnaryCall;
  bind(argument: _kubelab_apiserver_v1_BindRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_BindResponse__Output>): grpc.ClientUnaryCall;
  bind(argument: _kubelab_apiserver_v1_BindRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_BindResponse__Output>): grpc.ClientUnaryCall;
  
  Create(argument: _kubelab_apiserver_v1_CreateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Create(argument: _kubelab_apiserver_v1_CreateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Create(argument: _kubelab_apiserver_v1_CreateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Create(argument: _kubelab_apiserver_v1_CreateRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  create(argument: _kubelab_apiserver_v1_CreateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  create(argument: _kubelab_apiserver_v1_CreateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  create(argument: _kubelab_apiserver_v1_CreateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  create(argument: _kubelab_apiserver_v1_CreateRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  
  CreateStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_kubelab_apiserver_v1_CreateStreamRequest, _kubelab_apiserver_v1_CreateStreamResponse__Output>;
  CreateStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_kubelab_apiserver_v1_CreateStreamRequest, _kubelab_apiserver_v1_CreateStreamResponse__Output>;
  createStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_kubelab_apiserver_v1_CreateStreamRequest, _kubelab_apiserver_v1_CreateStreamResponse__Output>;
  createStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_kubelab_apiserver_v1_CreateStreamRequest, _kubelab_apiserver_v1_CreateStreamResponse__Output>;
  
  CreateToken(argument: _kubelab_apiserver_v1_CreateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  CreateToken(argument: _kubelab_apiserver_v1_CreateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  CreateToken(argument: _kubelab_apiserver_v1_CreateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  CreateToken(argument: _kubelab_apiserver_v1_CreateTokenRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  createToken(argument: _kubelab_apiserver_v1_CreateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  createToken(argument: _kubelab_apiserver_v1_CreateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  createToken(argument: _kubelab_apiserver_v1_CreateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  createToken(argument: _kubelab_apiserver_v1_CreateTokenRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  
  Delete(argument: _kubelab_apiserver_v1_DeleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _kubelab_apiserver_v1_DeleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _kubelab_apiserver_v1_DeleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  Delete(argument: _kubelab_apiserver_v1_DeleteRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _kubelab_apiserver_v1_DeleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _kubelab_apiserver_v1_DeleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _kubelab_apiserver_v1_DeleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  delete(argument: _kubelab_apiserver_v1_DeleteRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_DeleteResponse__Output>): grpc.ClientUnaryCall;
  
  Get(argument: _kubelab_apiserver_v1_GetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Get(argument: _kubelab_apiserver_v1_GetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Get(argument: _kubelab_apiserver_v1_GetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Get(argument: _kubelab_apiserver_v1_GetRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  get(argument: _kubelab_apiserver_v1_GetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  get(argument: _kubelab_apiserver_v1_GetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  get(argument: _kubelab_apiserver_v1_GetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  get(argument: _kubelab_apiserver_v1_GetRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  
  List(argument: _kubelab_apiserver_v1_ListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_ObjectList__Output>): grpc.ClientUnaryCall;
  List(argument: _kubelab_apiserver_v1_ListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_ObjectList__Output>): grpc.ClientUnaryCall;
  List(argument: _kubelab_apiserver_v1_ListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_ObjectList__Output>): grpc.ClientUnaryCall;
  List(argument: _kubelab_apiserver_v1_ListRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_ObjectList__Output>): grpc.ClientUnaryCall;
  list(argument: _kubelab_apiserver_v1_ListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_ObjectList__Output>): grpc.ClientUnaryCall;
  list(argument: _kubelab_apiserver_v1_ListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_ObjectList__Output>): grpc.ClientUnaryCall;
  list(argument: _kubelab_apiserver_v1_ListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_ObjectList__Output>): grpc.ClientUnaryCall;
  list(argument: _kubelab_apiserver_v1_ListRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_ObjectList__Output>): grpc.ClientUnaryCall;
  
  Patch(argument: _kubelab_apiserver_v1_PatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Patch(argument: _kubelab_apiserver_v1_PatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Patch(argument: _kubelab_apiserver_v1_PatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Patch(argument: _kubelab_apiserver_v1_PatchRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  patch(argument: _kubelab_apiserver_v1_PatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  patch(argument: _kubelab_apiserver_v1_PatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  patch(argument: _kubelab_apiserver_v1_PatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  patch(argument: _kubelab_apiserver_v1_PatchRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  
  Update(argument: _kubelab_apiserver_v1_UpdateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Update(argument: _kubelab_apiserver_v1_UpdateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Update(argument: _kubelab_apiserver_v1_UpdateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  Update(argument: _kubelab_apiserver_v1_UpdateRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  update(argument: _kubelab_apiserver_v1_UpdateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  update(argument: _kubelab_apiserver_v1_UpdateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  update(argument: _kubelab_apiserver_v1_UpdateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  update(argument: _kubelab_apiserver_v1_UpdateRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  
  UpdateStatus(argument: _kubelab_apiserver_v1_UpdateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  UpdateStatus(argument: _kubelab_apiserver_v1_UpdateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  UpdateStatus(argument: _kubelab_apiserver_v1_UpdateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  UpdateStatus(argument: _kubelab_apiserver_v1_UpdateRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  updateStatus(argument: _kubelab_apiserver_v1_UpdateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  updateStatus(argument: _kubelab_apiserver_v1_UpdateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  updateStatus(argument: _kubelab_apiserver_v1_UpdateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  updateStatus(argument: _kubelab_apiserver_v1_UpdateRequest, callback: grpc.requestCallback<_kubelab_apiserver_v1_Object__Output>): grpc.ClientUnaryCall;
  
  Watch(argument: _kubelab_apiserver_v1_WatchRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_kubelab_apiserver_v1_WatchEvent__Output>;
  Watch(argument: _kubelab_apiserver_v1_WatchRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_kubelab_apiserver_v1_WatchEvent__Output>;
  watch(argument: _kubelab_apiserver_v1_WatchRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_kubelab_apiserver_v1_WatchEvent__Output>;
  watch(argument: _kubelab_apiserver_v1_WatchRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_kubelab_apiserver_v1_WatchEvent__Output>;
  
}

export interface ResourceServiceHandlers extends grpc.UntypedServiceImplementation {
  Bind: grpc.handleUnaryCall<_kubelab_apiserver_v1_BindRequest__Output, _kubelab_apiserver_v1_BindResponse>;
  
  Create: grpc.handleUnaryCall<_kubelab_apiserver_v1_CreateRequest__Output, _kubelab_apiserver_v1_Object>;
  
  CreateStream: grpc.handleBidiStreamingCall<_kubelab_apiserver_v1_CreateStreamRequest__Output, _kubelab_apiserver_v1_CreateStreamResponse>;
  
  CreateToken: grpc.handleUnaryCall<_kubelab_apiserver_v1_CreateTokenRequest__Output, _kubelab_apiserver_v1_Object>;
  
  Delete: grpc.handleUnaryCall<_kubelab_apiserver_v1_DeleteRequest__Output, _kubelab_apiserver_v1_DeleteResponse>;
  
  Get: grpc.handleUnaryCall<_kubelab_apiserver_v1_GetRequest__Output, _kubelab_apiserver_v1_Object>;
  
  List: grpc.handleUnaryCall<_kubelab_apiserver_v1_ListRequest__Output, _kubelab_apiserver_v1_ObjectList>;
  
  Patch: grpc.handleUnaryCall<_kubelab_apiserver_v1_PatchRequest__Output, _kubelab_apiserver_v1_Object>;
  
  Update: grpc.handleUnaryCall<_kubelab_apiserver_v1_UpdateRequest__Output, _kubelab_apiserver_v1_Object>;
  
  UpdateStatus: grpc.handleUnaryCall<_kubelab_apiserver_v1_UpdateRequest__Output, _kubelab_apiserver_v1_Object>;
  
  Watch: grpc.handleServerStreamingCall<_kubelab_apiserver_v1_WatchRequest__Output, _kubelab_apiserver_v1_WatchEvent>;
  
}

export interface ResourceServiceDefinition extends grpc.ServiceDefinition {
  Bind: MethodDefinition<_kubelab_apiserver_v1_BindRequest, _kubelab_apiserver_v1_BindResponse, _kubelab_apiserver_v1_BindRequest__Output, _kubelab_apiserver_v1_BindResponse__Output>
  Create: MethodDefinition<_kubelab_apiserver_v1_CreateRequest, _kubelab_apiserver_v1_Object, _kubelab_apiserver_v1_CreateRequest__Output, _kubelab_apiserver_v1_Object__Output>
  CreateStream: MethodDefinition<_kubelab_apiserver_v1_CreateStreamRequest, _kubelab_apiserver_v1_CreateStreamResponse, _kubelab_apiserver_v1_CreateStreamRequest__Output, _kubelab_apiserver_v1_CreateStreamResponse__Output>
  CreateToken: MethodDefinition<_kubelab_apiserver_v1_CreateTokenRequest, _kubelab_apiserver_v1_Object, _kubelab_apiserver_v1_CreateTokenRequest__Output, _kubelab_apiserver_v1_Object__Output>
  Delete: MethodDefinition<_kubelab_apiserver_v1_DeleteRequest, _kubelab_apiserver_v1_DeleteResponse, _kubelab_apiserver_v1_DeleteRequest__Output, _kubelab_apiserver_v1_DeleteResponse__Output>
  Get: MethodDefinition<_kubelab_apiserver_v1_GetRequest, _kubelab_apiserver_v1_Object, _kubelab_apiserver_v1_GetRequest__Output, _kubelab_apiserver_v1_Object__Output>
  List: MethodDefinition<_kubelab_apiserver_v1_ListRequest, _kubelab_apiserver_v1_ObjectList, _kubelab_apiserver_v1_ListRequest__Output, _kubelab_apiserver_v1_ObjectList__Output>
  Patch: MethodDefinition<_kubelab_apiserver_v1_PatchRequest, _kubelab_apiserver_v1_Object, _kubelab_apiserver_v1_PatchRequest__Output, _kubelab_apiserver_v1_Object__Output>
  Update: MethodDefinition<_kubelab_apiserver_v1_UpdateRequest, _kubelab_apiserver_v1_Object, _kubelab_apiserver_v1_UpdateRequest__Output, _kubelab_apiserver_v1_Object__Output>
  UpdateStatus: MethodDefinition<_kubelab_apiserver_v1_UpdateRequest, _kubelab_apiserver_v1_Object, _kubelab_apiserver_v1_UpdateRequest__Output, _kubelab_apiserver_v1_Object__Output>
  Watch: MethodDefinition<_kubelab_apiserver_v1_WatchRequest, _kubelab_apiserver_v1_WatchEvent, _kubelab_apiserver_v1_WatchRequest__Output, _kubelab_apiserver_v1_WatchEvent__Output>
}
