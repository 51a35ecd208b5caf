import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { queryClient } from './api/queries/query-client';
import { App } from './app/app';
import { AppToaster } from './ui/app-toaster';
import { appSystem } from './ui/theme';

const container = document.getElementById('root');
if (!container) throw new Error('Falta el elemento #root en index.html');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ChakraProvider value={appSystem}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
        <AppToaster />
      </ChakraProvider>
    </QueryClientProvider>
  </StrictMode>,
);
