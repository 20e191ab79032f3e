import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { z } from 'zod';
import { UsageError } from '../output/exit-codes';

/** The per-folder file `trove` looks for in the working folder and its parents. */
export const TROVE_YAML = '.trove.yaml';

export const SEARCH_MODES = ['HYBRID', 'KEYWORD', 'VECTOR'] as const;
export type SearchModeName = (typeof SEARCH_MODES)[number];

/** What a .trove.yaml may hold. Keys stay out of it: `apiKeyFile` names a file holding one. */
export const troveYamlSchema = z
  .object({
    apiUrl: z.string().url('must be a URL such as http://127.0.0.1:4000').optional(),
    project: z.string().trim().min(1, 'must name a project (its id or name)').optional(),
    mode: z.enum(SEARCH_MODES).optional(),
    apiKeyFile: z.string().trim().min(1, 'must name a file holding the API key').optional(),
    apiKey: z
      .undefined({
        invalid_type_error:
          'keep API keys out of .trove.yaml (it is easily committed): use apiKeyFile, TROVE_API_KEY or --api-key',
      })
      .optional(),
  })
  .strict();
export type TroveYaml = Omit<z.infer<typeof troveYamlSchema>, 'apiKey'>;

/** The nearest .trove.yaml from `cwd` up to the file system's root, if any. */
export function findTroveYaml(cwd: string): string | undefined {
  let folder = resolve(cwd);
  for (;;) {
    const candidate = join(folder, TROVE_YAML);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** Reads and validates one .trove.yaml; every problem names the file and the field. */
export function readTroveYaml(path: string, text = readFileSync(path, 'utf8')): TroveYaml {
  const document = parseDocument(text);
  if (document.errors.length) {
    throw new UsageError(
      `${path}: not valid YAML: ${document.errors[0]!.message.split('\n')[0]}`,
      'BAD_CONFIG',
    );
  }
  const value = (document.toJS() as unknown) ?? {};
  const parsed = troveYamlSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} (known: apiUrl, project, mode, apiKeyFile)`
        : `${issue.path.join('.') || '(top level)'}: ${issue.message}`,
    );
    throw new UsageError(`${path}: ${problems.join('; ')}`, 'BAD_CONFIG');
  }
  return parsed.data;
}

/** Writes a .trove.yaml; refuses to replace one unless `force`. */
export function writeTroveYaml(path: string, settings: TroveYaml, force: boolean): void {
  if (existsSync(path) && !force) {
    throw new UsageError(`${path} exists; add --force to replace it`, 'CONFIG_EXISTS');
  }
  const checked = readTroveYaml(path, stringify(settings));
  const header =
    '# trove CLI settings for this folder and its subfolders (flags and TROVE_* variables override them).\n' +
    '# Keep API keys out of this file: use TROVE_API_KEY, --api-key or apiKeyFile.\n';
  writeFileSync(path, header + stringify(checked));
}
