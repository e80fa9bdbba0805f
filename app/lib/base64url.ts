/** Bytes as base64url without padding (RFC 4648 §5): safe in a URL's query and path as it is. */
export const base64url = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
