"use client";
// Every form of the portal is checked in the page, in Croatian: the browser's own bubble ("Please
// fill out this field") is suppressed and each invalid field gets its message right below it,
// linked with aria-describedby and marked aria-invalid; the first one takes the focus. The message
// goes as soon as the field is valid. One listener for the whole document.
import { useEffect } from "react";
import { validationMessage } from "~/lib/validation-messages";

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function isField(t: EventTarget | null): t is Field {
  return t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement;
}

let seq = 0;

function messageOf(el: Field): HTMLElement | null {
  const id = el.dataset.errorId;
  return id ? document.getElementById(id) : null;
}

function show(el: Field, text: string): void {
  let msg = messageOf(el);
  if (!msg) {
    msg = document.createElement("span");
    msg.id = `field-error-${++seq}`;
    msg.className = "field-error";
    msg.dataset.testid = "field-error";
    el.dataset.errorId = msg.id;
    el.insertAdjacentElement("afterend", msg);
    const described = el.getAttribute("aria-describedby");
    el.setAttribute("aria-describedby", described ? `${described} ${msg.id}` : msg.id);
  }
  msg.textContent = text;
  el.setAttribute("aria-invalid", "true");
}

function clear(el: Field): void {
  const msg = messageOf(el);
  if (!msg) return;
  const rest = (el.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== msg.id);
  if (rest.length) el.setAttribute("aria-describedby", rest.join(" "));
  else el.removeAttribute("aria-describedby");
  el.removeAttribute("aria-invalid");
  delete el.dataset.errorId;
  msg.remove();
}

export function FormValidation() {
  useEffect(() => {
    let focusQueued = false;
    const onInvalid = (e: Event) => {
      if (!isField(e.target)) return;
      e.preventDefault();
      const el = e.target;
      show(el, validationMessage(el));
      // "invalid" fires for every failing field of the form in order: the first one gets the focus.
      if (!focusQueued) {
        focusQueued = true;
        el.focus();
        queueMicrotask(() => (focusQueued = false));
      }
    };
    const onInput = (e: Event) => {
      if (isField(e.target) && e.target.dataset.errorId && e.target.validity.valid) clear(e.target);
    };
    document.addEventListener("invalid", onInvalid, true);
    document.addEventListener("input", onInput, true);
    document.addEventListener("change", onInput, true);
    // Marks the page as checked in place (until then the browser's own checks apply).
    document.documentElement.dataset.formValidation = "on";
    return () => {
      delete document.documentElement.dataset.formValidation;
      document.removeEventListener("invalid", onInvalid, true);
      document.removeEventListener("input", onInput, true);
      document.removeEventListener("change", onInput, true);
    };
  }, []);
  return null;
}
