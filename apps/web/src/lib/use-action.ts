"use client";
// Runs a portal mutation that answers { ok, message? }: one busy key at a time, a message in words,
// and a refresh of the server-rendered page when it worked.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorMessage } from "./trpc-client";

export type ActionOutcome = { ok: true; message?: string } | { ok: false; message: string };
export type ActionMessage = { kind: "ok" | "error"; text: string };

export function useAction() {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<ActionMessage | null>(null);

  async function run(key: string, action: () => Promise<ActionOutcome>, success: string): Promise<boolean> {
    setBusy(key);
    setMessage(null);
    try {
      const r = await action();
      setMessage(r.ok ? { kind: "ok", text: r.message ?? success } : { kind: "error", text: r.message });
      if (r.ok) router.refresh();
      return r.ok;
    } catch (err) {
      setMessage({ kind: "error", text: errorMessage(err) });
      return false;
    } finally {
      setBusy(null);
    }
  }

  return { busy, setBusy, message, setMessage, run, router };
}
