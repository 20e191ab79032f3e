/** OpenAI's limit on the number of texts in one embeddings request. */
export const MAX_BATCH = 2048;

/** A validated `POST /v1/embeddings` body. */
export interface EmbeddingsRequest {
  /** The requested model name, echoed in the response; undefined when the request names none. */
  model: string | undefined;
  input: string[];
  encodingFormat: 'float' | 'base64';
}

/** A request the stub refuses with 400, in OpenAI's error shape (`param` names the field at fault). */
export class InvalidRequestError extends Error {
  constructor(
    message: string,
    readonly param: string | null,
  ) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}

/**
 * Validates an embeddings request body the way OpenAI does: `input` is a string or a non-empty
 * array of at most `maxBatch` strings (token arrays are not supported), `encoding_format` is `float`
 * or `base64`, and `dimensions`, when given, must be the stub's own. Throws {@link InvalidRequestError}.
 */
export function parseEmbeddingsRequest(
  body: unknown,
  limits: { dimensions: number; maxBatch: number },
): EmbeddingsRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequestError('the request body must be a JSON object', null);
  }
  const { model, input, encoding_format: encodingFormat, dimensions } = body as Record<string, unknown>;
  if (model !== undefined && (typeof model !== 'string' || model === '')) {
    throw new InvalidRequestError("'model' must be a non-empty string", 'model');
  }
  if (encodingFormat !== undefined && encodingFormat !== 'float' && encodingFormat !== 'base64') {
    throw new InvalidRequestError("'encoding_format' must be 'float' or 'base64'", 'encoding_format');
  }
  if (dimensions !== undefined && dimensions !== limits.dimensions) {
    throw new InvalidRequestError(
      `this server makes ${limits.dimensions}-dimensional vectors; 'dimensions' ${JSON.stringify(dimensions)} is not supported`,
      'dimensions',
    );
  }
  return { model, input: parseInput(input, limits.maxBatch), encodingFormat: encodingFormat ?? 'float' };
}

function parseInput(input: unknown, maxBatch: number): string[] {
  if (input === undefined) throw new InvalidRequestError("missing 'input'", 'input');
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input)) {
    throw new InvalidRequestError("'input' must be a string or an array of strings", 'input');
  }
  if (input.length === 0) throw new InvalidRequestError("'input' must not be empty", 'input');
  if (input.length > maxBatch) {
    throw new InvalidRequestError(
      `'input' holds ${input.length} texts; at most ${maxBatch} are allowed per request`,
      'input',
    );
  }
  const wrong = input.findIndex((text) => typeof text !== 'string');
  if (wrong >= 0) {
    throw new InvalidRequestError(
      `'input' must be a string or an array of strings; input[${wrong}] is ${describe(input[wrong])} (token arrays are not supported)`,
      'input',
    );
  }
  return input as string[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
