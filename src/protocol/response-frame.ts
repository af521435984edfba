// A response as it goes on the wire: size prefix, response header (the version its API and version call for), body.
import { Writer } from './io/writer.js';
import { encodeResponseHeader, responseHeaderVersion } from './generated/headers.js';
import type { ApiDescriptor } from './generated/api-descriptor.js';

/** One Writer's buffers, handed to the socket as they are. */
export function encodeResponseFrame<Res>(api: ApiDescriptor<unknown, Res>, correlationId: number, response: Res, version: number): Buffer[] {
  const w = new Writer();
  w.int32(0);
  encodeResponseHeader(w, { correlationId }, responseHeaderVersion(api.apiKey, version));
  api.encodeResponse(w, response, version);
  w.patchInt32(0, w.length - 4);
  return w.finish();
}
