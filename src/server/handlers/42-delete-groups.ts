/**
 * DeleteGroups (key 42), v0–v2: deletes empty groups and their committed offsets (tombstones in
 * __consumer_offsets). Per group: NON_EMPTY_GROUP while it has members, GROUP_ID_NOT_FOUND when it
 * does not exist. "" is a group like any other, as in Kafka 4.3.1. A share group's share state goes first
 * (the share coordinator's DeleteShareGroupState for its initialized, initializing and deleting partitions; a
 * failure keeps the group, with that error), as Kafka's deleteShareGroups. Versions: v2 is the flexible form.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { deleteGroupsApi, type DeleteGroupsRequest, type DeleteGroupsResponse } from '../../protocol/generated/delete-groups.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorizedNames, ResourceType } from '../authorization.js';

export const deleteGroupsHandler: Handler = defineHandler<DeleteGroupsRequest, DeleteGroupsResponse>({
  api: deleteGroupsApi,
  minVersion: 0,
  maxVersion: 2,

  async handle(ctx, request) {
    // Groups the client may not DELETE are answered after the others, GROUP_AUTHORIZATION_FAILED.
    const deletable = authorizedNames(ctx, AclOperation.DELETE, ResourceType.GROUP, request.groupsNames);
    const results = await ctx.broker.groups.deleteGroups(request.groupsNames.filter((g) => deletable.has(g)));
    // A deleted share group's share partitions no longer have state: the share-partition leader lets them go.
    for (const r of results) if (r.errorCode === ErrorCode.NONE) ctx.broker.replicaManager.sharePartitions.forgetGroup(r.groupId);
    for (const groupId of request.groupsNames) if (!deletable.has(groupId)) results.push({ groupId, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED });
    return { throttleTimeMs: 0, results };
  },
});
