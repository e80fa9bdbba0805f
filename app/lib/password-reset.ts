// The password reset's words and numbers, shared by the service (app/services/password-reset.server.ts) and the screens.

export const RESET_LINK_MINUTES = 30;

export const FORGOT_PASSWORD_ANSWER = `If an account uses that e-mail, we have sent it a link to reset the password. The link works for ${RESET_LINK_MINUTES} minutes.`;
export const RESET_DONE = "Your password has been changed, and every session of your account has ended. Please log in with your new password.";
export const RESET_LINK_INVALID = "This reset link is invalid or has expired. Please ask for a new one.";
