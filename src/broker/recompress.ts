// Broker-side compression (topic compression.type other than `producer`): Kafka's LogValidator rebuilds a
// batch whose codec differs from the target, or whose compressed records carry offsets other than 0, 1, 2...
// The rebuilt batch keeps the producer id, epoch, base sequence, transactional flag and record timestamps.
import type { TopicConfig } from '../config/index.js';
import { Codec } from '../protocol/compression/index.js';
import {
  compressionOf,
  decodeBatchRecords,
  encodeRecordBatch,
  isTransactional,
  type BatchHeader,
} from '../protocol/records/index.js';

const CODEC_BY_TYPE: Readonly<Record<string, number>> = {
  uncompressed: Codec.NONE,
  gzip: Codec.GZIP,
  snappy: Codec.SNAPPY,
  lz4: Codec.LZ4,
  zstd: Codec.ZSTD,
};

/** BrokerCompressionType.targetCompression: `producer` keeps the batch's own codec. */
export function targetCodec(topic: TopicConfig, sourceCodec: number): number {
  return CODEC_BY_TYPE[topic['compression.type']] ?? sourceCodec;
}

/** The topic's level for a codec (-1: the codec's default), undefined where the codec has none. */
export function codecLevel(topic: TopicConfig, codec: number): number | undefined {
  switch (codec) {
    case Codec.GZIP:
      return topic['compression.gzip.level'] === -1 ? undefined : topic['compression.gzip.level'];
    case Codec.ZSTD:
      return topic['compression.zstd.level'];
    default:
      return undefined;
  }
}

export function needsRebuild(header: BatchHeader, target: number, offsetsSequential: boolean): boolean {
  const source = compressionOf(header.attributes);
  return source !== target || (source !== Codec.NONE && !offsetsSequential);
}

/** Re-encodes one batch with `codec`, offsets renumbered from 0. */
export function rebuildBatch(batch: Buffer, header: BatchHeader, codec: number, level: number | undefined): Buffer {
  const records = decodeBatchRecords(batch).map((r, index) => ({
    offsetDelta: index,
    timestamp: r.timestamp,
    key: r.key,
    value: r.value,
    headers: r.headers,
  }));
  return encodeRecordBatch({
    producerId: header.producerId,
    producerEpoch: header.producerEpoch,
    baseSequence: header.baseSequence,
    isTransactional: isTransactional(header.attributes),
    compression: codec,
    ...(level === undefined ? {} : { compressionLevel: level }),
    records,
  });
}
