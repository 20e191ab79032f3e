/**
 * The fields of a source type's configuration, read from the JSON Schema `sourceTypes` gives
 * (`configSchema`, secrets marked `writeOnly`): what the CLI makes flags of and the MCP server
 * describes. A type added to the API shows up here without a client change.
 */

/** How a field's value is written: what a flag parses and a form shows. */
export type ConfigFieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'string-list' | 'json';

export interface ConfigField {
  /** The key in `config`, e.g. `maxPages`. */
  name: string;
  kind: ConfigFieldKind;
  required: boolean;
  /** Sent once, never returned (the API shows a hint only). */
  secret: boolean;
  description?: string;
  /** `enum` fields: the values allowed. */
  choices?: string[];
  minimum?: number;
  maximum?: number;
  /** e.g. `uri`. */
  format?: string;
  default?: unknown;
}

type JsonSchema = Record<string, unknown>;

/** The fields of a configuration schema, in the schema's order. Unknown shapes become `json`. */
export function configFields(schema: unknown, secretFields: readonly string[] = []): ConfigField[] {
  if (!isObject(schema)) return [];
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'].map(String) : [];
  return Object.entries(properties).map(([name, raw]) => {
    const property = nonNull(isObject(raw) ? raw : {});
    const field: ConfigField = {
      name,
      kind: kindOf(property),
      required: required.includes(name),
      secret: secretFields.includes(name) || property['writeOnly'] === true,
    };
    if (typeof property['description'] === 'string') field.description = property['description'];
    if (field.kind === 'enum') field.choices = (property['enum'] as unknown[]).map(String);
    if (typeof property['minimum'] === 'number') field.minimum = property['minimum'];
    if (typeof property['maximum'] === 'number') field.maximum = property['maximum'];
    if (typeof property['format'] === 'string') field.format = property['format'];
    if (property['default'] !== undefined) field.default = property['default'];
    return field;
  });
}

/** `maxPages` → `max-pages`: the field's flag name. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase();
}

/** Words a label spells in capitals. */
const ACRONYMS: Record<string, string> = { url: 'URL', id: 'ID', ids: 'IDs', api: 'API', http: 'HTTP' };

/** `rootPageIds` → `Root page IDs`: a label for a form or a listing. */
export function fieldLabel(name: string): string {
  const words = kebabCase(name)
    .split('-')
    .filter(Boolean)
    .map((word) => ACRONYMS[word] ?? word)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A one-line summary of a field, e.g. `maxPages: integer 1..100000`. */
export function describeField(field: ConfigField): string {
  const type =
    field.kind === 'enum'
      ? `one of ${field.choices!.join(', ')}`
      : field.kind === 'string-list'
        ? 'list of strings'
        : field.kind;
  const range =
    field.minimum !== undefined || field.maximum !== undefined
      ? ` ${field.minimum ?? ''}..${field.maximum ?? ''}`
      : '';
  const flags = [field.required ? 'required' : 'optional', field.secret ? 'secret' : undefined]
    .filter(Boolean)
    .join(', ');
  return `${field.name}: ${type}${range}${field.format ? ` (${field.format})` : ''} [${flags}]${field.description ? ` — ${field.description}` : ''}`;
}

function kindOf(property: JsonSchema): ConfigFieldKind {
  if (Array.isArray(property['enum']) && property['enum'].every((value) => typeof value === 'string')) {
    return 'enum';
  }
  switch (property['type']) {
    case 'string':
      return 'string';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = isObject(property['items']) ? property['items'] : {};
      return items['type'] === 'string' ? 'string-list' : 'json';
    }
    default:
      return 'json';
  }
}

/** The non-null branch of a nullable property (`anyOf: [{…}, {type: 'null'}]`, `type: [x, 'null']`). */
function nonNull(property: JsonSchema): JsonSchema {
  const branches = property['anyOf'] ?? property['oneOf'];
  if (Array.isArray(branches)) {
    const real = branches.filter((branch) => isObject(branch) && branch['type'] !== 'null');
    if (real.length === 1) return { ...property, ...(real[0] as JsonSchema) };
  }
  if (Array.isArray(property['type'])) {
    const types = property['type'].filter((type) => type !== 'null');
    if (types.length === 1) return { ...property, type: types[0] };
  }
  return property;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
