"use client";
// A link with a #fragment (e.g. the doc_url of a 429) must land on its section even when the page's
// content streamed in after the browser looked for the fragment (a slow first load shows the
// skeleton first). Rendered inside the page's content, so it runs once that content exists.
import { useEffect } from "react";

export function ScrollToHash() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);
  return null;
}
