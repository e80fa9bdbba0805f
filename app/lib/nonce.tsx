import { createContext, useContext } from "react";

// The CSP nonce of this response, for the few inline scripts React Router writes. Empty in the browser.
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
