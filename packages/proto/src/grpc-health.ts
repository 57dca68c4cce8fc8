// The wire contract of the standard gRPC health protocol (grpc.health.v1):
// the two tiny messages kubelet gRPC probes send and the runtime's simulated
// health servers answer, encoded by hand (one field each) so neither side
// loads a .proto for them.

export const HEALTH_SERVICE = 'grpc.health.v1.Health';
export const HEALTH_CHECK_PATH = `/${HEALTH_SERVICE}/Check`;

/** grpc.health.v1.HealthCheckResponse.ServingStatus, by number. */
export const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
export type ServingStatus = (typeof SERVING_STATUS)[number];

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** Walks a message's fields: varints as numbers, length-delimited ones as bytes; throws on malformed input. */
function readFields(buf: Buffer, onField: (field: number, value: number | Buffer) => void): void {
  let i = 0;
  const readVarint = (): number => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      if (i >= buf.length || shift > 28) throw new Error('truncated varint');
      const b = buf[i++]!;
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v >>> 0;
    }
  };
  while (i < buf.length) {
    const key = readVarint();
    const wire = key & 7;
    if (wire === 0) onField(key >>> 3, readVarint());
    else if (wire === 2) {
      const len = readVarint();
      if (i + len > buf.length) throw new Error('truncated field');
      onField(key >>> 3, buf.subarray(i, i + len));
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

/** HealthCheckRequest { string service = 1 } (proto3 leaves out the empty string). */
export function encodeHealthRequest(service: string): Buffer {
  if (!service) return Buffer.alloc(0);
  const s = Buffer.from(service, 'utf8');
  return Buffer.concat([Buffer.from([0x0a, ...varint(s.length)]), s]);
}

export function decodeHealthRequest(buf: Buffer): { service: string } {
  let service = '';
  readFields(buf, (field, value) => {
    if (field === 1 && Buffer.isBuffer(value)) service = value.toString('utf8');
  });
  return { service };
}

/** HealthCheckResponse { ServingStatus status = 1 } (proto3 leaves out the zero value). */
export function encodeHealthResponse(status: ServingStatus): Buffer {
  const n = SERVING_STATUS.indexOf(status);
  return Buffer.from(n > 0 ? [0x08, ...varint(n)] : []);
}

/** The status name (`UNKNOWN` when absent; the number for values this proto does not know). */
export function decodeHealthResponse(buf: Buffer): string {
  let status = 0;
  readFields(buf, (field, value) => {
    if (field === 1 && typeof value === 'number') status = value;
  });
  return SERVING_STATUS[status] ?? String(status);
}
