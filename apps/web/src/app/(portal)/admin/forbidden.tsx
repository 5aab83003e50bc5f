import { Alert } from "~/components/Alert";

// Shown with status 403 when a customer opens /admin (forbidden() in ./page.tsx).
export default function AdminForbidden() {
  return (
    <div className="card" style={{ maxWidth: 620 }}>
      <Alert kind="error" title="Nemate pristup" testId="admin-forbidden">
        Administracija je dostupna samo operaterima Fiskala.
      </Alert>
    </div>
  );
}
