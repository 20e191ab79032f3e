import '@mantine/core/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { TroveApiError } from '@trove/api-client/browser';
import { App } from './app';
import { SessionProvider } from './session-context';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused key or a missing thing will not fix itself by asking again.
      retry: (count, error) => !(error instanceof TroveApiError && error.kind !== 'unavailable') && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const theme = createTheme({ primaryColor: 'indigo', defaultRadius: 'md' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <SessionProvider>
            <App />
          </SessionProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
