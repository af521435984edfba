/**
 * Kafka's getErrorResponse per API: what a client is answered when its request could not be handled.
 * Every API the broker registers has one here (a test checks); the router uses it when a handler throws.
 */
import { adminErrorResponses } from './admin.js';
import { clusterErrorResponses } from './cluster.js';
import { dataErrorResponses } from './data.js';
import type { ErrorResponseBuilder } from './define.js';
import { groupErrorResponses } from './groups.js';
import { quorumErrorResponses } from './quorum.js';
import { securityErrorResponses } from './security.js';
import { shareStateErrorResponses } from './share-state.js';
import { transactionErrorResponses } from './transactions.js';

export type { ErrorResponseBuilder } from './define.js';

export const errorResponses: ReadonlyMap<number, ErrorResponseBuilder> = new Map(
  [...dataErrorResponses, ...clusterErrorResponses, ...adminErrorResponses, ...groupErrorResponses, ...transactionErrorResponses,
    ...quorumErrorResponses, ...securityErrorResponses, ...shareStateErrorResponses]
    .map((builder) => [builder.api.apiKey, builder]),
);
