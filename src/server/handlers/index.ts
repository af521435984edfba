/**
 * THE registry: the only place an API is registered. One handler per API key, each in its own
 * handlers/NN-api-name.ts with its version range; ApiVersions is derived from this list.
 */
import type { Handler } from '../handler.js';
import { metadataHandler } from './03-metadata.js';
import { apiVersionsHandler } from './18-api-versions.js';

export const handlers: readonly Handler[] = [
  metadataHandler,
  apiVersionsHandler,
];
