// Original file: ../../proto/runtime/v1/api.proto


export interface StopContainerResponse {
}

export interface StopContainerResponse__Output {
}
