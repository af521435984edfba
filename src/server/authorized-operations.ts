/**
 * The authorized-operations bit fields Kafka returns when a client asks for them (Metadata,
 * DescribeCluster, DescribeGroups, ...). gregor has no authorizer, so, like Kafka without one, every
 * operation the resource type supports is allowed. Bit n is set for AclOperation code n.
 */

/** Kafka's AclOperation codes. */
const READ = 3;
const WRITE = 4;
const CREATE = 5;
const DELETE = 6;
const ALTER = 7;
const DESCRIBE = 8;
const CLUSTER_ACTION = 9;
const DESCRIBE_CONFIGS = 10;
const ALTER_CONFIGS = 11;
const IDEMPOTENT_WRITE = 12;

function bits(...codes: number[]): number {
  return codes.reduce((field, code) => field | (1 << code), 0);
}

/** The schema default: "not requested". */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

export const TOPIC_AUTHORIZED_OPERATIONS = bits(READ, WRITE, CREATE, DESCRIBE, DELETE, ALTER, DESCRIBE_CONFIGS, ALTER_CONFIGS);
export const GROUP_AUTHORIZED_OPERATIONS = bits(READ, DESCRIBE, DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS);
export const CLUSTER_AUTHORIZED_OPERATIONS = bits(CREATE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, ALTER, DESCRIBE);
