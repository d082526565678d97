// The client entry TanStack Start writes when an app has none, as a file of the app: the plugin's virtual
// entry is not compiled by @vitejs/plugin-react (customViteReactPlugin), so its JSX became React.createElement
// without React in scope, and the pages never hydrated ("React is not defined").
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
