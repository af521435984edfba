/**
 * ACLs for the console, through the broker's own ACL APIs as kafka-acls uses them: DescribeAcls (--list, with its
 * filters), CreateAcls (--add) and DeleteAcls (--remove, one exact binding). Codes are shown by Kafka's enum names
 * (TOPIC, LITERAL, READ, ALLOW...). Without an authorizer every call is SECURITY_DISABLED, as kafka-acls sees it.
 */
import { describeAclsApi, createDescribeAclsRequest } from '../../protocol/generated/describe-acls.js';
import { createAclsApi, createCreateAclsRequest } from '../../protocol/generated/create-acls.js';
import { deleteAclsApi, createDeleteAclsRequest } from '../../protocol/generated/delete-acls.js';
import {
  AclOperation, AclPermissionType, PatternType, ResourceType, operationName, patternTypeName, permissionTypeName, resourceTypeName,
} from '../../security/authorizer/acl.js';
import { BadRequest } from './api-input.js';
import { checkError, type KafkaCalls } from './kafka-calls.js';

/** An ACL binding by names, as kafka-acls prints it. */
export interface ShownAcl {
  readonly resourceType: string;
  readonly resourceName: string;
  readonly patternType: string;
  readonly principal: string;
  readonly host: string;
  readonly operation: string;
  readonly permissionType: string;
}

/** What --list filters on; an absent field matches any. */
export interface AclListFilter {
  readonly resourceType?: string;
  readonly resourceName?: string;
  /** ANY by default; MATCH finds every ACL that applies to the named resource, as kafka-acls' --resource-pattern-type match. */
  readonly patternType?: string;
  readonly principal?: string;
  readonly host?: string;
  readonly operation?: string;
  readonly permissionType?: string;
}

function codeOf(codes: Record<string, number>, value: string | undefined, what: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const code = codes[value.toUpperCase()];
  if (code === undefined) throw new BadRequest(`${what} must be one of ${Object.keys(codes).filter((k) => k !== 'UNKNOWN').join(', ')}`);
  return code;
}

const orNull = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

export async function listAcls(kafka: KafkaCalls, filter: AclListFilter = {}): Promise<ShownAcl[]> {
  const response = await kafka.call(describeAclsApi, 3, {
    ...createDescribeAclsRequest(),
    resourceTypeFilter: codeOf(ResourceType, filter.resourceType, 'resourceType', ResourceType.ANY),
    resourceNameFilter: orNull(filter.resourceName),
    patternTypeFilter: codeOf(PatternType, filter.patternType, 'patternType', PatternType.ANY),
    principalFilter: orNull(filter.principal),
    hostFilter: orNull(filter.host),
    operation: codeOf(AclOperation, filter.operation, 'operation', AclOperation.ANY),
    permissionType: codeOf(AclPermissionType, filter.permissionType, 'permissionType', AclPermissionType.ANY),
  });
  checkError(response.errorCode, response.errorMessage);
  const acls: ShownAcl[] = [];
  for (const r of response.resources) {
    for (const a of r.acls) {
      acls.push({
        resourceType: resourceTypeName(r.resourceType), resourceName: r.resourceName, patternType: patternTypeName(r.patternType),
        principal: a.principal, host: a.host, operation: operationName(a.operation), permissionType: permissionTypeName(a.permissionType),
      });
    }
  }
  const key = (a: ShownAcl): string => [a.resourceType, a.resourceName, a.patternType, a.principal, a.host, a.operation, a.permissionType].join('\u0000');
  return acls.sort((a, b) => key(a).localeCompare(key(b)));
}

/** One binding from the page: every field named; host * and pattern LITERAL unless given, as kafka-acls defaults them. */
export function bindingOf(body: Record<string, unknown> | undefined): ShownAcl {
  const text = (name: string, fallback?: string): string => {
    const value = body?.[name];
    if ((value === undefined || value === '') && fallback !== undefined) return fallback;
    if (typeof value !== 'string' || value === '') throw new BadRequest(`${name} must be a non-empty string`);
    return value;
  };
  return {
    resourceType: text('resourceType'), resourceName: text('resourceName'), patternType: text('patternType', 'LITERAL'),
    principal: text('principal'), host: text('host', '*'), operation: text('operation'), permissionType: text('permissionType', 'ALLOW'),
  };
}

function codesOf(acl: ShownAcl) {
  return {
    resourceType: codeOf(ResourceType, acl.resourceType, 'resourceType', ResourceType.UNKNOWN),
    patternType: codeOf(PatternType, acl.patternType, 'patternType', PatternType.UNKNOWN),
    operation: codeOf(AclOperation, acl.operation, 'operation', AclOperation.UNKNOWN),
    permissionType: codeOf(AclPermissionType, acl.permissionType, 'permissionType', AclPermissionType.UNKNOWN),
  };
}

export async function createAcl(kafka: KafkaCalls, acl: ShownAcl): Promise<void> {
  const codes = codesOf(acl);
  const response = await kafka.call(createAclsApi, 3, {
    ...createCreateAclsRequest(),
    creations: [{
      resourceType: codes.resourceType, resourceName: acl.resourceName, resourcePatternType: codes.patternType,
      principal: acl.principal, host: acl.host, operation: codes.operation, permissionType: codes.permissionType,
    }],
  });
  const result = response.results[0]!;
  checkError(result.errorCode, result.errorMessage);
}

/** Deletes the one binding given (a filter naming every field); returns how many ACLs went (0 or 1). */
export async function deleteAcl(kafka: KafkaCalls, acl: ShownAcl): Promise<number> {
  const codes = codesOf(acl);
  const response = await kafka.call(deleteAclsApi, 3, {
    ...createDeleteAclsRequest(),
    filters: [{
      resourceTypeFilter: codes.resourceType, resourceNameFilter: acl.resourceName, patternTypeFilter: codes.patternType,
      principalFilter: acl.principal, hostFilter: acl.host, operation: codes.operation, permissionType: codes.permissionType,
    }],
  });
  const result = response.filterResults[0]!;
  checkError(result.errorCode, result.errorMessage);
  for (const matching of result.matchingAcls) checkError(matching.errorCode, matching.errorMessage);
  return result.matchingAcls.length;
}
