/** What `addSource` takes: any registered type with its config (secrets as plain strings). */
export interface NewSource {
  projectId: string;
  name: string;
  /** One of the types `sourceTypes` lists, e.g. NOTION, FOLDER, WEB, GIT. */
  type: string;
  config: unknown;
}

/** A GraphQL call that returns the data or throws the errors (`TroveStack.query`, a bench stack's `gql`). */
export type GraphqlQuery = <T>(query: string, variables: Record<string, unknown>) => Promise<T>;

/**
 * The generic mutation every source is added with, selecting `fields` of the new source; for a
 * test that reads the raw answer (`stack.gql(addSourceMutation(), { input })`), e.g. a refusal.
 */
export function addSourceMutation(fields = 'id'): string {
  return `mutation($input: AddSourceInput!) { addSource(input: $input) { ${fields} } }`;
}

/** Adds a source through `addSource` and returns the `fields` asked for (by default its id). */
export async function addSource<T = { id: string }>(
  query: GraphqlQuery,
  input: NewSource,
  fields = 'id',
): Promise<T> {
  const data = await query<{ addSource: T }>(addSourceMutation(fields), { input });
  return data.addSource;
}
