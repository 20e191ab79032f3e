import { type ConfigFieldKind, configFields, fieldLabel } from '@trove/api-client/browser';

/**
 * A source type's form, from the JSON Schema `sourceTypes` gives of its configuration: which
 * input each field gets, the values a form starts from, and the `config` its values make. A type
 * added to the API gets its form without a dashboard change.
 */

/** The input a field gets. */
export type FormFieldKind = 'text' | 'url' | 'integer' | 'number' | 'boolean' | 'select' | 'list' | 'json';

export interface FormField {
  /** The key in `config`. */
  name: string;
  label: string;
  kind: FormFieldKind;
  required: boolean;
  /** A password input; left blank when editing, the stored secret stays. */
  secret: boolean;
  description?: string;
  options?: string[];
  min?: number;
  max?: number;
  default?: unknown;
}

/** What the inputs hold: text (lists one item per line, JSON as text), numbers, booleans. */
export type FormValues = Record<string, string | number | boolean>;

/** The form's fields, in the schema's order (read as the CLI and the MCP server read it). */
export function formFields(schema: unknown, secretFields: readonly string[] = []): FormField[] {
  return configFields(schema, secretFields).map((field) => {
    const form: FormField = {
      name: field.name,
      label: fieldLabel(field.name),
      kind: FORM_KINDS[field.kind],
      required: field.required,
      secret: field.secret,
    };
    if (field.kind === 'string' && field.format === 'uri') form.kind = 'url';
    if (field.description !== undefined) form.description = field.description;
    if (field.choices) form.options = field.choices;
    if (field.minimum !== undefined) form.min = field.minimum;
    if (field.maximum !== undefined) form.max = field.maximum;
    if (field.default !== undefined) form.default = field.default;
    return form;
  });
}

const FORM_KINDS: Record<ConfigFieldKind, FormFieldKind> = {
  string: 'text',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  enum: 'select',
  'string-list': 'list',
  json: 'json',
};

/**
 * The values a form starts from: a stored configuration's (editing), else each field's default.
 * Secrets always start blank.
 */
export function initialValues(
  fields: readonly FormField[],
  config: Record<string, unknown> = {},
): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = field.secret ? undefined : (config[field.name] ?? field.default);
    switch (field.kind) {
      case 'boolean':
        values[field.name] = value === true;
        break;
      case 'integer':
      case 'number':
        values[field.name] = typeof value === 'number' ? value : '';
        break;
      case 'list':
        values[field.name] = Array.isArray(value) ? value.map(String).join('\n') : '';
        break;
      case 'json':
        values[field.name] = value === undefined ? '' : JSON.stringify(value, null, 2);
        break;
      default:
        values[field.name] = value === undefined || value === null ? '' : String(value);
    }
  }
  return values;
}

/**
 * The `config` a form's values make. Adding: blank fields are left out (the type's defaults
 * apply). Editing (`editing`): a blank secret is left out (it stays as stored), another blank
 * optional field is `null` (cleared). A JSON field that does not parse is a problem of its own.
 */
export function configFromValues(
  fields: readonly FormField[],
  values: FormValues,
  editing = false,
): { config: Record<string, unknown>; problems: Record<string, string> } {
  const config: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      config[field.name] = value === true;
      continue;
    }
    const blank = value === undefined || value === '' || (typeof value === 'string' && value.trim() === '');
    if (blank) {
      if (editing && !field.secret) config[field.name] = null;
      continue;
    }
    switch (field.kind) {
      case 'integer':
      case 'number':
        config[field.name] = typeof value === 'number' ? value : Number(value);
        break;
      case 'list':
        config[field.name] = String(value)
          .split(/[\n,]+/)
          .map((item) => item.trim())
          .filter(Boolean);
        break;
      case 'json':
        try {
          config[field.name] = JSON.parse(String(value)) as unknown;
        } catch {
          problems[field.name] = 'not valid JSON';
        }
        break;
      default:
        config[field.name] = typeof value === 'string' ? value.trim() : value;
    }
  }
  return { config, problems };
}

/**
 * The API's problems by the form's field (`config.maxPages` → `maxPages`); problems with no field
 * of the form (the type, an unknown key) under `''`.
 */
export function problemsByField(
  problems: readonly { field: string; message: string }[],
  fields: readonly FormField[],
): Record<string, string> {
  const names = new Set(fields.map((field) => field.name));
  const byField: Record<string, string> = {};
  for (const problem of problems) {
    const name = problem.field.replace(/^config\./, '').split('.')[0];
    const key = names.has(name) ? name : '';
    const message = key ? problem.message : `${problem.field}: ${problem.message}`;
    byField[key] = byField[key] ? `${byField[key]}; ${message}` : message;
  }
  return byField;
}

/**
 * The fields a form shows up front and those under "Advanced": the required ones up front, the
 * optional ones behind. A type whose schema requires nothing (a folder's path is optional only
 * because an uploaded archive has none) shows its first field up front, so its form never opens
 * empty.
 */
export function splitFields(fields: readonly FormField[]): { basic: FormField[]; advanced: FormField[] } {
  const required = fields.filter((field) => field.required);
  const basic = required.length > 0 ? required : fields.slice(0, 1);
  return { basic, advanced: fields.filter((field) => !basic.includes(field)) };
}

/**
 * A description in words with the server settings it names set apart: `… may read (setting
 * TROVE_FOLDER_ROOTS)` reads as `… may read`, with `TROVE_FOLDER_ROOTS` as a secondary hint for
 * whoever runs the server.
 */
export function describedSettings(description: string | undefined): { text?: string; settings: string[] } {
  if (description === undefined) return { settings: [] };
  const settings: string[] = [];
  const text = description
    .replace(
      /\s*\(setting ((?:TROVE_[A-Z0-9_]+)(?:,? (?:or |and )?TROVE_[A-Z0-9_]+)*)\)/g,
      (_, names: string) => {
        settings.push(...(names.match(/TROVE_[A-Z0-9_]+/g) ?? []));
        return '';
      },
    )
    .trim();
  return { text, settings };
}
