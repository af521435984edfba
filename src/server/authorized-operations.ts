// The authorizedOperations fields' schema default, "not requested" (Integer.MIN_VALUE); what is authorized, when asked,
// comes from server/authorization.ts (every supported operation without an authorizer).
export { AUTHORIZED_OPERATIONS_OMITTED } from '../protocol/error-responses/define.js';
