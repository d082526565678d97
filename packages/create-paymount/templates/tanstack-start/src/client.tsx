// The client entry TanStack Start uses when an app has none, as a file of the shop: the plugin's own entry is
// not compiled by @vitejs/plugin-react (customViteReactPlugin), and would not hydrate ("React is not defined").
import { StartClient } from '@tanstack/react-start';
import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createRouter } from './router';

const router = createRouter();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <StartClient router={router} />
    </StrictMode>,
  );
});
