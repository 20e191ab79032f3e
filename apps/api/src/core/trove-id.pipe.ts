import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { isAnswerId, isChunkId, isThreadId, isTroveId, TroveError, TroveErrorCode } from '@trove/domain';

/** GraphQL arguments and REST path parameters that carry an id, by name, and the ids each takes. */
const ID_NAMES: Record<string, (value: string) => boolean> = {
  id: (value) => isTroveId(value) || isChunkId(value) || isThreadId(value) || isAnswerId(value),
  projectId: isTroveId,
  sourceId: isTroveId,
  documentId: isTroveId,
  threadId: isThreadId,
  answerId: isAnswerId,
};
const ID_SHAPES: Record<string, string> = { threadId: 'thr_<uuid>', answerId: 'ans_<uuid>' };

/**
 * Global pipe: an id argument (GraphQL `id`, `projectId`… or a REST `:projectId`…) must have the
 * shape of a Trove id before any service sees it, so a malformed one is a BAD_REQUEST rather than
 * a backend error. `id` also takes chunk, thread and answer ids (`chunk(id:)`, `thread(id:)`);
 * which kind of record an id names is for the service to tell (NOT_FOUND).
 */
@Injectable()
export class TroveIdPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // GraphQL arguments arrive typed 'body' (Nest maps them so); REST query strings are not ids.
    if (metadata.type === 'query') return value;
    if (typeof value !== 'string' || !metadata.data || !Object.hasOwn(ID_NAMES, metadata.data)) return value;
    if (ID_NAMES[metadata.data](value)) return value;
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `${metadata.data} is not a valid id (${ID_SHAPES[metadata.data] ?? 'a UUID or a 32-digit hexadecimal document id'})`,
    );
  }
}
