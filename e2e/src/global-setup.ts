// Builds the portal when its sources changed, then starts database, API and portal for the run.
import { buildPortal, startStack, type Stack } from "./stack.ts";

const holder = globalThis as typeof globalThis & { __fiskalE2eStack?: Stack };

export default async function globalSetup(): Promise<void> {
  buildPortal();
  const stack = await startStack();
  holder.__fiskalE2eStack = stack;
  process.env.FISKAL_E2E_API_URL = stack.apiUrl;
  process.env.FISKAL_E2E_PORTAL_URL = stack.portalUrl;
  process.env.FISKAL_E2E_DATABASE_URL = stack.databaseUrl;
  process.env.FISKAL_E2E_MAIL_URL = stack.mailUrl;
  process.env.FISKAL_E2E_OPERATOR_EMAIL = stack.operator.email;
  process.env.FISKAL_E2E_OPERATOR_PASSWORD = stack.operator.password;
}
