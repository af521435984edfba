/**
 * What an exception means to a client, as Kafka's Errors.forException and ApiError.fromThrowable decide:
 * errors that carry a Kafka code answer with it; anything else is UNKNOWN_SERVER_ERROR, without its
 * message (Kafka does not leak internals).
 */
import type { ApiError } from '../protocol/api-error.js';
import { ErrorCode, errorInfo, isKnownErrorCode } from '../protocol/error-codes.js';
import { GroupError } from '../coordinator/group/group-error.js';
import { StorageError } from '../storage/errors.js';

/** A known Kafka error code carried by an error as `errorCode` (AutoCreateError, TxnLogError, ...). */
function carriedCode(error: Error): number | undefined {
  const code = (error as { errorCode?: unknown }).errorCode;
  return typeof code === 'number' && code !== ErrorCode.NONE && isKnownErrorCode(code) ? code : undefined;
}

/** Kafka's Errors.forException. */
export function errorCodeOf(error: unknown): number {
  if (error instanceof StorageError) return ErrorCode[error.code];
  if (error instanceof GroupError) return error.code;
  if (error instanceof Error) return carriedCode(error) ?? ErrorCode.UNKNOWN_SERVER_ERROR;
  return ErrorCode.UNKNOWN_SERVER_ERROR;
}

/** Kafka's ApiError.fromThrowable: the code, and the error's message unless it is generic or internal. */
export function apiErrorOf(error: unknown): ApiError {
  const code = errorCodeOf(error);
  const message = error instanceof Error ? error.message : null;
  return { code, message: code === ErrorCode.UNKNOWN_SERVER_ERROR || message === errorInfo(code).message ? null : message };
}
