// Kafka's ACL model: resource patterns, access control entries, their filters and codes (ResourceType, PatternType,
// AclOperation, AclPermissionType), the filters' matching (AclBindingFilter.matches) and the checks Kafka 4.3.1 makes
// on a new ACL (AclApis, AclControlManager.validateNewAcl) and on a filter (AclControlManager.validateFilter).

/** ResourceType codes. */
export const ResourceType = { UNKNOWN: 0, ANY: 1, TOPIC: 2, GROUP: 3, CLUSTER: 4, TRANSACTIONAL_ID: 5, DELEGATION_TOKEN: 6, USER: 7 } as const;
/** PatternType codes. */
export const PatternType = { UNKNOWN: 0, ANY: 1, MATCH: 2, LITERAL: 3, PREFIXED: 4 } as const;
/** AclOperation codes. */
export const AclOperation = {
  UNKNOWN: 0, ANY: 1, ALL: 2, READ: 3, WRITE: 4, CREATE: 5, DELETE: 6, ALTER: 7, DESCRIBE: 8, CLUSTER_ACTION: 9,
  DESCRIBE_CONFIGS: 10, ALTER_CONFIGS: 11, IDEMPOTENT_WRITE: 12, CREATE_TOKENS: 13, DESCRIBE_TOKENS: 14, TWO_PHASE_COMMIT: 15,
} as const;
/** AclPermissionType codes. */
export const AclPermissionType = { UNKNOWN: 0, ANY: 1, DENY: 2, ALLOW: 3 } as const;

export type ResourceTypeCode = (typeof ResourceType)[keyof typeof ResourceType];
export type OperationCode = (typeof AclOperation)[keyof typeof AclOperation];

/** Each enum's name by code; a code Kafka does not know reads as UNKNOWN (Kafka's fromCode). */
function namesOf(codes: Record<string, number>): (code: number) => string {
  const names = new Map(Object.entries(codes).map(([name, code]) => [code, name]));
  return (code) => names.get(code) ?? 'UNKNOWN';
}
export const resourceTypeName = namesOf(ResourceType);
export const patternTypeName = namesOf(PatternType);
export const operationName = namesOf(AclOperation);
export const permissionTypeName = namesOf(AclPermissionType);
/** A wire code as Kafka reads it: itself when known, UNKNOWN (0) otherwise. */
const known = (name: (code: number) => string) => (code: number): number => (name(code) === 'UNKNOWN' ? 0 : code);
const knownResourceType = known(resourceTypeName);
const knownPatternType = known(patternTypeName);
const knownOperation = known(operationName);
const knownPermissionType = known(permissionTypeName);

/** Resource.CLUSTER_NAME: the one name of the CLUSTER resource. */
export const CLUSTER_NAME = 'kafka-cluster';
/** ResourcePattern.WILDCARD_RESOURCE and AclEntry.WILDCARD_HOST. */
export const WILDCARD = '*';
/** KafkaPrincipal's wildcard, User:*. */
export const WILDCARD_PRINCIPAL = 'User:*';

/** An ACL binding: a resource pattern and an access control entry (principal as "Type:name"). */
export interface Acl {
  readonly resourceType: number;
  readonly resourceName: string;
  readonly patternType: number;
  readonly principal: string;
  readonly host: string;
  readonly operation: number;
  readonly permissionType: number;
}

/** An AclBindingFilter: null strings match any value; ANY codes match any, MATCH patterns as Kafka matches them. */
export interface AclFilter {
  readonly resourceType: number;
  readonly resourceName: string | null;
  readonly patternType: number;
  readonly principal: string | null;
  readonly host: string | null;
  readonly operation: number;
  readonly permissionType: number;
}

/** The ACL a CreateAcls creation names, its codes read as Kafka reads them. */
export function aclOf(creation: Acl): Acl {
  return {
    resourceType: knownResourceType(creation.resourceType), resourceName: creation.resourceName, patternType: knownPatternType(creation.patternType),
    principal: creation.principal, host: creation.host, operation: knownOperation(creation.operation), permissionType: knownPermissionType(creation.permissionType),
  };
}

/** The filter a DescribeAcls/DeleteAcls request names, its codes read as Kafka reads them. */
export function filterOf(filter: AclFilter): AclFilter {
  return {
    resourceType: knownResourceType(filter.resourceType), resourceName: filter.resourceName, patternType: knownPatternType(filter.patternType),
    principal: filter.principal, host: filter.host, operation: knownOperation(filter.operation), permissionType: knownPermissionType(filter.permissionType),
  };
}

export function sameAcl(a: Acl, b: Acl): boolean {
  return a.resourceType === b.resourceType && a.resourceName === b.resourceName && a.patternType === b.patternType &&
    a.principal === b.principal && a.host === b.host && a.operation === b.operation && a.permissionType === b.permissionType;
}

/** ResourcePatternFilter.matches then AccessControlEntryFilter.matches. */
export function filterMatches(filter: AclFilter, acl: Acl): boolean {
  return patternMatches(filter, acl) && entryMatches(filter, acl);
}

function patternMatches(filter: AclFilter, acl: Acl): boolean {
  if (filter.resourceType !== ResourceType.ANY && filter.resourceType !== acl.resourceType) return false;
  if (filter.patternType !== PatternType.ANY && filter.patternType !== PatternType.MATCH && filter.patternType !== acl.patternType) return false;
  const name = filter.resourceName;
  if (name === null) return true;
  if (filter.patternType === PatternType.ANY || filter.patternType === acl.patternType) return name === acl.resourceName;
  // MATCH: every ACL that applies to the named resource.
  return acl.patternType === PatternType.LITERAL ? name === acl.resourceName || acl.resourceName === WILDCARD : name.startsWith(acl.resourceName);
}

function entryMatches(filter: AclFilter, acl: Acl): boolean {
  if (filter.principal !== null && filter.principal !== acl.principal) return false;
  if (filter.host !== null && filter.host !== acl.host) return false;
  if (filter.operation !== AclOperation.ANY && filter.operation !== acl.operation) return false;
  return filter.permissionType === AclPermissionType.ANY || filter.permissionType === acl.permissionType;
}

/** Why Kafka refuses to create `acl` (INVALID_REQUEST's message), or null. AclApis checks first, then the controller. */
export function newAclProblem(acl: Acl): string | null {
  if (acl.resourceType === ResourceType.CLUSTER && acl.resourceName !== CLUSTER_NAME) return `The only valid name for the CLUSTER resource is ${CLUSTER_NAME}`;
  if (acl.resourceName === '') return 'Invalid empty resource name';
  if (acl.resourceType === ResourceType.UNKNOWN || acl.resourceType === ResourceType.ANY) return `Invalid resourceType ${resourceTypeName(acl.resourceType)}`;
  if (acl.patternType !== PatternType.LITERAL && acl.patternType !== PatternType.PREFIXED) return `Invalid patternType ${patternTypeName(acl.patternType)}`;
  if (acl.operation === AclOperation.UNKNOWN || acl.operation === AclOperation.ANY) return `Invalid operation ${operationName(acl.operation)}`;
  if (acl.permissionType !== AclPermissionType.ALLOW && acl.permissionType !== AclPermissionType.DENY) {
    return `Invalid permissionType ${permissionTypeName(acl.permissionType)}`;
  }
  return null;
}

/** Why Kafka refuses a DeleteAcls filter (INVALID_REQUEST's message), or null. */
export function filterProblem(filter: AclFilter): string | null {
  if (filter.resourceType === ResourceType.UNKNOWN || filter.patternType === PatternType.UNKNOWN) return 'Unknown patternFilter.';
  if (filter.operation === AclOperation.UNKNOWN || filter.permissionType === AclPermissionType.UNKNOWN) return 'Unknown entryFilter.';
  return null;
}

/** AclEntry.supportedOperations: what authorizedOperations fields report on, per resource type. */
export const SUPPORTED_OPERATIONS: ReadonlyMap<number, readonly number[]> = new Map<number, readonly number[]>([
  [ResourceType.TOPIC, [AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.DELETE,
    AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS]],
  [ResourceType.GROUP, [AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS]],
  [ResourceType.CLUSTER, [AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS,
    AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE]],
  [ResourceType.TRANSACTIONAL_ID, [AclOperation.DESCRIBE, AclOperation.WRITE]],
  [ResourceType.DELEGATION_TOKEN, [AclOperation.DESCRIBE]],
  [ResourceType.USER, [AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS]],
]);
