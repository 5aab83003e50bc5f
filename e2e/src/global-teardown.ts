// Stops the API and the portal and drops the run's database.
import type { Stack } from "./stack.ts";

const holder = globalThis as typeof globalThis & { __fiskalE2eStack?: Stack };

export default async function globalTeardown(): Promise<void> {
  const stack = holder.__fiskalE2eStack;
  holder.__fiskalE2eStack = undefined;
  await stack?.stop();
}
