import { createContext, useContext } from 'react';

/** The nonce of this response's Content Security Policy (app/entry.server.tsx), for the inline scripts React Router writes. */
export const NonceContext = createContext<string | undefined>(undefined);

/** On the server, the response's nonce; in the browser, undefined (it hides the attribute, and the scripts have run). */
export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
