// Original file: ../../proto/runtime/v1/api.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ImageFsInfoRequest as _runtime_v1_ImageFsInfoRequest, ImageFsInfoRequest__Output as _runtime_v1_ImageFsInfoRequest__Output } from '../../runtime/v1/ImageFsInfoRequest.js';
import type { ImageFsInfoResponse as _runtime_v1_ImageFsInfoResponse, ImageFsInfoResponse__Output as _runtime_v1_ImageFsInfoResponse__Output } from '../../runtime/v1/ImageFsInfoResponse.js';
import type { ImageStatusRequest as _runtime_v1_ImageStatusRequest, ImageStatusRequest__Output as _runtime_v1_ImageStatusRequest__Output } from '../../runtime/v1/ImageStatusRequest.js';
import type { ImageStatusResponse as _runtime_v1_ImageStatusResponse, ImageStatusResponse__Output as _runtime_v1_ImageStatusResponse__Output } from '../../runtime/v1/ImageStatusResponse.js';
import type { ListImagesRequest as _runtime_v1_ListImagesRequest, ListImagesRequest__Output as _runtime_v1_ListImagesRequest__Output } from '../../runtime/v1/ListImagesRequest.js';
import type { ListImagesResponse as _runtime_v1_ListImagesResponse, ListImagesResponse__Output as _runtime_v1_ListImagesResponse__Output } from '../../runtime/v1/ListImagesResponse.js';
import type { PullImageRequest as _runtime_v1_PullImageRequest, PullImageRequest__Output as _runtime_v1_PullImageRequest__Output } from '../../runtime/v1/PullImageRequest.js';
import type { PullImageResponse as _runtime_v1_PullImageResponse, PullImageResponse__Output as _runtime_v1_PullImageResponse__Output } from '../../runtime/v1/PullImageResponse.js';
import type { RemoveImageRequest as _runtime_v1_RemoveImageRequest, RemoveImageRequest__Output as _runtime_v1_RemoveImageRequest__Output } from '../../runtime/v1/RemoveImageRequest.js';
import type { RemoveImageResponse as _runtime_v1_RemoveImageResponse, RemoveImageResponse__Output as _runtime_v1_RemoveImageResponse__Output } from '../../runtime/v1/RemoveImageResponse.js';

export interface ImageServiceClient extends grpc.Client {
  ImageFsInfo(argument: _runtime_v1_ImageFsInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ImageFsInfoResponse__Output>): grpc.ClientUnaryCall;
  ImageFsInfo(argument: _runtime_v1_ImageFsInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ImageFsInfoResponse__Output>): grpc.ClientUnaryCall;
  ImageFsInfo(argument: _runtime_v1_ImageFsInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ImageFsInfoResponse__Output>): grpc.ClientUnaryCall;
  ImageFsInfo(argument: _runtime_v1_ImageFsInfoRequest, callback: grpc.requestCallback<_runtime_v1_ImageFsInfoResponse__Output>): grpc.ClientUnaryCall;
  imageFsInfo(argument: _runtime_v1_ImageFsInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ImageFsInfoResponse__Output>): grpc.ClientUnaryCall;
  imageFsInfo(argument: _runtime_v1_ImageFsInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ImageFsInfoResponse__Output>): grpc.ClientUnaryCall;
  imageFsInfo(argument: _runtime_v1_ImageFsInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ImageFsInfoResponse__Output>): grpc.ClientUnaryCall;
  imageFsInfo(argument: _runtime_v1_ImageFsInfoRequest, callback: grpc.requestCallback<_runtime_v1_ImageFsInfoResponse__Output>): grpc.ClientUnaryCall;
  
  ImageStatus(argument: _runtime_v1_ImageStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ImageStatusResponse__Output>): grpc.ClientUnaryCall;
  ImageStatus(argument: _runtime_v1_ImageStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ImageStatusResponse__Output>): grpc.ClientUnaryCall;
  ImageStatus(argument: _runtime_v1_ImageStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ImageStatusResponse__Output>): grpc.ClientUnaryCall;
  ImageStatus(argument: _runtime_v1_ImageStatusRequest, callback: grpc.requestCallback<_runtime_v1_ImageStatusResponse__Output>): grpc.ClientUnaryCall;
  imageStatus(argument: _runtime_v1_ImageStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ImageStatusResponse__Output>): grpc.ClientUnaryCall;
  imageStatus(argument: _runtime_v1_ImageStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ImageStatusResponse__Output>): grpc.ClientUnaryCall;
  imageStatus(argument: _runtime_v1_ImageStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ImageStatusResponse__Output>): grpc.ClientUnaryCall;
  imageStatus(argument: _runtime_v1_ImageStatusRequest, callback: grpc.requestCallback<_runtime_v1_ImageStatusResponse__Output>): grpc.ClientUnaryCall;
  
  ListImages(argument: _runtime_v1_ListImagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  ListImages(argument: _runtime_v1_ListImagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  ListImages(argument: _runtime_v1_ListImagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  ListImages(argument: _runtime_v1_ListImagesRequest, callback: grpc.requestCallback<_runtime_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  listImages(argument: _runtime_v1_ListImagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  listImages(argument: _runtime_v1_ListImagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  listImages(argument: _runtime_v1_ListImagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  listImages(argument: _runtime_v1_ListImagesRequest, callback: grpc.requestCallback<_runtime_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  
  PullImage(argument: _runtime_v1_PullImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PullImageResponse__Output>): grpc.ClientUnaryCall;
  PullImage(argument: _runtime_v1_PullImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_PullImageResponse__Output>): grpc.ClientUnaryCall;
  PullImage(argument: _runtime_v1_PullImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PullImageResponse__Output>): grpc.ClientUnaryCall;
  PullImage(argument: _runtime_v1_PullImageRequest, callback: grpc.requestCallback<_runtime_v1_PullImageResponse__Output>): grpc.ClientUnaryCall;
  pullImage(argument: _runtime_v1_PullImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PullImageResponse__Output>): grpc.ClientUnaryCall;
  pullImage(argument: _runtime_v1_PullImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_PullImageResponse__Output>): grpc.ClientUnaryCall;
  pullImage(argument: _runtime_v1_PullImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_PullImageResponse__Output>): grpc.ClientUnaryCall;
  pullImage(argument: _runtime_v1_PullImageRequest, callback: grpc.requestCallback<_runtime_v1_PullImageResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveImage(argument: _runtime_v1_RemoveImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  RemoveImage(argument: _runtime_v1_RemoveImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  RemoveImage(argument: _runtime_v1_RemoveImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  RemoveImage(argument: _runtime_v1_RemoveImageRequest, callback: grpc.requestCallback<_runtime_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  removeImage(argument: _runtime_v1_RemoveImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  removeImage(argument: _runtime_v1_RemoveImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_runtime_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  removeImage(argument: _runtime_v1_RemoveImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_runtime_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  removeImage(argument: _runtime_v1_RemoveImageRequest, callback: grpc.requestCallback<_runtime_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface ImageServiceHandlers extends grpc.UntypedServiceImplementation {
  ImageFsInfo: grpc.handleUnaryCall<_runtime_v1_ImageFsInfoRequest__Output, _runtime_v1_ImageFsInfoResponse>;
  
  ImageStatus: grpc.handleUnaryCall<_runtime_v1_ImageStatusRequest__Output, _runtime_v1_ImageStatusResponse>;
  
  ListImages: grpc.handleUnaryCall<_runtime_v1_ListImagesRequest__Output, _runtime_v1_ListImagesResponse>;
  
  PullImage: grpc.handleUnaryCall<_runtime_v1_PullImageRequest__Output, _runtime_v1_PullImageResponse>;
  
  RemoveImage: grpc.handleUnaryCall<_runtime_v1_RemoveImageRequest__Output, _runtime_v1_RemoveImageResponse>;
  
}

export interface ImageServiceDefinition extends grpc.ServiceDefinition {
  ImageFsInfo: MethodDefinition<_runtime_v1_ImageFsInfoRequest, _runtime_v1_ImageFsInfoResponse, _runtime_v1_ImageFsInfoRequest__Output, _runtime_v1_ImageFsInfoResponse__Output>
  ImageStatus: MethodDefinition<_runtime_v1_ImageStatusRequest, _runtime_v1_ImageStatusResponse, _runtime_v1_ImageStatusRequest__Output, _runtime_v1_ImageStatusResponse__Output>
  ListImages: MethodDefinition<_runtime_v1_ListImagesRequest, _runtime_v1_ListImagesResponse, _runtime_v1_ListImagesRequest__Output, _runtime_v1_ListImagesResponse__Output>
  PullImage: MethodDefinition<_runtime_v1_PullImageRequest, _runtime_v1_PullImageResponse, _runtime_v1_PullImageRequest__Output, _runtime_v1_PullImageResponse__Output>
  RemoveImage: MethodDefinition<_runtime_v1_RemoveImageRequest, _runtime_v1_RemoveImageResponse, _runtime_v1_RemoveImageRequest__Output, _runtime_v1_RemoveImageResponse__Output>
}
