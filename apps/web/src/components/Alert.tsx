import type { ReactNode } from "react";
import { IconAlert } from "./Icons";

export function Alert({ kind, title, children, testId }: { kind: "error" | "warn" | "ok" | "info"; title?: string; children?: ReactNode; testId?: string }) {
  return (
    <div className={`alert ${kind}`} role={kind === "error" ? "alert" : "status"} data-testid={testId}>
      {kind === "error" || kind === "warn" ? <IconAlert /> : null}
      <div>
        {title ? <strong>{title}</strong> : null}
        {children ? <p>{children}</p> : null}
      </div>
    </div>
  );
}
