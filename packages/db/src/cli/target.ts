import { EmbeddedPostgresBusyError, startEmbeddedPostgres } from "../embedded.ts";
import { EMBEDDED_DATA_DIR } from "../paths.ts";

/**
 * DATABASE_URL when set; else the embedded database under <repo>/.data/pglite, started on an
 * ephemeral port, or reached through the process that already serves it.
 */
export async function openTarget(): Promise<{ url: string; label: string; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, label: redact(url), close: async () => {} };
  try {
    const embedded = await startEmbeddedPostgres({ dataDir: EMBEDDED_DATA_DIR, port: 0 });
    return { url: embedded.url, label: `embedded PGlite (${EMBEDDED_DATA_DIR})`, close: embedded.close };
  } catch (error) {
    if (error instanceof EmbeddedPostgresBusyError && error.url) {
      return {
        url: error.url,
        label: `embedded PGlite served by process ${error.pid} (${error.url})`,
        close: async () => {},
      };
    }
    throw error;
  }
}

/** Connection strings may carry a password; never print it. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable DATABASE_URL)";
  }
}
