// Errors a log raises for the caller to map onto a Kafka error code: `code` is the name in
// src/protocol/error-codes.ts.

export type StorageErrorCode =
  | 'OFFSET_OUT_OF_RANGE'
  | 'UNKNOWN_TOPIC_OR_PARTITION'
  | 'TOPIC_ALREADY_EXISTS'
  | 'KAFKA_STORAGE_ERROR'
  | 'CORRUPT_MESSAGE'
  | 'INVALID_PARTITIONS'
  | 'INVALID_TOPIC_EXCEPTION'
  | 'INCONSISTENT_CLUSTER_ID';

export class StorageError extends Error {
  constructor(readonly code: StorageErrorCode, message: string) {
    super(message);
    this.name = 'StorageError';
  }
}

export class OffsetOutOfRangeError extends StorageError {
  constructor(offset: number, logStartOffset: number, logEndOffset: number) {
    super('OFFSET_OUT_OF_RANGE', `offset ${offset} is outside [${logStartOffset}, ${logEndOffset}]`);
  }
}
