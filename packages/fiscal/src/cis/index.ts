// The real CIS connector: the receipt as CIS receives it, the signed XML, the SOAP client.
export {
  cisXmlDateTime,
  NACINI_PLACANJA,
  RACUN_PATTERNS,
  racunProblems,
  type BrojRacuna,
  type NacinPlacanja,
  type Naknada,
  type OznakaSlijednosti,
  type Porez,
  type PorezOstalo,
  type RacunProblem,
  type RacunType,
} from "./racun.ts";
export { isTrustedSigner, pemCertificates, SIGNATURE_PROFILES, SignatureError, signEnveloped, verifyEnveloped, verifyEnvelopedIntegrity, type SignatureProfile, type SignerTrust, type VerifiedDocument } from "./sign.ts";
export { CIS_NS, parseRacunOdgovor, racunXml, racunZahtjevXml, RACUNI_SOAP_ACTION, soapBodyElement, soapEnvelope, SoapError, type RacunOdgovor } from "./xml.ts";
export {
  CIS_OPERATIONS,
  cisOperationProblems,
  cisOperationXml,
  parseCisOperationAnswer,
  signedCisOperation,
  type CisOperation,
  type CisOperationAnswer,
  type CisOperationDetail,
  type CisOperationRequest,
} from "./operations.ts";
export {
  CIS_DEFAULT_TIMEOUTS,
  CIS_RETRYABLE_CODES,
  CIS_SIGNER_NAMES,
  CIS_URLS,
  CisNoAnswerError,
  createCisClient,
  parseCisDateTime,
  postSoap,
  signedRacunZahtjev,
  type CisClient,
  type CisClientOptions,
  type PostResult,
} from "./client.ts";
