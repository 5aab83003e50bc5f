import { ForbiddenNotice } from "~/components/ForbiddenNotice";

// Shown with status 403 when a customer opens /admin (forbidden() in ./page.tsx): a heading of its
// own and the way back to the customer's pages.
export default function AdminForbidden() {
  return <ForbiddenNotice testId="admin-forbidden">Administracija je dostupna samo operaterima Fiskala. Vaš račun je korisnički.</ForbiddenNotice>;
}
