// Where the ACLs outlive a restart (Kafka: AccessControlEntryRecords in the metadata log; gregor:
// <log.dir>/gregor-acls.json through a StateStore, the memory engine in memory, cluster mode one etcd key per ACL
// (ACL_ENTRIES)), in the order they were created.
import { entryObject, fileStateStore, memoryStateStore, parseStateFile, type StateEntries, type StateStore } from '../../storage/file/state-file.js';
import type { Acl } from './acl.js';

export const ACLS_FILE = 'gregor-acls.json';
const FORMAT_VERSION = 1;

export type AclStore = StateStore<readonly Acl[]>;

export function memoryAclStore(): AclStore {
  return memoryStateStore('stored ACLs', (acls) => [...acls]);
}

export function fileAclStore(logDir: string): AclStore {
  return fileStateStore(logDir, ACLS_FILE, formatAcls, parseAcls);
}

export function formatAcls(acls: readonly Acl[]): string {
  return JSON.stringify({ version: FORMAT_VERSION, acls }, null, 2) + '\n';
}

const STRINGS = ['resourceName', 'principal', 'host'] as const;
const CODES = ['resourceType', 'patternType', 'operation', 'permissionType'] as const;

export function parseAcls(text: string, path: string): readonly Acl[] {
  const { record, fail } = parseStateFile(text, path, FORMAT_VERSION, 'the ACLs');
  const acls = record['acls'];
  if (!Array.isArray(acls)) return fail('"acls" must be an array');
  return acls.map((entry: unknown, i) => aclOf(entry) ?? fail(`acls[${i}] must hold resourceType, resourceName, patternType, principal, host, operation and permissionType`));
}

/** The ACL a stored object holds, its fields in one order; undefined when one is missing or of the wrong type. */
function aclOf(entry: unknown): Acl | undefined {
  const acl = entry as Record<string, unknown>;
  if (typeof acl !== 'object' || acl === null || STRINGS.some((k) => typeof acl[k] !== 'string') || CODES.some((k) => !Number.isInteger(acl[k]))) return undefined;
  return {
    resourceType: acl['resourceType'] as number, resourceName: acl['resourceName'] as string, patternType: acl['patternType'] as number,
    principal: acl['principal'] as string, host: acl['host'] as string, operation: acl['operation'] as number, permissionType: acl['permissionType'] as number,
  };
}

/** Cluster mode: one entry per ACL, named by all its fields (the same ACL created through two brokers is one entry). */
export const ACL_ENTRIES: StateEntries<readonly Acl[]> = {
  holds: 'the ACLs',
  toEntries: (acls) => new Map(acls.map((acl) => {
    const normal = aclOf(acl)!;
    return [encodeURIComponent(JSON.stringify(Object.values(normal))), JSON.stringify(normal)];
  })),
  fromEntries: (entries) => [...entries].map(([name, value]) =>
    aclOf(entryObject('the ACLs', name, value)) ?? ((): never => { throw new Error(`the ACLs: entry ${name} is not an ACL`); })()),
};
