/**
 * Writes JSON schemas of Kubernetes objects in the layout kubeconform reads
 * (`{kind}-{group}-{version}.json`, e.g. `deployment-apps-v1.json`, `service-v1.json`), from
 * Kubernetes' own OpenAPI v2 document (`api/openapi-spec/swagger.json` of the k8s.io/kubernetes
 * module) and from CustomResourceDefinition files (e.g. prometheus-operator's ServiceMonitor), so
 * rendered manifests are validated without downloading schemas. Strict like kubeconform's
 * `-strict` schemas: a field a type does not define is an error.
 *
 *   node -r @swc-node/register tools/ci/kubernetes-json-schemas.ts OUT_DIR SWAGGER_JSON [CRD_YAML...]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

type Schema = { [key: string]: unknown };

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** kubeconform's file name for a kind: the group's first label only (`monitoring.coreos.com` → `monitoring`). */
export function schemaFileName({ group, version, kind }: GroupVersionKind): string {
  const groupPart = group ? `-${group.split('.')[0]}` : '';
  return `${kind}${groupPart}-${version}.json`.toLowerCase();
}

/**
 * The adjustments kubeconform's own converter (openapi2jsonschema) makes: objects with declared
 * properties refuse others, `int-or-string` accepts both, and quantities (`cpu: 1`) accept numbers.
 */
export function tighten(schema: unknown, refPrefix: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => tighten(item, refPrefix));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    if (key === 'description') continue; // halves the files; messages name the field anyway
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace(/^#\/definitions\//, refPrefix);
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([name, property]) => [name, tighten(property, refPrefix)]),
      );
    } else out[key] = tighten(value, refPrefix);
  }
  if (out.format === 'int-or-string' || out['x-kubernetes-int-or-string'] === true) {
    delete out.format;
    delete out.type;
    delete out.anyOf;
    out.oneOf = [{ type: 'string' }, { type: 'integer' }];
  }
  if (out.properties && !('additionalProperties' in out) && !out['x-kubernetes-preserve-unknown-fields']) {
    out.additionalProperties = false;
  }
  return out;
}

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

function fromSwagger(outDir: string, swaggerPath: string): number {
  const swagger = JSON.parse(readFileSync(swaggerPath, 'utf8')) as { definitions: Record<string, Schema> };
  const definitions = swagger.definitions;
  definitions[QUANTITY] = { oneOf: [{ type: 'string' }, { type: 'number' }] };
  const shared: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(definitions))
    shared[name] = tighten(definition, '#/definitions/');
  writeFileSync(join(outDir, '_definitions.json'), JSON.stringify({ definitions: shared }));
  let written = 0;
  for (const definition of Object.values(definitions)) {
    const kinds = definition['x-kubernetes-group-version-kind'] as GroupVersionKind[] | undefined;
    for (const gvk of kinds ?? []) {
      const schema = tighten(definition, '_definitions.json#/definitions/') as Schema;
      writeFileSync(join(outDir, schemaFileName(gvk)), JSON.stringify(schema));
      written++;
    }
  }
  return written;
}

interface CustomResourceDefinition {
  kind: string;
  spec: {
    group: string;
    names: { kind: string };
    versions: { name: string; schema?: { openAPIV3Schema?: Schema } }[];
  };
}

function fromCrds(outDir: string, path: string): number {
  let written = 0;
  for (const document of parseAllDocuments(readFileSync(path, 'utf8'))) {
    const crd = document.toJS() as CustomResourceDefinition | null;
    if (crd?.kind !== 'CustomResourceDefinition') continue;
    for (const version of crd.spec.versions) {
      const schema = version.schema?.openAPIV3Schema;
      if (!schema) continue;
      const gvk = { group: crd.spec.group, version: version.name, kind: crd.spec.names.kind };
      writeFileSync(join(outDir, schemaFileName(gvk)), JSON.stringify(tighten(schema, '#/definitions/')));
      written++;
    }
  }
  return written;
}

function main(): void {
  const [outDir, swaggerPath, ...crdPaths] = process.argv.slice(2);
  if (!outDir || !swaggerPath) {
    console.error('usage: kubernetes-json-schemas.ts OUT_DIR SWAGGER_JSON [CRD_YAML...]');
    process.exit(2);
  }
  mkdirSync(outDir, { recursive: true });
  let written = fromSwagger(outDir, swaggerPath);
  for (const path of crdPaths) written += fromCrds(outDir, path);
  console.error(`[kubernetes-json-schemas] ${written} schemas in ${outDir}`);
}

if (require.main === module) main();
