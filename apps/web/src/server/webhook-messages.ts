// Croatian sentences for the reasons @fiskal/webhooks gives when it refuses a webhook URL (its own
// reasons are English, for logs and the package's other users).
const RANGE_NAMES: Record<string, string> = {
  loopback: "lokalna (loopback) adresa",
  private: "privatna adresa",
  linkLocal: "link-local adresa",
  uniqueLocal: "privatna (unique local) IPv6 adresa",
  carrierGradeNat: "adresa iz raspona operatera (CGNAT)",
  unspecified: "nespecificirana adresa",
  broadcast: "broadcast adresa",
  multicast: "multicast adresa",
  reserved: "rezervirana adresa",
};

function rangeName(range: string): string {
  return RANGE_NAMES[range] ?? `adresa iz raspona ${range}`;
}

/** The sentence the portal shows for a refused webhook URL. */
export function webhookUrlProblem(reason: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^host (\S+) resolves to a refused address: (\S+) address (\S+) is not allowed$/.exec(reason))) {
    return `Naziv ${m[1]} upućuje na adresu ${m[3]}, a to je ${rangeName(m[2]!)}. Webhookovi se šalju samo na javne adrese.`;
  }
  if ((m = /^IPv4-compatible address (\S+) is not allowed$/.exec(reason))) {
    return `Adresa ${m[1]} (IPv4 zapisana kao IPv6) nije dopuštena. Webhookovi se šalju samo na javne adrese.`;
  }
  if ((m = /^(\S+) address (\S+) is not allowed$/.exec(reason))) {
    return `Adresa ${m[2]} je ${rangeName(m[1]!)}. Webhookovi se šalju samo na javne adrese.`;
  }
  if ((m = /^scheme (\S+) is not allowed/.exec(reason))) return `Shema ${m[1]} nije dopuštena: adresa mora počinjati s https:// ili http://.`;
  if (reason === "credentials in the URL are not allowed") return "Adresa ne smije sadržavati korisničko ime ni lozinku.";
  if (reason === "not a valid absolute URL") return "To nije ispravna potpuna adresa (npr. https://primjer.hr/fiskal/webhook).";
  if (reason === "URL has no host") return "Adresa nema naziv poslužitelja.";
  if ((m = /^URL is longer than (\d+) characters$/.exec(reason))) return `Adresa može imati najviše ${m[1]} znakova.`;
  if ((m = /^host (\S+) does not resolve$/.exec(reason))) return `Naziv ${m[1]} ne postoji u DNS-u. Provjerite adresu.`;
  if ((m = /^not an IP address: (\S+)$/.exec(reason))) return `${m[1]} nije ispravna IP adresa.`;
  return "Ta adresa nije dopuštena: potrebna je javna http(s) adresa.";
}
