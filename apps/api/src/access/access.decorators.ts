import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { AuditAction, Permission, Principal, RecordKind } from '@trove/domain';
import { principalOf } from './request-principal';

/** The kinds of record a request may name, each belonging to one project. */
export type TargetKind = RecordKind | 'chunk';

/**
 * The record an operation acts on: where its id is (a GraphQL argument path such as
 * `input.projectId`, or a REST path parameter) and what a missing one gets. Out of the key's
 * project scope and missing are one and the same answer, so a key never learns that a record of
 * another project exists.
 */
export interface AccessTarget {
  kind: TargetKind;
  path: string;
  /** The operation answers null for a missing record (a nullable lookup); otherwise NOT_FOUND. */
  nullable: boolean;
}

export interface AccessRule {
  permission: Permission;
  target?: AccessTarget;
  /**
   * A path parameter holding a document id whose signed link (`?sig=`) stands in for a key
   * (links to originals in citations).
   */
  signedLinkFor?: string;
  /**
   * What the audit log records this operation as (its outcome too); `false` for an operation
   * that changes nothing worth recording. Every mutation and every REST route that is not a GET
   * says one or the other, or the api refuses to start.
   */
  audit?: AuditAction | false;
  /**
   * Only people may call it (`person`), or only people signed in interactively, not with a
   * personal token (`signed-in person`: making tokens, so a leaked token cannot mint more).
   */
  caller?: 'person' | 'signed-in person';
  /**
   * A search or an ask: counted per caller and day in the audit log's query counts, or recorded
   * with its text (at the argument path `text`) when full query logging is on.
   */
  countsAs?: { kind: 'search' | 'ask'; text: string };
}

export const ACCESS_RULE = 'trove:access';
export const PUBLIC = 'trove:public';

/**
 * Declares what a resolver or route needs: a permission, and the record whose project the key
 * must reach. Every operation has this or `@Public()`; the api refuses to start otherwise.
 */
export function Requires(
  permission: Permission,
  target?: AccessTarget,
  options: Pick<AccessRule, 'signedLinkFor' | 'audit' | 'caller' | 'countsAs'> = {},
) {
  return applyDecorators(SetMetadata(ACCESS_RULE, { permission, target, ...options } satisfies AccessRule));
}

/** Marks a route that needs no API key (probes, Notion webhooks: authenticated otherwise). */
export const Public = () => SetMetadata(PUBLIC, true);

const target =
  (kind: TargetKind) =>
  (path: string, options: { nullable?: boolean } = {}): AccessTarget => ({
    kind,
    path,
    nullable: options.nullable ?? false,
  });

/** The operation acts on the project whose id is at `path`. */
export const project = target('project');
/** … on the document whose id is at `path` (and so on its project). */
export const document = target('document');
export const source = target('source');
export const syncRun = target('syncRun');
export const chunk = target('chunk');
/** … on the conversation thread whose id is at `path` (its owner is checked by the operation). */
export const thread = target('thread');
/** … on the recorded answer whose id is at `path`. */
export const answer = target('answer');

/** The caller's principal (role and project scope), for operations that list across projects. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal =>
  principalOf(context)!,
);
