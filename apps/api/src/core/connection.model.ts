import { type Type } from '@nestjs/common';
import { ArgsType, Field, Int, ObjectType } from '@nestjs/graphql';
import type { Page } from '@trove/catalog';

@ObjectType('PageInfo')
export class PageInfoModel {
  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page' })
  endCursor?: string;
  @Field() hasNextPage!: boolean;
}

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 50, description: 'Items per page, 1–500' })
  first!: number;
  @Field(() => String, { nullable: true, description: 'The `endCursor` of the previous page' })
  after?: string;
}

/** A cursor-paged list in the usual GraphQL shape (`edges`/`nodes`, `pageInfo`, `totalCount`). */
export function Connection<T>(node: Type<T>, name: string) {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field() cursor!: string;
    @Field(() => node) node!: T;
  }

  @ObjectType(`${name}Connection`, { isAbstract: true })
  abstract class ConnectionType {
    @Field(() => [Edge]) edges!: Edge[];
    @Field(() => [node], { description: 'The items of this page (the nodes of `edges`)' }) nodes!: T[];
    @Field(() => PageInfoModel) pageInfo!: PageInfoModel;
    @Field(() => Int, { description: 'Items matching the filter, over all pages' }) totalCount!: number;
  }
  return ConnectionType;
}

/** A catalog page as a connection; every edge's cursor is the page's cursor scheme applied to it. */
export function toConnection<T>(page: Page<T>, cursorOf: (item: T) => string) {
  return {
    edges: page.items.map((item) => ({ cursor: cursorOf(item), node: item })),
    nodes: page.items,
    pageInfo: { endCursor: page.endCursor, hasNextPage: page.hasNextPage },
    totalCount: page.totalCount,
  };
}
