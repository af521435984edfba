// Confluent Schema Registry's errors: an HTTP status, its error_code and message, as its REST API answers them
// ({"error_code": 40401, "message": "Subject 'x' not found."}). Every refusal of the registry is one of these.

export class RegistryError extends Error {
  constructor(readonly status: number, readonly errorCode: number, message: string) {
    super(message);
  }
}

export const subjectNotFound = (subject: string) => new RegistryError(404, 40401, `Subject '${subject}' not found.`);
export const versionNotFound = (version: number) => new RegistryError(404, 40402, `Version ${version} not found.`);
export const schemaNotFound = (id?: number) => new RegistryError(404, 40403, id === undefined ? 'Schema not found' : `Schema ${id} not found`);
export const subjectSoftDeleted = (subject: string) =>
  new RegistryError(404, 40404, `Subject '${subject}' was soft deleted.Set permanent=true to delete permanently`);
export const subjectNotSoftDeleted = (subject: string) =>
  new RegistryError(404, 40405, `Subject '${subject}' was not deleted first before being permanently deleted`);
export const versionSoftDeleted = (subject: string, version: number) =>
  new RegistryError(404, 40406, `Subject '${subject}' Version ${version} was soft deleted.Set permanent=true to delete permanently`);
export const versionNotSoftDeleted = (subject: string, version: number) =>
  new RegistryError(404, 40407, `Subject '${subject}' Version ${version} was not deleted first before being permanently deleted`);
export const subjectCompatibilityNotConfigured = (subject: string) =>
  new RegistryError(404, 40408, `Subject '${subject}' does not have subject-level compatibility configured`);
export const subjectModeNotConfigured = (subject: string) =>
  new RegistryError(404, 40409, `Subject '${subject}' does not have subject-level mode configured`);

/** Confluent 8's error_code for an incompatible schema (it was 409, the HTTP status, before 8.0.4). */
export const incompatibleSchema = (message: string) => new RegistryError(409, 40901, message);

export const invalidSchema = (message: string) => new RegistryError(422, 42201, message);
export const invalidVersion = (version: string) =>
  new RegistryError(422, 42202, `The specified version '${version}' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"`);
export const invalidCompatibilityLevel = () =>
  new RegistryError(422, 42203, 'Invalid compatibility level. Valid values are none, backward, forward, full, backward_transitive, forward_transitive, and full_transitive');
export const invalidMode = (message = 'Invalid mode. Valid values are READWRITE, READONLY, IMPORT and FORWARD.') => new RegistryError(422, 42204, message);
export const operationNotPermitted = (message: string) => new RegistryError(422, 42205, message);
export const referenceExists = (schemaKey: string) => new RegistryError(422, 42206, `One or more references exist to the schema ${schemaKey}.`);
export const invalidSubject = (subject: string) => new RegistryError(422, 42208, `The specified subject '${subject}' is not a valid.`);
export const invalidRuleSet = (message: string) => new RegistryError(422, 42210, message);
export const contextNotEmpty = (context: string) => new RegistryError(422, 42211, `The specified context '${context}' is not empty.`);

/** Jersey's answer to a request body that is not the JSON expected (Confluent's RestService code 50005 is the client's). */
export const unprocessableBody = (message: string) => new RegistryError(422, 422, message);
export const storeError = (message: string) => new RegistryError(500, 50001, message);
export const notFound = () => new RegistryError(404, 404, 'HTTP 404 Not Found');
