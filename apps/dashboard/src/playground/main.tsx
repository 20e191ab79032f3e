import './monaco-workers';
import 'graphiql/style.css';
import './playground.css';
import { GraphiQL } from 'graphiql';
import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { lastProjectId, startingProject } from '../api/last-project';
import { currentSession } from '../api/people-session';
import { API_KEY_STORAGE } from '../api/session';
import { exampleTabs, type ExampleContext } from './examples';
import { authenticatedFetcher, type Credential, namespacedStorage } from './playground-fetcher';

/** The Headers pane starts without the key: it is added to each request, never printed. */
const HEADERS_NOTE = `// Your API key (or signed-in session) is added to every request for you, not shown here.
// Add other headers as JSON, e.g. { "X-Trove-Trace": "1" }.
{}
`;

interface Start {
  credential: Credential | null;
  context: ExampleContext;
}

/** The caller's credential, then the project to start in and one of its sources (reads only). */
async function loadStart(): Promise<Start> {
  const origin = window.location.origin;
  const key = sessionStorage.getItem(API_KEY_STORAGE);
  const session = key ? null : await currentSession().catch(() => null);
  const credential: Credential | null = key
    ? { kind: 'key', key }
    : session
      ? { kind: 'session', csrfToken: session.csrfToken }
      : null;
  if (!credential) return { credential, context: { origin } };
  const run = authenticatedFetcher(credential);
  const projects =
    (
      (await run({ query: '{ projects { id name stats { documentCount } } }' })) as {
        data?: { projects: { id: string; name: string; stats: { documentCount: number } }[] };
      }
    ).data?.projects ?? [];
  const project = startingProject(projects, lastProjectId());
  if (!project) return { credential, context: { origin } };
  const sources =
    (
      (await run({
        query: 'query($p: ID!) { sources(projectId: $p) { id lastSyncAt } }',
        variables: { p: project.id },
      })) as { data?: { sources: { id: string; lastSyncAt: string | null }[] } }
    ).data?.sources ?? [];
  const source = sources.find((s) => s.lastSyncAt) ?? sources[0];
  return {
    credential,
    context: { origin, project: { id: project.id, name: project.name }, sourceId: source?.id },
  };
}

function Playground() {
  const [start, setStart] = useState<Start | null>(null);
  const [key, setKey] = useState('');
  // A key typed into the field (or a new sign-in) loads the examples again for what it reaches.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    void loadStart().then((loaded) => current && setStart(loaded));
    return () => {
      current = false;
    };
  }, [generation]);

  const credential = start?.credential ?? null;
  const fetcher = useMemo(() => authenticatedFetcher(credential), [credential]);
  const projectId = start?.context.project?.id ?? 'none';
  const tabs = useMemo(() => (start ? exampleTabs(start.context) : []), [start]);
  const storage = useMemo(
    () => namespacedStorage(localStorage, `trove.playground.${projectId}`),
    [projectId],
  );

  return (
    <div className="trove-playground">
      <header className="trove-playground-bar">
        <a href="/">Trove</a>
        <span className="trove-playground-title">
          GraphQL playground
          {start?.context.project ? ` · ${start.context.project.name}` : ''}
        </span>
        <span className="trove-playground-who" data-testid="playground-credential">
          {credential?.kind === 'key'
            ? 'API key in use'
            : credential?.kind === 'session'
              ? 'Signed in'
              : start
                ? 'Not signed in: paste an API key'
                : ''}
        </span>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!key) return;
            sessionStorage.setItem(API_KEY_STORAGE, key);
            setKey('');
            setStart(null);
            setGeneration((n) => n + 1);
          }}
        >
          <label>
            API key{' '}
            <input
              type="password"
              value={key}
              onChange={(event) => setKey(event.currentTarget.value)}
              autoComplete="off"
              aria-label="API key"
            />
          </label>
          <button type="submit">Use key</button>
        </form>
      </header>
      <div className="trove-playground-editor">
        {start && (
          <GraphiQL
            // Remounted for another credential or project: GraphiQL reads its tabs and storage once.
            key={`${generation}:${projectId}`}
            fetcher={fetcher}
            storage={storage}
            defaultTabs={tabs.map((tab) => ({ ...tab, headers: HEADERS_NOTE }))}
            // GraphiQL fills its editors at start from these, not from the first tab's variables.
            initialQuery={tabs[0]!.query}
            initialVariables={tabs[0]!.variables}
            initialHeaders={HEADERS_NOTE}
            defaultHeaders={HEADERS_NOTE}
            shouldPersistHeaders={false}
            // Open on the variables: they hold the project's real ids (and GraphiQL reads the
            // variables from their editor, which exists only once shown).
            defaultEditorToolsVisibility="variables"
          />
        )}
      </div>
    </div>
  );
}

// Monaco cancels its own pending work (a completion or hover overtaken by the next keystroke, the
// models of an editor GraphiQL unmounts for another key or project) by rejecting it with an error
// named "Canceled", which GraphiQL leaves unobserved. That is not a failure; anything else still
// reaches the console.
window.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason as { name?: unknown; message?: unknown } | null;
  if (reason?.name === 'Canceled' && reason.message === 'Canceled') event.preventDefault();
});

createRoot(document.getElementById('playground')!).render(
  <StrictMode>
    <Playground />
  </StrictMode>,
);
