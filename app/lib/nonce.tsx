import { createContext, useContext } from "react";

// The CSP nonce of this response, for the few inline scripts React Router writes. None in the browser, and none on a
// page rendered for the shared cache, whose CSP names its scripts by their hashes instead (workers/edge-cache.ts).
const NonceContext = createContext<string | undefined>(undefined);
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
