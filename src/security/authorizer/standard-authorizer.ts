// Kafka's StandardAuthorizer (org.apache.kafka.metadata.authorizer.StandardAuthorizer, 4.3.1): THE place an access
// decision is made. super.users are allowed everything; otherwise the ACLs that apply to the resource (literal on its
// name, literal on *, prefixed on a prefix of its name) decide: a matching DENY wins, then a matching ALLOW; with no
// ACL on the resource at all, allow.everyone.if.no.acl.found decides. An ALLOW of READ, WRITE, DELETE or ALTER also
// allows DESCRIBE, one of ALTER_CONFIGS also DESCRIBE_CONFIGS; a DENY denies its own operation only; ALL is any.
// The ACLs are created, listed and deleted here too (Kafka's AclControlManager) and kept in an AclStore.
import {
  AclOperation, AclPermissionType, filterMatches, filterProblem, newAclProblem, PatternType, sameAcl, SUPPORTED_OPERATIONS, WILDCARD,
  WILDCARD_PRINCIPAL, type Acl, type AclFilter,
} from './acl.js';
import type { AclStore } from './acl-store.js';
import { authorizerSettingsOf, STANDARD_AUTHORIZER_CLASS, type BrokerConfig } from '../../config/index.js';

/** Who asks: the connection's principal ("User:alice") and the client's address as Java prints it (127.0.0.1). */
export interface Session {
  readonly principal: string;
  readonly host: string;
}

export interface AuthorizerSettings {
  /** super.users: principals separated by ';'. */
  readonly superUsers: readonly string[];
  /** allow.everyone.if.no.acl.found. */
  readonly allowEveryoneIfNoAclFound: boolean;
}

/** A creation's outcome: null, or the INVALID_REQUEST message Kafka gives. */
export type CreateResult = string | null;
/** A filter's outcome: the ACLs it deleted, or the INVALID_REQUEST message Kafka gives. */
export type DeleteResult = { readonly deleted: readonly Acl[] } | { readonly problem: string };

const IMPLIES_DESCRIBE: ReadonlySet<number> = new Set([AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER]);
const IMPLIES_DESCRIBE_CONFIGS: ReadonlySet<number> = new Set([AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS]);

export class StandardAuthorizer {
  private constructor(private readonly store: AclStore, private readonly settings: AuthorizerSettings, private acls: readonly Acl[]) {}

  static async open(store: AclStore, settings: AuthorizerSettings): Promise<StandardAuthorizer> {
    const authorizer = new StandardAuthorizer(store, settings, (await store.load()) ?? []);
    // Cluster mode: an ACL created or deleted through another broker decides here too from then on.
    store.watch?.((acls) => { authorizer.acls = acls; });
    return authorizer;
  }

  /** Whether `session` may do `operation` on the resource (type, name): StandardAuthorizerData.authorize. */
  authorize(session: Session, operation: number, resourceType: number, name: string): boolean {
    if (this.settings.superUsers.includes(session.principal)) return true;
    let found = false;
    let allowed = false;
    for (const acl of this.acls) {
      if (acl.resourceType !== resourceType || !appliesTo(acl, name)) continue;
      found = true;
      const result = decision(acl, session, operation);
      if (result === 'deny') return false;
      if (result === 'allow') allowed = true;
    }
    return allowed || (!found && this.settings.allowEveryoneIfNoAclFound);
  }

  /**
   * Whether `session` may do `operation` on some resource of the type (Authorizer.authorizeByResourceType, Kafka's
   * default method): allowed on a name no ACL covers, or an ALLOW (literal or prefixed) not dominated by a DENY.
   */
  authorizeByResourceType(session: Session, operation: number, resourceType: number): boolean {
    if (this.authorize(session, operation, resourceType, 'hardcode')) return true;
    const deny = { literal: new Set<string>(), prefixed: new Set<string>() };
    const allow = { literal: new Set<string>(), prefixed: new Set<string>() };
    for (const acl of this.acls) {
      if (acl.resourceType !== resourceType || !entryApplies(acl, session)) continue;
      if (acl.operation !== operation && acl.operation !== AclOperation.ALL) continue;
      const literal = acl.patternType === PatternType.LITERAL;
      if (acl.permissionType === AclPermissionType.DENY) {
        if (literal && acl.resourceName === WILDCARD) return false;
        (literal ? deny.literal : deny.prefixed).add(acl.resourceName);
      } else if (acl.permissionType === AclPermissionType.ALLOW) {
        if (literal && acl.resourceName === WILDCARD) return true;
        (literal ? allow.literal : allow.prefixed).add(acl.resourceName);
      }
    }
    const undominated = (name: string) => ![...name].some((_, i) => deny.prefixed.has(name.slice(0, i + 1)));
    return [...allow.literal].some((name) => !deny.literal.has(name) && undominated(name)) || [...allow.prefixed].some(undominated);
  }

  /** The authorizedOperations bit field of a resource (AuthHelper.authorizedOperations): bit n for operation code n. */
  authorizedOperations(session: Session, resourceType: number, name: string): number {
    return (SUPPORTED_OPERATIONS.get(resourceType) ?? []).filter((op) => this.authorize(session, op, resourceType, name))
      .reduce((field, op) => field | (1 << op), 0);
  }

  /** The ACLs a filter matches, in creation order. */
  describe(filter: AclFilter): Acl[] {
    return this.acls.filter((acl) => filterMatches(filter, acl));
  }

  /** Creates the ACLs (an existing one is a success, not a duplicate), then stores them: one result each. */
  async create(acls: readonly Acl[]): Promise<CreateResult[]> {
    const next = [...this.acls];
    const results = acls.map((acl) => {
      const problem = newAclProblem(acl);
      if (problem === null && !next.some((existing) => sameAcl(existing, acl))) next.push(acl);
      return problem;
    });
    await this.replace(next);
    return results;
  }

  /** Deletes what each filter matches (a refused filter deletes nothing), then stores the rest: one result each. */
  async delete(filters: readonly AclFilter[]): Promise<DeleteResult[]> {
    const results: DeleteResult[] = filters.map((filter) => {
      const problem = filterProblem(filter);
      return problem !== null ? { problem } : { deleted: this.acls.filter((acl) => filterMatches(filter, acl)) };
    });
    const deleted = new Set(results.flatMap((r) => ('deleted' in r ? r.deleted : [])));
    if (deleted.size > 0) await this.replace(this.acls.filter((acl) => !deleted.has(acl)));
    return results;
  }

  private async replace(acls: readonly Acl[]): Promise<void> {
    if (acls.length === this.acls.length && acls.every((acl, i) => acl === this.acls[i])) return;
    await this.store.save(acls, this.acls);
    this.acls = acls;
  }
}

/** Whether an ACL's pattern covers the resource name: literal equal or *, prefixed a prefix of it. */
function appliesTo(acl: Acl, name: string): boolean {
  if (acl.patternType === PatternType.LITERAL) return acl.resourceName === name || acl.resourceName === WILDCARD;
  return acl.patternType === PatternType.PREFIXED && name.startsWith(acl.resourceName);
}

function entryApplies(acl: Acl, session: Session): boolean {
  return (acl.principal === session.principal || acl.principal === WILDCARD_PRINCIPAL) && (acl.host === WILDCARD || acl.host === session.host);
}

/** StandardAuthorizerData.findResult: what one ACL on the resource says of the request, if anything. */
function decision(acl: Acl, session: Session, operation: number): 'allow' | 'deny' | null {
  if (!entryApplies(acl, session)) return null;
  const allow = acl.permissionType === AclPermissionType.ALLOW;
  if (acl.operation !== AclOperation.ALL) {
    // Implied operations come from ALLOW ACLs only: a DENY of READ does not deny DESCRIBE.
    const implied = !allow ? acl.operation === operation
      : operation === AclOperation.DESCRIBE ? IMPLIES_DESCRIBE.has(acl.operation)
      : operation === AclOperation.DESCRIBE_CONFIGS ? IMPLIES_DESCRIBE_CONFIGS.has(acl.operation)
      : acl.operation === operation;
    if (!implied) return null;
  }
  return allow ? 'allow' : 'deny';
}

/**
 * The authorizer `authorizer.class.name` asks for, or null (every request allowed, ACL APIs SECURITY_DISABLED). Reads
 * super.users and allow.everyone.if.no.acl.found as StandardAuthorizer.configure does; a super user that is not a
 * principal throws a one-line Error, as Kafka refuses to start.
 */
export function authorizerSettingsFrom(config: BrokerConfig): AuthorizerSettings | null {
  if (config['authorizer.class.name'] !== STANDARD_AUTHORIZER_CLASS) return null;
  const raw = authorizerSettingsOf(config);
  const superUsers = (raw['super.users'] ?? '').split(';').map((user) => user.trim()).filter((user) => user !== '');
  const bad = superUsers.find((user) => !user.includes(':'));
  if (bad !== undefined) throw new Error(`super.users: expected a string in format principalType:principalName but got ${bad}`);
  return { superUsers, allowEveryoneIfNoAclFound: (raw['allow.everyone.if.no.acl.found'] ?? '').trim().toLowerCase() === 'true' };
}
