import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Import cycles among the TypeScript files under `roots`, type-only imports included (a port file
 * importing a record type from its implementation is a cycle too). Only relative imports are
 * followed: cycles between libs are the module-boundary rule's job. Each cycle is listed once, as
 * the files of one strongly connected component, relative to `base`.
 */
export function importCycles(roots: string[], base = process.cwd()): string[][] {
  const files = roots.flatMap((root) => tsFiles(resolve(base, root)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      importedFiles
        .map((i) => i.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => resolveImport(dirname(file), name))
        .filter((target): target is string => target !== undefined),
    );
  }
  return stronglyConnected(graph)
    .filter((component) => component.length > 1 || graph.get(component[0])?.includes(component[0]))
    .map((component) => component.map((file) => relative(base, file)).sort());
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(from, specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Tarjan's algorithm: the graph's strongly connected components. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}
