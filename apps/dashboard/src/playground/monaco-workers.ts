// GraphiQL's editor (Monaco) runs its language services in web workers, bundled by Vite from
// these `?worker` imports (same-origin files, allowed by the CSP's worker-src). The same setup as
// graphiql/setup-workers/vite, written here because Vite's development pre-bundling cannot follow
// `?worker` imports inside a dependency.
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import GraphQLWorker from 'monaco-graphql/esm/graphql.worker.js?worker';

(globalThis as { MonacoEnvironment?: unknown }).MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    if (label === 'json') return new JsonWorker();
    if (label === 'graphql') return new GraphQLWorker();
    return new EditorWorker();
  },
};
