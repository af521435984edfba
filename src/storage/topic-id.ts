// Topic ids are Kafka Uuids; the one implementation is the protocol's.
export { isUuid, randomUuid, ZERO_UUID } from '../protocol/uuid.js';
