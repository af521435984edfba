// Error responses of the feature and KRaft quorum APIs (Kafka's getErrorResponse of each request class).
import { errorInfo } from '../error-codes.js';
import { addRaftVoterApi } from '../generated/add-raft-voter.js';
import { createDescribeQuorumResponse, describeQuorumApi } from '../generated/describe-quorum.js';
import { removeRaftVoterApi } from '../generated/remove-raft-voter.js';
import { unregisterBrokerApi } from '../generated/unregister-broker.js';
import { updateFeaturesApi } from '../generated/update-features.js';
import { errorResponse } from './define.js';

export const quorumErrorResponses = [
  // Only the top-level error, with the code's own message.
  errorResponse(describeQuorumApi, (_request, _version, error) => ({
    ...createDescribeQuorumResponse(),
    errorCode: error.code,
    errorMessage: errorInfo(error.code).message,
  })),

  // No per-feature results with an error (UpdateFeaturesResponse.createWithErrors).
  errorResponse(updateFeaturesApi, (_request, _version, error) => ({
    throttleTimeMs: 0,
    errorCode: error.code,
    errorMessage: error.message,
    results: [],
  })),

  errorResponse(addRaftVoterApi, (_request, _version, error) => ({ throttleTimeMs: 0, errorCode: error.code, errorMessage: errorInfo(error.code).message })),
  errorResponse(removeRaftVoterApi, (_request, _version, error) => ({ throttleTimeMs: 0, errorCode: error.code, errorMessage: errorInfo(error.code).message })),
  errorResponse(unregisterBrokerApi, (_request, _version, error) => ({ throttleTimeMs: 0, errorCode: error.code, errorMessage: error.message })),
];
