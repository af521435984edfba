/**
 * DeleteGroups (key 42), v0–v2: deletes empty groups and their committed offsets (tombstones in
 * __consumer_offsets). Per group: NON_EMPTY_GROUP while it has members, GROUP_ID_NOT_FOUND when it
 * does not exist. "" is a group like any other, as in Kafka 4.3.1. Versions: v2 is the flexible form.
 */
import { deleteGroupsApi, type DeleteGroupsRequest, type DeleteGroupsResponse } from '../../protocol/generated/delete-groups.js';
import { defineHandler, type Handler } from '../handler.js';

export const deleteGroupsHandler: Handler = defineHandler<DeleteGroupsRequest, DeleteGroupsResponse>({
  api: deleteGroupsApi,
  minVersion: 0,
  maxVersion: 2,

  async handle(ctx, request) {
    const results = await ctx.broker.groups.deleteGroups(request.groupsNames);
    return { throttleTimeMs: 0, results };
  },
});
