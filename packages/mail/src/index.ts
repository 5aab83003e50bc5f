export { createMailer, mailerFromEnv, type Mailer, type MailInput } from "./mailer.ts";
export { SmtpError } from "./smtp.ts";
export { startCatcher, type Catcher, type CaughtMessage } from "./catcher.ts";
export {
  ROLE_NAMES,
  invitationMail,
  planApprovedMail,
  rateLimitWarningMail,
  newDeviceSignInMail,
  signupExistingAccountMail,
  type MailContent,
  type Role,
} from "./templates.ts";
