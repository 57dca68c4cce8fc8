// Original file: ../../proto/runtime/v1/api.proto


export interface StartContainerResponse {
}

export interface StartContainerResponse__Output {
}
