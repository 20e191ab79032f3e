import type { StoredRagConfig } from '@trove/catalog';
import {
  type AnswersConfig,
  answersSchema,
  type ChunkingConfig,
  chunkingSchema,
  type LlmConfig,
  llmSchema,
  maskSecret,
  type RerankConfig,
  rerankSchema,
  searchSchema,
  type SecretBox,
} from '@trove/config';
import { TroveError, TroveErrorCode } from '@trove/domain';
import type { z } from 'zod';

/** The fusion part of the search settings: what changes results, not the request limits. */
export const fusionSchema = searchSchema.pick({
  fusion: true,
  rrfK: true,
  convexVectorWeight: true,
  convexNormalization: true,
});
export type FusionConfig = z.infer<typeof fusionSchema>;

/** Every setting that can change at runtime, by section (the embedding model is apart: it rebuilds the index). */
export interface RagSettings {
  search: FusionConfig;
  rerank: RerankConfig;
  llm: LlmConfig;
  answers: AnswersConfig;
  chunking: ChunkingConfig;
}
export type RagSection = keyof RagSettings;

/**
 * The schema of each section, refinements included (the same as the environment's): the one
 * definition of the settings that the GraphQL types and the MCP tools are checked against.
 */
export const RAG_SECTION_SCHEMAS: { [S in RagSection]: z.ZodType<RagSettings[S], z.ZodTypeDef, unknown> } = {
  search: fusionSchema,
  rerank: rerankSchema,
  llm: llmSchema,
  answers: answersSchema,
  chunking: chunkingSchema,
};
export const RAG_SECTIONS = Object.keys(RAG_SECTION_SCHEMAS) as RagSection[];

/**
 * Defaults for a process that uses only the chunking section (the worker): the other sections
 * are the schemas' defaults, never validated or used there.
 */
export function workerRagDefaults(chunking: ChunkingConfig): RagSettings {
  return {
    search: fusionSchema.parse({}),
    rerank: rerankSchema.parse({}),
    llm: llmSchema.parse({}),
    answers: answersSchema.parse({}),
    chunking,
  };
}

/** Settings stored sealed and shown only masked. */
export const SECRET_SETTINGS = new Set(['llm.apiKey', 'rerank.apiKey']);

/** A change: per section, settings to set; `reset` lists settings (or whole sections) back to the environment's. */
export interface RagPatch {
  set?: { [S in RagSection]?: Record<string, unknown> };
  reset?: string[];
}

/** The effective settings, and which of them come from an override. */
export interface EffectiveRagConfig {
  version: number;
  updatedAt?: string;
  settings: RagSettings;
  /** Paths (`section.setting`) whose value is an override. */
  overridden: Set<string>;
  /** Why stored settings are not in force here (e.g. a key this process cannot open). */
  warnings?: string[];
}

/**
 * The environment's settings overlaid with the stored overrides, each of `sections` validated with
 * its schema. Throws BAD_REQUEST listing every problem (setting names and messages, never values).
 */
export function resolveSettings(
  defaults: RagSettings,
  stored: Pick<StoredRagConfig, 'overrides' | 'secrets'>,
  secrets?: SecretBox,
  sections: readonly RagSection[] = RAG_SECTIONS,
): { settings: RagSettings; overridden: Set<string> } {
  const problems: string[] = [];
  const overridden = new Set<string>();
  // Sections this process does not use keep their defaults unchecked (the worker only chunks).
  const settings: RagSettings = { ...defaults };
  const resolveSection = <S extends RagSection>(section: S): void => {
    const overrides: Record<string, unknown> = { ...(stored.overrides[section] ?? {}) };
    for (const [path, sealed] of Object.entries(stored.secrets)) {
      const [s, name] = path.split('.');
      if (s !== section) continue;
      if (!secrets) {
        problems.push(`${path}: stored sealed, but TROVE_SECRET_KEY is not set on this process`);
        continue;
      }
      overrides[name] = secrets.decrypt(sealed);
    }
    for (const name of Object.keys(overrides)) {
      if (!(name in (defaults[section] as object)) && !isKnownSetting(section, name)) {
        problems.push(`${section}.${name}: no such setting`);
      }
      overridden.add(`${section}.${name}`);
    }
    const parsed = RAG_SECTION_SCHEMAS[section].safeParse({ ...defaults[section], ...overrides });
    if (parsed.success) settings[section] = parsed.data;
    else problems.push(...parsed.error.issues.map((i) => `${section}.${i.path.join('.')}: ${i.message}`));
  };
  for (const section of sections) resolveSection(section);
  if (problems.length > 0) {
    throw new TroveError(TroveErrorCode.BadRequest, `invalid settings: ${problems.join('; ')}`);
  }
  return { settings, overridden };
}

/** Optional settings (a key, a URL) are absent from the defaults when unset; the schema knows them. */
function isKnownSetting(section: RagSection, name: string): boolean {
  const schema = RAG_SECTION_SCHEMAS[section] as z.ZodTypeAny;
  const shape = (
    'shape' in schema ? schema.shape : (schema as z.ZodEffects<z.AnyZodObject>)._def.schema.shape
  ) as Record<string, unknown>;
  return name in shape;
}

/**
 * Applies a change to the stored overrides: secrets are sealed into `secrets`, a value equal to
 * nothing (null) or a `reset` path removes the override. Returns the new stored form; validation
 * is `resolveSettings`' job.
 */
export function applyPatch(
  stored: Pick<StoredRagConfig, 'overrides' | 'secrets'>,
  patch: RagPatch,
  secrets?: SecretBox,
): Pick<StoredRagConfig, 'overrides' | 'secrets'> {
  const overrides: StoredRagConfig['overrides'] = structuredClone(stored.overrides);
  const sealed: StoredRagConfig['secrets'] = { ...stored.secrets };
  for (const path of patch.reset ?? []) {
    const [section, name] = path.split('.');
    if (
      !RAG_SECTIONS.includes(section as RagSection) ||
      (name !== undefined && !isKnownSetting(section as RagSection, name))
    ) {
      throw new TroveError(TroveErrorCode.BadRequest, `cannot reset ${path}: no such setting or section`);
    }
    if (name === undefined) {
      delete overrides[section];
      for (const key of Object.keys(sealed)) if (key.startsWith(`${section}.`)) delete sealed[key];
    } else {
      delete overrides[section]?.[name];
      delete sealed[path];
    }
  }
  for (const [section, values] of Object.entries(patch.set ?? {})) {
    if (!RAG_SECTIONS.includes(section as RagSection)) {
      throw new TroveError(TroveErrorCode.BadRequest, `no settings section ${section}`);
    }
    for (const [name, value] of Object.entries(values ?? {})) {
      if (value === undefined) continue;
      const path = `${section}.${name}`;
      if (!isKnownSetting(section as RagSection, name)) {
        throw new TroveError(TroveErrorCode.BadRequest, `${path}: no such setting`);
      }
      if (SECRET_SETTINGS.has(path)) {
        if (value === null) {
          delete sealed[path];
          continue;
        }
        if (!secrets) {
          throw new TroveError(
            TroveErrorCode.BadRequest,
            `storing ${path} needs TROVE_SECRET_KEY (32 random bytes, base64) on the api and the worker`,
          );
        }
        sealed[path] = secrets.encrypt(String(value));
        continue;
      }
      if (value === null) {
        delete overrides[section]?.[name];
        continue;
      }
      (overrides[section] ??= {})[name] = value;
    }
  }
  for (const section of Object.keys(overrides))
    if (Object.keys(overrides[section]).length === 0) delete overrides[section];
  return { overrides, secrets: sealed };
}

/** The settings as the API shows them: each secret (`apiKey`) as `maskSecret` gives it. */
export type MaskedRagSettings = {
  [S in RagSection]: Omit<RagSettings[S], 'apiKey'> &
    ('apiKey' extends keyof RagSettings[S] ? { apiKey: string } : unknown);
};

/** The settings as the API shows them: secrets masked. */
export function maskedSettings(settings: RagSettings): MaskedRagSettings {
  return {
    search: settings.search,
    rerank: { ...settings.rerank, apiKey: maskSecret(settings.rerank.apiKey) },
    llm: { ...settings.llm, apiKey: maskSecret(settings.llm.apiKey) },
    answers: settings.answers,
    chunking: settings.chunking,
  };
}

/** The schemas' own defaults: each setting as it is when the environment does not set it. */
export const RAG_SCHEMA_DEFAULTS: RagSettings = workerRagDefaults(chunkingSchema.parse({}));
