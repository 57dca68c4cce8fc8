// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface BindResponse {
}

export interface BindResponse__Output {
}
