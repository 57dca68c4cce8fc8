// Types for the part of hpack.js (2.1.6) the authority front uses: its HPACK decoder.
declare module 'hpack.js' {
  interface DecodedHeader {
    name: string;
    value: string;
    neverIndex: boolean;
  }
  interface Decompressor {
    write(chunk: Buffer): boolean;
    execute(cb?: (err: Error | null) => void): void;
    read(): DecodedHeader | null;
    on(event: 'error', cb: (err: Error) => void): this;
  }
  const hpack: {
    decompressor: { create(options: { table: { maxSize: number } }): Decompressor };
  };
  export default hpack;
}
