// crictl's CRI connection: runtime.v1 RuntimeService and ImageService over
// the endpoint, insecure as the kubelet dials it (the socket's permissions
// are the security), each call with crictl's --timeout as its deadline.
// Raw messages, not the kubelet's converted view: crictl prints every field.
//
// Duplicate to note: the kubelet's kuberuntime/remote.ts dials the same way
// but converts answers (milliseconds, dropped fields) and lives in a service,
// so it cannot be imported from here.

import * as grpc from '@grpc/grpc-js';
import { criProto, grpcCodeName, type ImageServiceClient, type RuntimeServiceClient } from '@kubelab/proto';
import { grpcTarget } from './config.js';

/** A failed CRI call, printed as Go's status error: `rpc error: code = NotFound desc = …`. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`rpc error: code = ${grpcCodeName(code)} desc = ${details}`);
  }
}

export interface Cri {
  /** One unary RuntimeService call. */
  rt<Res>(method: string, req: object, timeoutMs?: number): Promise<Res>;
  /** One unary ImageService call. */
  img<Res>(method: string, req: object, timeoutMs?: number): Promise<Res>;
  close(): void;
}

export function connect(runtimeEndpoint: string, imageEndpoint: string, timeoutMs: number): Cri {
  const proto = criProto();
  const options = { 'grpc.max_receive_message_length': 16 * 1024 * 1024 };
  const rs = new proto.runtime.v1.RuntimeService(grpcTarget(runtimeEndpoint), grpc.credentials.createInsecure(), options) as RuntimeServiceClient;
  const is = new proto.runtime.v1.ImageService(grpcTarget(imageEndpoint), grpc.credentials.createInsecure(), options) as ImageServiceClient;
  const call =
    (client: grpc.Client) =>
    <Res>(method: string, req: object, t = timeoutMs): Promise<Res> =>
      new Promise((resolve, reject) => {
        const fn = (client as unknown as Record<string, (r: object, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r?: Res) => void) => void>)[method];
        if (!fn) return reject(new Error(`no CRI method ${method}`));
        fn.call(client, req, { deadline: Date.now() + t }, (err, res) => (err ? reject(new RpcError(err.code, err.details)) : resolve(res as Res)));
      });
  return {
    rt: call(rs),
    img: call(is),
    close: () => {
      rs.close();
      is.close();
    },
  };
}
