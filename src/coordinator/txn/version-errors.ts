// PRODUCER_FENCED (KIP-588) is newer than the transactional APIs: older request versions get the error their
// clients understand, INVALID_PRODUCER_EPOCH, as KafkaApis converts it.
import { ErrorCode } from '../../protocol/error-codes.js';

/** `firstVersion`: the first request version whose clients know PRODUCER_FENCED. */
export function fencedForVersion(errorCode: number, version: number, firstVersion: number): number {
  return errorCode === ErrorCode.PRODUCER_FENCED && version < firstVersion ? ErrorCode.INVALID_PRODUCER_EPOCH : errorCode;
}
