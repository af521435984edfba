// Where the ACLs outlive a restart (Kafka: AccessControlEntryRecords in the metadata log; gregor:
// <log.dir>/gregor-acls.json through a StateStore, the memory engine in memory), in the order they were created.
import { fileStateStore, memoryStateStore, parseStateFile, type StateStore } from '../../storage/file/state-file.js';
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
  return acls.map((entry: unknown, i) => {
    const acl = entry as Record<string, unknown>;
    if (typeof acl !== 'object' || acl === null || STRINGS.some((k) => typeof acl[k] !== 'string') || CODES.some((k) => !Number.isInteger(acl[k]))) {
      return fail(`acls[${i}] must hold resourceType, resourceName, patternType, principal, host, operation and permissionType`);
    }
    return {
      resourceType: acl['resourceType'] as number, resourceName: acl['resourceName'] as string, patternType: acl['patternType'] as number,
      principal: acl['principal'] as string, host: acl['host'] as string, operation: acl['operation'] as number, permissionType: acl['permissionType'] as number,
    };
  });
}
