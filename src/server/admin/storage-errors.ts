/** Maps what the store throws onto a Kafka error code and message for a per-topic result. */
import { ErrorCode, errorInfo } from '../../protocol/error-codes.js';
import { StorageError } from '../../storage/errors.js';

export interface ApiError {
  readonly code: number;
  readonly message: string | null;
}

export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof StorageError) return { code: ErrorCode[error.code], message: error.message };
  return { code: ErrorCode.UNKNOWN_SERVER_ERROR, message: error instanceof Error ? error.message : String(error) };
}

/** An error with Kafka's default message for its code (ApiError(Errors) in Kafka). */
export function defaultApiError(code: number): ApiError {
  return { code, message: errorInfo(code).message };
}
