// Fiscalization 2.0: recording delivered e-invoices and e-reporting payments and rejections.
export { EFIS_NS, EIZV_NS, eRacunZahtjevXml, F2_URLS, f2DateTime, naplataZahtjevXml, odbijanjeZahtjevXml, type NacinPlacanjaNaplate, type Naplata, type Odbijanje, type VrstaRazlogaOdbijanja } from "./messages.ts";
export { ERacunError, eRacunFromUbl, ublSummary, type UblSummary } from "./eracun.ts";
export { createF2Client, createF2Simulator, f2Requests, parseF2Answer, type F2Answer, type F2ClientOptions, type EInvoiceDirection, type F2Receipt, type FiscalizationService, type Signer } from "./client.ts";
export type { Isporuka } from "./isporuka.ts";
