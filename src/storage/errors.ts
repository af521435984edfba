// Errors a log raises: each names its Kafka code (src/protocol/kafka-error.ts maps it for the client).
import { KafkaError } from '../protocol/kafka-error.js';

export type StorageErrorCode =
  | 'OFFSET_OUT_OF_RANGE'
  | 'UNKNOWN_TOPIC_OR_PARTITION'
  | 'TOPIC_ALREADY_EXISTS'
  | 'KAFKA_STORAGE_ERROR'
  | 'CORRUPT_MESSAGE'
  | 'INVALID_PARTITIONS'
  | 'INVALID_TOPIC_EXCEPTION'
  | 'INCONSISTENT_CLUSTER_ID'
  | 'NOT_LEADER_OR_FOLLOWER';

export class StorageError extends KafkaError {
  declare readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string) {
    super(code, message);
  }
}

export class OffsetOutOfRangeError extends StorageError {
  constructor(offset: number, logStartOffset: number, logEndOffset: number) {
    super('OFFSET_OUT_OF_RANGE', `offset ${offset} is outside [${logStartOffset}, ${logEndOffset}]`);
  }
}
