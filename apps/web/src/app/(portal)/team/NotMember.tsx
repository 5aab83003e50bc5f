"use client";
// Shown when the user is no longer in the team of the account they work in — also right after they
// left it on this page, where the leave button goes away: the focus moves to this notice, not <body>.
import { useEffect, useRef } from "react";
import { Alert } from "~/components/Alert";

export function NotMember() {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <div ref={box} tabIndex={-1} className="focus-target" data-testid="not-member-box">
      <Alert kind="warn" testId="not-member">
        Više niste član tima ovog računa.
      </Alert>
    </div>
  );
}
