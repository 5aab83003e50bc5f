import type { Metadata } from "next";
import { serverApi } from "~/server/api";
import { SessionsManager } from "./SessionsManager";

export const metadata: Metadata = { title: "Sesije" };

export default async function SessionsPage() {
  const api = await serverApi();
  const sessions = await api.security.sessions();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Sesije</h1>
          <p>
            Preglednici i uređaji u kojima ste prijavljeni. Sesija traje 7 dana od prijave. Odjava, završetak sesije ovdje i promjena lozinke
            završavaju je na poslužitelju: stari kolačić više ne otvara portal.
          </p>
        </div>
      </div>
      <SessionsManager initial={sessions} />
    </>
  );
}
