import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { BindRequest as _kubelab_apiserver_v1_BindRequest, BindRequest__Output as _kubelab_apiserver_v1_BindRequest__Output } from './kubelab/apiserver/v1/BindRequest.js';
import type { BindResponse as _kubelab_apiserver_v1_BindResponse, BindResponse__Output as _kubelab_apiserver_v1_BindResponse__Output } from './kubelab/apiserver/v1/BindResponse.js';
import type { CreateRequest as _kubelab_apiserver_v1_CreateRequest, CreateRequest__Output as _kubelab_apiserver_v1_CreateRequest__Output } from './kubelab/apiserver/v1/CreateRequest.js';
import type { CreateResult as _kubelab_apiserver_v1_CreateResult, CreateResult__Output as _kubelab_apiserver_v1_CreateResult__Output } from './kubelab/apiserver/v1/CreateResult.js';
import type { CreateStreamItem as _kubelab_apiserver_v1_CreateStreamItem, CreateStreamItem__Output as _kubelab_apiserver_v1_CreateStreamItem__Output } from './kubelab/apiserver/v1/CreateStreamItem.js';
import type { CreateStreamRequest as _kubelab_apiserver_v1_CreateStreamRequest, CreateStreamRequest__Output as _kubelab_apiserver_v1_CreateStreamRequest__Output } from './kubelab/apiserver/v1/CreateStreamRequest.js';
import type { CreateStreamResponse as _kubelab_apiserver_v1_CreateStreamResponse, CreateStreamResponse__Output as _kubelab_apiserver_v1_CreateStreamResponse__Output } from './kubelab/apiserver/v1/CreateStreamResponse.js';
import type { CreateTokenRequest as _kubelab_apiserver_v1_CreateTokenRequest, CreateTokenRequest__Output as _kubelab_apiserver_v1_CreateTokenRequest__Output } from './kubelab/apiserver/v1/CreateTokenRequest.js';
import type { DeleteRequest as _kubelab_apiserver_v1_DeleteRequest, DeleteRequest__Output as _kubelab_apiserver_v1_DeleteRequest__Output } from './kubelab/apiserver/v1/DeleteRequest.js';
import type { DeleteResponse as _kubelab_apiserver_v1_DeleteResponse, DeleteResponse__Output as _kubelab_apiserver_v1_DeleteResponse__Output } from './kubelab/apiserver/v1/DeleteResponse.js';
import type { GetRequest as _kubelab_apiserver_v1_GetRequest, GetRequest__Output as _kubelab_apiserver_v1_GetRequest__Output } from './kubelab/apiserver/v1/GetRequest.js';
import type { GroupVersionResource as _kubelab_apiserver_v1_GroupVersionResource, GroupVersionResource__Output as _kubelab_apiserver_v1_GroupVersionResource__Output } from './kubelab/apiserver/v1/GroupVersionResource.js';
import type { ListRequest as _kubelab_apiserver_v1_ListRequest, ListRequest__Output as _kubelab_apiserver_v1_ListRequest__Output } from './kubelab/apiserver/v1/ListRequest.js';
import type { Object as _kubelab_apiserver_v1_Object, Object__Output as _kubelab_apiserver_v1_Object__Output } from './kubelab/apiserver/v1/Object.js';
import type { ObjectList as _kubelab_apiserver_v1_ObjectList, ObjectList__Output as _kubelab_apiserver_v1_ObjectList__Output } from './kubelab/apiserver/v1/ObjectList.js';
import type { PatchRequest as _kubelab_apiserver_v1_PatchRequest, PatchRequest__Output as _kubelab_apiserver_v1_PatchRequest__Output } from './kubelab/apiserver/v1/PatchRequest.js';
import type { ResourceServiceClient as _kubelab_apiserver_v1_ResourceServiceClient, ResourceServiceDefinition as _kubelab_apiserver_v1_ResourceServiceDefinition } from './kubelab/apiserver/v1/ResourceService.js';
import type { UpdateRequest as _kubelab_apiserver_v1_UpdateRequest, UpdateRequest__Output as _kubelab_apiserver_v1_UpdateRequest__Output } from './kubelab/apiserver/v1/UpdateRequest.js';
import type { WatchEvent as _kubelab_apiserver_v1_WatchEvent, WatchEvent__Output as _kubelab_apiserver_v1_WatchEvent__Output } from './kubelab/apiserver/v1/WatchEvent.js';
import type { WatchRequest as _kubelab_apiserver_v1_WatchRequest, WatchRequest__Output as _kubelab_apiserver_v1_WatchRequest__Output } from './kubelab/apiserver/v1/WatchRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  kubelab: {
    apiserver: {
      v1: {
        BindRequest: MessageTypeDefinition<_kubelab_apiserver_v1_BindRequest, _kubelab_apiserver_v1_BindRequest__Output>
        BindResponse: MessageTypeDefinition<_kubelab_apiserver_v1_BindResponse, _kubelab_apiserver_v1_BindResponse__Output>
        CreateRequest: MessageTypeDefinition<_kubelab_apiserver_v1_CreateRequest, _kubelab_apiserver_v1_CreateRequest__Output>
        CreateResult: MessageTypeDefinition<_kubelab_apiserver_v1_CreateResult, _kubelab_apiserver_v1_CreateResult__Output>
        CreateStreamItem: MessageTypeDefinition<_kubelab_apiserver_v1_CreateStreamItem, _kubelab_apiserver_v1_CreateStreamItem__Output>
        CreateStreamRequest: MessageTypeDefinition<_kubelab_apiserver_v1_CreateStreamRequest, _kubelab_apiserver_v1_CreateStreamRequest__Output>
        CreateStreamResponse: MessageTypeDefinition<_kubelab_apiserver_v1_CreateStreamResponse, _kubelab_apiserver_v1_CreateStreamResponse__Output>
        CreateTokenRequest: MessageTypeDefinition<_kubelab_apiserver_v1_CreateTokenRequest, _kubelab_apiserver_v1_CreateTokenRequest__Output>
        DeleteRequest: MessageTypeDefinition<_kubelab_apiserver_v1_DeleteRequest, _kubelab_apiserver_v1_DeleteRequest__Output>
        DeleteResponse: MessageTypeDefinition<_kubelab_apiserver_v1_DeleteResponse, _kubelab_apiserver_v1_DeleteResponse__Output>
        GetRequest: MessageTypeDefinition<_kubelab_apiserver_v1_GetRequest, _kubelab_apiserver_v1_GetRequest__Output>
        GroupVersionResource: MessageTypeDefinition<_kubelab_apiserver_v1_GroupVersionResource, _kubelab_apiserver_v1_GroupVersionResource__Output>
        ListRequest: MessageTypeDefinition<_kubelab_apiserver_v1_ListRequest, _kubelab_apiserver_v1_ListRequest__Output>
        Object: MessageTypeDefinition<_kubelab_apiserver_v1_Object, _kubelab_apiserver_v1_Object__Output>
        ObjectList: MessageTypeDefinition<_kubelab_apiserver_v1_ObjectList, _kubelab_apiserver_v1_ObjectList__Output>
        PatchRequest: MessageTypeDefinition<_kubelab_apiserver_v1_PatchRequest, _kubelab_apiserver_v1_PatchRequest__Output>
        ResourceService: SubtypeConstructor<typeof grpc.Client, _kubelab_apiserver_v1_ResourceServiceClient> & { service: _kubelab_apiserver_v1_ResourceServiceDefinition }
        UpdateRequest: MessageTypeDefinition<_kubelab_apiserver_v1_UpdateRequest, _kubelab_apiserver_v1_UpdateRequest__Output>
        WatchEvent: MessageTypeDefinition<_kubelab_apiserver_v1_WatchEvent, _kubelab_apiserver_v1_WatchEvent__Output>
        WatchRequest: MessageTypeDefinition<_kubelab_apiserver_v1_WatchRequest, _kubelab_apiserver_v1_WatchRequest__Output>
      }
    }
  }
}

