import { z } from "zod";

export const CertificateSchema = z.object({
  subject: z.string().describe("Subjekt certifikata (RFC 4514)."),
  issuer: z.string().nullable().describe("Izdavatelj certifikata, npr. Fina RDC 2015 ili FISKAL TEST za generirani testni certifikat."),
  oib: z.string().nullable().describe("OIB kojem je certifikat izdan; potpisuju se samo računi s tim OIB-om izdavatelja."),
  serial_number: z.string().nullable(),
  fingerprint_sha256: z.string().nullable().describe("SHA-256 otisak certifikata."),
  not_before: z.string().nullable(),
  not_after: z.string().describe("Istek certifikata (ISO 8601)."),
  days_left: z.number().int().describe("Cijeli dani do isteka (negativno nakon isteka)."),
  state: z
    .enum(["valid", "expiring", "expired", "not_yet_valid"])
    .describe("\"expiring\": ističe za manje od 30 dana — obnovite ga kod FINA-e i učitajte novi."),
  test: z.boolean().describe("Generirani testni certifikat (simulator i demo okolina CIS-a), ne FINA certifikat."),
  uploaded_at: z.string(),
});
