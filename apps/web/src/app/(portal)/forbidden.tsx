import { ForbiddenNotice } from "~/components/ForbiddenNotice";

// Shown with status 403 when a team role opens a page it has no right to (docs/portal.md, "Uloge"):
// a heading of its own and the way back.
export default function RoleForbidden() {
  return <ForbiddenNotice testId="role-forbidden">Vaša uloga u timu nema pristup ovoj stranici. Pristup dodjeljuje vlasnik računa na stranici Tim.</ForbiddenNotice>;
}
