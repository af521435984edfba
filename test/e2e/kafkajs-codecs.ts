// Test-only kafkajs codec plugins over gregor's own compression (kafkajs ships gzip only).
import kafkajs from 'kafkajs';
import { Codec, compress, decompress } from '../../src/protocol/compression/index.js';

const MAX_OUTPUT = 64 * 1024 * 1024;

function plugin(codec: number) {
  return () => ({
    async compress(encoder: { buffer: Buffer }): Promise<Buffer> {
      return compress(codec, encoder.buffer);
    },
    async decompress(buffer: Buffer): Promise<Buffer> {
      return decompress(codec, buffer, MAX_OUTPUT);
    },
  });
}

export function registerKafkajsCodecs(): void {
  const { CompressionCodecs, CompressionTypes } = kafkajs;
  const codecs = CompressionCodecs as unknown as Record<number, () => unknown>;
  codecs[CompressionTypes.Snappy] = plugin(Codec.SNAPPY);
  codecs[CompressionTypes.LZ4] = plugin(Codec.LZ4);
  codecs[CompressionTypes.ZSTD] = plugin(Codec.ZSTD);
}
