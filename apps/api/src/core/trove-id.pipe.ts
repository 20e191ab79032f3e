import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { isChunkId, isTroveId, TroveError, TroveErrorCode } from '@trove/domain';

/** GraphQL arguments and REST path parameters that carry an id, by name. */
const ID_NAMES = new Set(['id', 'projectId', 'sourceId', 'documentId']);

/**
 * Global pipe: an id argument (GraphQL `id`, `projectId`… or a REST `:projectId`…) must have the
 * shape of a Trove id before any service sees it, so a malformed one is a BAD_REQUEST rather than
 * a backend error. `id` also takes chunk ids (the `chunk(id:)` query); which kind of record an
 * id names is for the service to tell (NOT_FOUND).
 */
@Injectable()
export class TroveIdPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // GraphQL arguments arrive typed 'body' (Nest maps them so); REST query strings are not ids.
    if (metadata.type === 'query') return value;
    if (typeof value !== 'string' || !metadata.data || !ID_NAMES.has(metadata.data)) return value;
    if (isTroveId(value) || (metadata.data === 'id' && isChunkId(value))) return value;
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `${metadata.data} is not a valid id (a UUID or a 32-digit hexadecimal document id)`,
    );
  }
}
