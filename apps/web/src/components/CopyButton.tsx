"use client";
import { useState } from "react";

/** `name` is the accessible name when several buttons share a visible label; it starts with that label. */
export function CopyButton({ text, label = "Kopiraj", testId, name }: { text: string; label?: string; testId?: string; name?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      className="btn secondary small"
      data-testid={testId}
      aria-label={state === "idle" ? name : undefined}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setState("copied");
        } catch {
          setState("failed");
        }
        setTimeout(() => setState("idle"), 2500);
      }}
    >
      <span aria-live="polite">{state === "copied" ? "Kopirano ✓" : state === "failed" ? "Označite i kopirajte ručno" : label}</span>
    </button>
  );
}
