import { z } from "zod";

export const CertificateSchema = z.object({
  subject: z.string().describe("Subjekt certifikata (RFC 4514)."),
  issuer: z.string().nullable().describe("Izdavatelj certifikata, npr. CN=Fina RDC 2020,O=Financijska agencija,C=HR ili FISKAL TEST za generirani testni certifikat."),
  oib: z.string().nullable().describe("OIB kojem je certifikat izdan; potpisuju se samo računi s tim OIB-om izdavatelja."),
  serial_number: z.string().nullable(),
  fingerprint_sha256: z.string().nullable().describe("SHA-256 otisak certifikata."),
  not_before: z.string().nullable(),
  not_after: z.string().describe("Istek certifikata (ISO 8601)."),
  days_left: z.number().int().describe("Cijeli dani do isteka (negativno nakon isteka)."),
  state: z
    .enum(["valid", "expiring", "expired", "not_yet_valid"])
    .describe("\"expiring\": ističe za manje od 30 dana — obnovite ga kod FINA-e i učitajte novi."),
  test: z.boolean().describe("Nije FINA produkcijski certifikat (generirani testni, FINA demo ili drugi izdavatelj): produkcijska Porezna uprava ga ne prima."),
  trust: z
    .enum(["fina_production", "fina_demo", "untrusted"])
    .describe("Lanac certifikata prema FINA CA certifikatima koje Fiskal isporučuje: fina_production (Fina Root CA), fina_demo (Fina Demo Root CA) ili untrusted (samopotpisan ili drugi izdavatelj)."),
  chain: z.array(z.string()).describe("CA certifikati iznad njega, od izdavatelja do korijena, npr. [\"Fina RDC 2020\", \"Fina Root CA\"]; prazno kad ne vodi do FINA-e."),
  uploaded_at: z.string(),
});
