// Session lookup for public pages: a misconfigured or unreachable backend must not break the docs.
import type { Session } from "next-auth";
import { currentSession } from "./auth";

export async function currentSessionOrNull(): Promise<Session | null> {
  try {
    return await currentSession();
  } catch {
    return null;
  }
}
