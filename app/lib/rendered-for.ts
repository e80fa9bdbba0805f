// Whom a screen was rendered for. Several tabs of one browser share one session cookie: a form rendered for one
// customer in one tab, posted after another tab logged in as someone else, would act for that other person (an order
// on their account with the first one's address, a review under their name). So every form a page renders for a
// signed-in user carries that user's id (the hidden field, app/components/RenderedFor.tsx), the checkout's fetch to
// POST /api/orders the same in a header, and the server refuses the write when the session's user is another
// (assertRenderedFor, app/services/session.server.ts). Shared by the components and the server (no server imports).

/** The hidden field of every screen form rendered for a signed-in user: that user's id. */
export const RENDERED_FOR_FIELD = "renderedFor";

/** The same for an API call (an addition to API.md): the id of the user the client's screen shows. */
export const RENDERED_FOR_HEADER = "X-Rendered-For";

/** 409: the page was rendered for one account, and this browser is now signed in as another. */
export const SIGNED_IN_AS_ANOTHER = "You are now signed in as another account in this browser. Reload the page to continue.";

/** 400: a rendered-for value that is no user id (no page of the shop sends one). */
export const RENDERED_FOR_INVALID = "The form names no valid account. Reload the page to continue.";
