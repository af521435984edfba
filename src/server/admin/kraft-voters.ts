/**
 * What Kafka's KafkaRaftClient answers a voter change (AddRaftVoter, RemoveRaftVoter) with, in its order of
 * checks, on a leader whose kraft.version is 0: gregor's one static voter can never be reconfigured, so every
 * request ends in one of these errors.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { KRAFT_VERSION } from '../../broker/features.js';
import type { BrokerState } from '../handler.js';

export interface VoterChange {
  readonly clusterId: string | null;
  readonly voterId: number;
  readonly voterDirectoryId: string;
}

export function voterChangeRefusal(
  broker: BrokerState,
  change: 'add' | 'remove',
  request: VoterChange,
  noListeners: boolean,
): { errorCode: number; errorMessage: string } {
  if (request.clusterId !== null && request.clusterId !== broker.clusterId) {
    return {
      errorCode: ErrorCode.INCONSISTENT_CLUSTER_ID,
      errorMessage: `The given id "${request.clusterId}" doesn't match the cluster id "${broker.clusterId}"`,
    };
  }
  const verb = change === 'add' ? 'Add' : 'Remove';
  if (request.voterId < 0 || request.voterDirectoryId === ZERO_UUID) {
    return { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: `${verb} voter request didn't include a valid voter` };
  }
  if (noListeners) {
    // Kafka names its controller listener here; gregor's first listener answers for the controller.
    const [listener] = broker.advertised.keys();
    return {
      errorCode: ErrorCode.INVALID_REQUEST,
      errorMessage: `Add voter request didn't include the endpoint (Endpoints(endpoints={})) for the default listener ListenerName(${listener ?? ''})`,
    };
  }
  return {
    errorCode: ErrorCode.UNSUPPORTED_VERSION,
    errorMessage: `Cluster doesn't support ${change === 'add' ? 'adding' : 'removing'} voter because the ${KRAFT_VERSION} feature is ${broker.features.level(KRAFT_VERSION)}`,
  };
}
