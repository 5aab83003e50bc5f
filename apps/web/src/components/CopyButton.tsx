"use client";
import { useState } from "react";

export function CopyButton({ text, label = "Kopiraj", testId }: { text: string; label?: string; testId?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      className="btn secondary small"
      data-testid={testId}
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
