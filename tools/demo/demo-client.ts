/** What the quick start's demo scripts share: a GraphQL call to the local api with the admin key. */
export const port = process.env.TROVE_API_PORT ?? '4000';
export const base = `http://127.0.0.1:${port}`;
export const apiKey = process.env.TROVE_ADMIN_API_KEY!;

export async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data!;
}
