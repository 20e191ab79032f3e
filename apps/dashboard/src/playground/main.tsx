import './monaco-workers';
import 'graphiql/style.css';
import './playground.css';
import { GraphiQL } from 'graphiql';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { API_KEY_STORAGE } from '../api/session';
import { exampleTabs } from './examples';

type FetcherParams = { query: string; variables?: unknown; operationName?: string | null };

/** Sends each operation to /graphql with whatever headers the editor holds (the key among them). */
async function fetcher(params: FetcherParams, options?: { headers?: Record<string, unknown> }) {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options?.headers as Record<string, string>) },
      body: JSON.stringify(params),
    });
  } catch {
    return { errors: [{ message: 'The API could not be reached (is it running?)' }] };
  }
  // The API answers JSON, errors included; anything else (a proxy's error page) is named by its status.
  return response.json().catch(() => ({ errors: [{ message: `The API answered ${response.status}` }] }));
}

function headersFor(key: string): string {
  return JSON.stringify({ 'X-API-Key': key || '<paste an API key>' }, null, 2);
}

function Playground() {
  const [key, setKey] = useState(() => sessionStorage.getItem(API_KEY_STORAGE) ?? '');
  // GraphiQL reads its initial headers once: a new key remounts it with them.
  const [applied, setApplied] = useState(key);
  return (
    <div className="trove-playground">
      <header className="trove-playground-bar">
        <a href="/">Trove</a>
        <span className="trove-playground-title">GraphQL playground</span>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (key) sessionStorage.setItem(API_KEY_STORAGE, key);
            setApplied(key);
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
        <GraphiQL
          key={applied}
          fetcher={fetcher}
          defaultTabs={exampleTabs(window.location.origin).map((tab) => ({
            ...tab,
            headers: headersFor(applied),
          }))}
          initialHeaders={headersFor(applied)}
          defaultEditorToolsVisibility="headers"
          shouldPersistHeaders={false}
        />
      </div>
    </div>
  );
}

createRoot(document.getElementById('playground')!).render(
  <StrictMode>
    <Playground />
  </StrictMode>,
);
