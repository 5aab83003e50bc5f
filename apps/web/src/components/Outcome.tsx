// Where the outcome of an action is said: a focusable group that takes the focus after the action
// (or its dialog) ends, so keyboard and screen-reader users land on what happened, never on <body>.
import type { ReactNode, Ref } from "react";
import { Alert } from "./Alert";

type Notice = { kind: "ok" | "error"; text: string };

export function Outcome({ ref, label, testId, notice, noticeTestId, children }: { ref: Ref<HTMLDivElement>; label: string; testId: string; notice: Notice | null; noticeTestId: string; children?: ReactNode }) {
  return (
    <div ref={ref} tabIndex={-1} className="focus-target" role="group" aria-label={label} data-testid={testId}>
      {notice ? (
        <Alert kind={notice.kind} testId={noticeTestId}>
          {notice.text}
        </Alert>
      ) : null}
      {children}
    </div>
  );
}
