import type { Metadata } from "next";
import { NotMember } from "./NotMember";
import { serverApi } from "~/server/api";
import { LeaveTeam, SwitchAccount } from "./MemberActions";
import { ROLE_LABELS } from "./roles";
import { TeamManager } from "./TeamManager";

export const metadata: Metadata = { title: "Tim" };

export default async function TeamPage() {
  const api = await serverApi();
  const [me, accounts] = await Promise.all([api.account.me(), api.team.accounts()]);
  const owner = me.memberRole === "OWNER";
  const team = owner ? await api.team.overview() : null;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Tim</h1>
          <p>
            Članovi računa <strong>{me.accountName}</strong> i njihove uloge. Vlasnik upravlja svime, uključujući paket i tim; programer API
            ključevima, webhookovima, certifikatom i zapisnikom zahtjeva; računovođa vidi potrošnju i zapisnik promjena, bez izmjena.
          </p>
        </div>
      </div>
      {me.memberRole ? (
        <p data-testid="my-role">
          Vaša uloga: <strong>{ROLE_LABELS[me.memberRole]}</strong>
        </p>
      ) : (
        <NotMember />
      )}
      {team ? (
        <TeamManager members={team.members} invitations={team.invitations} />
      ) : me.memberRole ? (
        <section className="card section" aria-labelledby="leave-title">
          <h2 id="leave-title">Članstvo</h2>
          <p>Članove poziva i uloge mijenja vlasnik računa. Tim možete napustiti sami; nakon toga više nemate pristup ovom računu.</p>
          <LeaveTeam />
        </section>
      ) : null}
      {accounts.length > 1 ? <SwitchAccount accounts={accounts} /> : null}
    </>
  );
}
