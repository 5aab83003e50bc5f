// For tests of the CIS client against the local CIS: the server, a seller's certificate, a client
// that trusts the server's CA and its "fiskalcistest" signer, a scratch folder, and the receipt the
// tests send, written out by hand as CIS receives it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { generateTestCertificate, type TestCertificate } from "../src/certificate.ts";
import type { Receipt } from "../src/cis.ts";
import { createCisClient, type CisClient } from "../src/cis/client.ts";
import { cisXmlDateTime, type RacunType } from "../src/cis/racun.ts";
import { startLocalCis, type LocalCis } from "./local-cis.ts";

export interface LocalCisClient {
  readonly cis: LocalCis;
  /** The seller's certificate, for the OIB given. */
  readonly cert: TestCertificate;
  readonly client: CisClient;
  /** A folder of the file's own, removed afterwards. */
  readonly work: string;
}

/**
 * Registers the file's hooks: the local CIS, the certificate, the client and the folder (named
 * `<workPrefix>…`) from `beforeAll` on, all gone after `afterAll`; before each test the local CIS
 * answers as CIS does again.
 */
export function useLocalCisClient(oib: string, workPrefix: string): LocalCisClient {
  let started: LocalCisClient | undefined;

  beforeAll(async () => {
    const cis = await startLocalCis();
    const cert = generateTestCertificate({ oib, name: "Prodavatelj d.o.o." });
    const client = createCisClient({ url: cis.url, ca: cis.caPem, signer: { ca: [cis.caPem], names: ["fiskalcistest"] }, timeoutMs: 1_500 });
    started = { cis, cert, client, work: mkdtempSync(path.join(tmpdir(), workPrefix)) };
  });
  afterAll(async () => {
    await started?.cis.close();
    if (started) rmSync(started.work, { recursive: true, force: true });
  });
  beforeEach(() => current().cis.setMode({ kind: "check" }));

  function current(): LocalCisClient {
    if (!started) throw new Error("the local CIS is there only from beforeAll on");
    return started;
  }
  return {
    get cis() {
      return current().cis;
    },
    get cert() {
      return current().cert;
    },
    get client() {
      return current().client;
    },
    get work() {
      return current().work;
    },
  };
}

/**
 * The RacunType of the tests' receipt `receipt` with its ZKI: in the VAT system, sequence P, premises
 * POSL1 and device 1, 100.00 + 25 % VAT = 125.00 by card, delivered at once.
 */
export function testRacun(receipt: Receipt, zki: string): RacunType {
  return {
    Oib: receipt.oib,
    USustPdv: true,
    DatVrijeme: cisXmlDateTime(receipt.issuedAt),
    OznSlijed: "P",
    BrRac: { BrOznRac: receipt.number, OznPosPr: "POSL1", OznNapUr: "1" },
    Pdv: [{ Stopa: "25.00", Osnovica: "100.00", Iznos: "25.00" }],
    IznosUkupno: "125.00",
    NacinPlac: "K",
    OibOper: receipt.operatorOib,
    ZastKod: zki,
    NakDost: false,
  };
}
