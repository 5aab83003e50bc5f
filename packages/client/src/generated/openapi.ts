// Generated from the Fiskal API's OpenAPI document by `pnpm --filter @fiskal/client generate`.
// Do not edit: change the API's schemas and regenerate; a test fails when this file is stale.

export interface paths {
    "/v1/validate/oib": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Provjera OIB-a */
        post: operations["oib-validate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/validate/oib/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Provjera do 100 OIB-a (broji se kao jedan zahtjev) */
        post: operations["oib-validateBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kpd/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pretraživanje KPD 2025 šifri */
        get: operations["kpd-search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kpd/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dohvat do 100 KPD šifri (broji se kao jedan zahtjev) */
        get: operations["kpd-batch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kpd/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dohvat KPD 2025 šifre */
        get: operations["kpd-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/fiscalize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fiskalizacija računa (ZKI + JIR)
         * @description Račun po shemi RacunType Porezne uprave: OIB operatera, oznaka slijednosti i sustav PDV-a su obavezni; porezi, naknade, iznosi oslobođenja, marže i neoporezivog te storno (negativni iznosi) po potrebi. Odgovor sadrži ZKI, JIR i sadržaj QR koda (qr_url). Pošaljite zaglavlje Idempotency-Key: ponovljeni zahtjev tada nikad ne fiskalizira dvaput.
         */
        post: operations["invoices-fiscalize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dohvat fiskaliziranog računa */
        get: operations["invoices-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/qr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * QR kod računa (SVG ili PNG)
         * @description QR kod za provjeru računa (Zakon o fiskalizaciji čl. 7; specifikacija v2.6, pogl. 2.7): s JIR-om kad je zaprimljen, inače sa ZKI-jem, uz datum i vrijeme izdavanja i iznos. SVG je dimenzioniran u milimetrima tako da se ispisuje najmanje 2 × 2 cm s praznim rubom.
         */
        get: operations["invoices-qr"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Popis fiskaliziranih računa
         * @description Računi tvrtke od najnovijeg, po stranicama: next_cursor iz odgovora šalje se kao cursor uz iste filtre. Razdoblje (from, to) odnosi se na vrijeme izdavanja po zagrebačkom vremenu. Broji se samo u ograničenja plana.
         */
        get: operations["invoices-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/tip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Napojnica na fiskaliziranom računu (CIS napojnica)
         * @description Prijavljuje Poreznoj upravi napojnicu na već fiskaliziranom računu (iznos i način plaćanja napojnice), potpisano certifikatom tvrtke. Jedna napojnica po računu: ista ponovljena vraća račun, druga je 409. Odbijanje je validation_error s details.cis_code, nedostupnost 503.
         */
        post: operations["invoices-tip"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/payment-method": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Promjena načina plaćanja fiskaliziranog računa (CIS promijeniNacPlac)
         * @description Prijavljuje Poreznoj upravi da je fiskalizirani račun plaćen drukčije nego što na njemu piše. Račun ostaje kakav je poslan (payment_method); novi način je changed_payment_method. Isti ponovljeni zahtjev vraća račun bez novog slanja.
         */
        post: operations["invoices-paymentMethod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provjera računa na testnoj okolini (CIS provjera)
         * @description Šalje račun na provjeru bez evidentiranja; postoji samo na testnoj okolini Porezne uprave (cistest) i u simulatoru, prema produkciji je 400 s details.cis_code provjera. Odgovor: valid i pogreške koje je Porezna uprava navela.
         */
        post: operations["invoices-check"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/certificate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Certifikat za potpisivanje računa
         * @description Podaci o certifikatu računa tvrtke: subjekt, OIB, rok valjanosti. Privatni ključ se nikad ne vraća.
         */
        get: operations["certificates-get"];
        /**
         * Učitavanje FINA certifikata
         * @description Zamjenjuje certifikat računa tvrtke. Certifikat mora biti valjan i izdan za OIB tvrtke (ako je zadan). Prema produkcijskoj Poreznoj upravi mora ga izdati FINA (lanac do Fina Root CA), prema demo okolini (cistest) FINA demo CA; inače 400 s reason untrusted_issuer. Privatni ključ pohranjuje se šifriran (AES-256-GCM).
         */
        put: operations["certificates-upload"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/einvoices/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Slanje B2B e-računa (UBL 2.1, HR CIUS) putem posrednika
         * @description Račun (380), odobrenje (381), korektivni račun (384) ili račun za predujam (386) sa svim kategorijama PDV-a (S, Z, E, AE, K, G, O), popustima i troškovima, operaterom i vremenom izdavanja. Nepoznato polje je pogreška 400 koja ga imenuje. Prije slanja API provjerava pravila EN 16931 i HR CIUS koja se mogu provjeriti iz zahtjeva i vraća ih kao validation_error s oznakom pravila (rule, npr. BR-S-08). Zbrojeve izračunava izdavatelj; API ih provjerava. Pošaljite zaglavlje Idempotency-Key.
         */
        post: operations["einvoices-send"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/einvoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Dohvat e-računa s UBL XML dokumentom
         * @description Izdani e-račun (direction issued: accepted, queued, ili rejected s pravilima u rejection) ili primljeni (s provjerom i odlukom primatelja), sa stanjem Fiskalizacije 2.0 u fiscalization (pojedinosti i prijave na /fiscalization).
         */
        get: operations["einvoices-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/einvoices/{id}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * eIzvještavanje: naplata e-računa
         * @description Prijavljuje Poreznoj upravi naplatu isporučenog e-računa (EvidentirajNaplatuZahtjev, potpisano certifikatom tvrtke). Djelomične naplate prijavljuju se svaka zasebno; zbroj ne smije prijeći iznos za plaćanje. Odbijena prijava je validation_error s kodom Porezne uprave (details.f2_code); nedostupnost servisa je 503 s Retry-After. Pošaljite zaglavlje Idempotency-Key.
         */
        post: operations["einvoices-payments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/einvoices/{id}/rejection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * eIzvještavanje: odbijanje e-računa
         * @description Prijavljuje Poreznoj upravi da je primatelj odbio e-račun (EvidentirajOdbijanjeZahtjev), jednom po e-računu. Odbijanje prijavljuje primatelj: za primljeni e-račun odbijanje se bilježi i odmah šalje; ako servis nije dostupan, prijava čeka i Fiskal je šalje ponovno; ako je Porezna uprava odbije, validation_error s details.reason report_refused, a odbijanje se smije ispraviti i poslati ponovno. Izdavatelj izdanog e-računa samo kod samoizdavanja (vrsta 389), inače 403 forbidden s details.reason recipient_reports. Odbijena prijava je validation_error s kodom Porezne uprave (details.f2_code); nedostupnost servisa je 503 s Retry-After. Pošaljite zaglavlje Idempotency-Key.
         */
        post: operations["einvoices-rejection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/einvoices/{id}/fiscalization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fiskalizacija 2.0: stanje evidentiranja e-računa i prijave naplate i odbijanja */
        get: operations["einvoices-fiscalization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/einvoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Popis e-računa
         * @description E-računi tvrtke od najnovijeg, po stranicama: next_cursor iz odgovora šalje se kao cursor uz iste filtre. Uz direction "received" dolaze primljeni e-računi (po vremenu primitka). Razdoblje (from, to) odnosi se na datum izdavanja. UBL dokument: GET /v1/einvoices/{id}. Broji se samo u ograničenja plana.
         */
        get: operations["einvoices-list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/einvoices/supplies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * eIzvještavanje: isporuka za koju nije izdan e-račun (čl. 51.)
         * @description Prijavljuje Poreznoj upravi račun izdan bez e-računa (EvidentirajIsporukuZaKojuNijeIzdanERacunZahtjev, potpisano certifikatom tvrtke), jednom po broju računa. Odbijena prijava je validation_error s kodom Porezne uprave (details.f2_code); nedostupnost servisa je 503 s Retry-After. Pošaljite zaglavlje Idempotency-Key.
         */
        post: operations["einvoices-supplies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/einvoices/{id}/acceptance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prihvaćanje primljenog e-računa
         * @description Primatelj prihvaća primljeni e-račun. Bilježi se u Fiskalu i arhivi; Poreznoj upravi se ne šalje ništa (Fiskalizacija 2.0 nema poruku o prihvaćanju). Već odbijen e-račun je 409 conflict s details.reason already_decided; izdani e-račun je 404.
         */
        post: operations["einvoices-acceptance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Trenutno stanje ograničenja (besplatno: ne troši kvotu) */
        get: operations["limits-get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/archive/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Izvoz arhive razdoblja (ZIP)
         * @description ZIP s izvornim dokumentima izdanima u razdoblju (UBL e-računa točno kako je isporučen, zahtjev i dokaz fiskalizacije računa s JIR-om i datumima), te manifest.json i manifest.csv sa SHA-256 svake datoteke i lancem sažetaka (provjera: pnpm fiskal archive verify DATOTEKA.zip). REST odgovor je sama ZIP datoteka (application/zip, šalje se u dijelovima); na tRPC-u ovaj opis izvoza. Broji se samo u ograničenja plana.
         */
        get: operations["archive-export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /** @enum {string} */
                code: "validation_error" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "idempotency_conflict" | "conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "internal_error" | "upstream_unavailable" | "malformed_request" | "request_timeout" | "headers_too_large" | "expectation_failed" | "service_unavailable" | "outcome_unknown";
                /** @description Na hrvatskom; kod 429 navodi sekunde iz Retry-After. */
                message: string;
                /** Format: uri */
                doc_url: string;
                /** @description validation_error: [{path, message}]; ostali kodovi: objekt s više pojedinosti. */
                details?: unknown;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Limit of the binding window. */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the binding window. */
        "X-RateLimit-Remaining": number;
        /** @description Unix seconds when the binding window admits again / resets. */
        "X-RateLimit-Reset": number;
        /** @description IETF draft field listing every window, e.g. "burst";q=10;w=1, "minute";q=60;w=60, "endpoint:oib";q=300;w=60, "day";q=10000;w=86400. An answer to a request without a valid key lists the address's anonymous windows instead, always named "ip:burst", "ip:minute" and "ip:day" (never like an account's). */
        "RateLimit-Policy": string;
        /** @description IETF draft field: remaining (r) and reset seconds (t) of every window, named as in RateLimit-Policy (the anonymous ones "ip:…"). */
        RateLimit: string;
        /** @description Identifier of this request; quote it to support. */
        "X-Request-Id": string;
        /** @description Cijele sekunde čekanja; nikad prerano. */
        "Retry-After": number;
        /** @description Oznaka verzije za If-None-Match. */
        ETag: string;
        /** @description "true" kad je odgovor ponovljen odgovor ranijeg zahtjeva s istim Idempotency-Key. */
        "Idempotent-Replayed": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "oib-validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description OIB za provjeru, npr. 69435151530. */
                    oib: string;
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        oib: string;
                        valid: boolean;
                        /**
                         * @description Zašto nije ispravan: pogrešan oblik ili pogrešna kontrolna znamenka.
                         * @enum {string}
                         */
                        reason?: "format" | "checksum";
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "oib-validateBatch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    oibs: string[];
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: {
                            oib: string;
                            valid: boolean;
                            /**
                             * @description Zašto nije ispravan: pogrešan oblik ili pogrešna kontrolna znamenka.
                             * @enum {string}
                             */
                            reason?: "format" | "checksum";
                        }[];
                        valid: number;
                        invalid: number;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "kpd-search": {
        parameters: {
            query: {
                /** @description Riječi ili početak šifre; dijakritici nisu obavezni (psenica pronalazi Pšenica). */
                q: string;
                limit?: number;
                offset?: number;
                level?: number;
                section?: string;
            };
            header?: {
                /** @description ETag ranijeg odgovora; ako se nije promijenio, odgovor je 304 bez tijela. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        query: string;
                        /** @description Koliko šifri ukupno odgovara upitu i filtrima, na svim stranicama. */
                        total: number;
                        offset: number;
                        results: {
                            code: string;
                            name: string;
                            level: number;
                            level_name: string;
                            section: string;
                            parent: string | null;
                            is_leaf: boolean;
                            ancestors: {
                                code: string;
                                name: string;
                                level: number;
                            }[];
                            score: number;
                        }[];
                    };
                };
            };
            /** @description Nije promijenjeno (If-None-Match se podudara). */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "kpd-batch": {
        parameters: {
            query: {
                codes: string;
            };
            header?: {
                /** @description ETag ranijeg odgovora; ako se nije promijenio, odgovor je 304 bez tijela. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: {
                            code: string;
                            found: boolean;
                            entry: {
                                code: string;
                                name: string;
                                level: number;
                                level_name: string;
                                section: string;
                                parent: string | null;
                                is_leaf: boolean;
                                ancestors: {
                                    code: string;
                                    name: string;
                                    level: number;
                                }[];
                            } | null;
                        }[];
                        found: number;
                        missing: string[];
                    };
                };
            };
            /** @description Nije promijenjeno (If-None-Match se podudara). */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "kpd-get": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag ranijeg odgovora; ako se nije promijenio, odgovor je 304 bez tijela. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description npr. 62.10.11, 62.10, 62 ili J */
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        name: string;
                        level: number;
                        level_name: string;
                        section: string;
                        parent: string | null;
                        is_leaf: boolean;
                        ancestors: {
                            code: string;
                            name: string;
                            level: number;
                        }[];
                    };
                };
            };
            /** @description Nije promijenjeno (If-None-Match se podudara). */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "invoices-fiscalize": {
        parameters: {
            query?: never;
            header?: {
                /** @description Ponovljeni zahtjev s istim ključem i tijelom vraća spremljeni odgovor i nikad se ne izvodi dvaput (ključ vrijedi 24 h). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description OIB izdavatelja (obveznika fiskalizacije); mora odgovarati certifikatu. */
                    oib: string;
                    /**
                     * Format: date-time
                     * @description Vrijeme izdavanja računa (ISO 8601 s vremenskom zonom).
                     */
                    issued_at: string;
                    /** @description Brojčana oznaka računa (BrOznRac). */
                    number: string;
                    /** @description Oznaka poslovnog prostora (OznPosPr) kako je prijavljena Poreznoj upravi. */
                    premises: string;
                    /** @description Oznaka naplatnog uređaja (OznNapUr). */
                    device: string;
                    /** @description Ukupan iznos računa (IznosUkupno); negativan za storno. */
                    total: string;
                    /**
                     * @description G gotovina, K kartice, T transakcijski račun, O ostalo (i više načina plaćanja na jednom računu).
                     * @enum {string}
                     */
                    payment_method: "G" | "K" | "T" | "O";
                    /** @description OIB operatera na naplatnom uređaju koji izdaje račun (OibOper); za samoposlužne uređaje OIB izdavatelja. Obavezan. */
                    operator_oib: string;
                    /** @description Izdavatelj je u sustavu PDV-a (USustPdv). */
                    vat_registered: boolean;
                    /**
                     * @description Oznaka slijednosti brojeva računa (OznSlijed): P po poslovnom prostoru, N po naplatnom uređaju.
                     * @enum {string}
                     */
                    sequence: "P" | "N";
                    /** @description PDV po stopama (Pdv); svaka stopa jednom. */
                    vat?: {
                        /** @description Stopa u postocima. */
                        rate: string;
                        /** @description Osnovica. */
                        base: string;
                        /** @description Iznos poreza: osnovica × stopa, zaokruženo na cent (dopušteno odstupanje 0.01). */
                        amount: string;
                    }[];
                    /** @description Porez na potrošnju po stopama (Pnp), najviše 3 %. */
                    consumption_tax?: {
                        /** @description Stopa u postocima. */
                        rate: string;
                        /** @description Osnovica. */
                        base: string;
                        /** @description Iznos poreza: osnovica × stopa, zaokruženo na cent (dopušteno odstupanje 0.01). */
                        amount: string;
                    }[];
                    /** @description Ostali porezi (OstaliPor), npr. porez na luksuz. */
                    other_taxes?: {
                        /** @description Naziv poreza, npr. "Porez na luksuz". */
                        name: string;
                        /** @description Stopa u postocima. */
                        rate: string;
                        /** @description Osnovica. */
                        base: string;
                        /** @description Iznos poreza. */
                        amount: string;
                    }[];
                    /** @description Iznos oslobođenja od PDV-a (IznosOslobPdv). */
                    exempt_amount?: string;
                    /** @description Iznos na koji se odnosi posebni postupak oporezivanja marže (IznosMarza). */
                    margin_amount?: string;
                    /** @description Iznos koji ne podliježe oporezivanju (IznosNePodlOpor). */
                    not_taxable_amount?: string;
                    /** @description Naknade (Naknade), npr. povratna naknada za ambalažu. */
                    fees?: {
                        /** @description Naziv naknade, npr. "Povratna naknada". */
                        name: string;
                        /** @description Iznos naknade. */
                        amount: string;
                    }[];
                    /** @description OIB primatelja računa (OibPrimateljaRacuna), samo B2B uz plaćanje gotovinom, karticom ili ostalo. */
                    buyer_oib?: string;
                    /** @description Oznaka paragon računa (ParagonBrRac) koji se ovim računom naknadno prijavljuje; takav se račun šalje kao naknadna dostava. */
                    paragon_number?: string;
                    /** @description Specifična namjena (SpecNamj): samo kad to Porezna uprava zatraži. */
                    special_purpose?: string;
                    /**
                     * Format: uuid
                     * @description Id računa koji se ovim računom stornira (isti račun tvrtke); ukupni iznos storna mora biti negativan.
                     */
                    storno_of?: string;
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description "fiscalized": JIR je zaprimljen; "pending": poslan Poreznoj upravi, JIR još nije zabilježen (račun vrijedi sa ZKI). */
                        status: string;
                        /** @description Jedinstveni identifikator računa koji vraća Porezna uprava; null dok ga nema. */
                        jir: string | null;
                        /** @description Zaštitni kod izdavatelja: MD5 RSA-SHA1 potpisa. */
                        zki: string;
                        /** @description Sadržaj QR koda računa (specifikacija v2.6, pogl. 2.7): poveznica s JIR-om, a dok ga nema sa ZKI-jem. Slika: GET /v1/invoices/{id}/qr. */
                        qr_url: string;
                        oib: string;
                        number: string;
                        premises: string;
                        device: string;
                        issued_at: string;
                        total: string;
                        payment_method: string;
                        operator_oib: string | null;
                        vat_registered: boolean | null;
                        sequence: string | null;
                        /** @description Naknadna dostava (NakDost): račun je izdan bez JIR-a pa je Poreznoj upravi dostavljen naknadno. */
                        late_delivery: boolean;
                        vat: {
                            rate: string;
                            base: string;
                            amount: string;
                        }[];
                        consumption_tax: {
                            rate: string;
                            base: string;
                            amount: string;
                        }[];
                        other_taxes: {
                            rate: string;
                            base: string;
                            amount: string;
                            name: string;
                        }[];
                        exempt_amount: string | null;
                        margin_amount: string | null;
                        not_taxable_amount: string | null;
                        fees: {
                            name: string;
                            amount: string;
                        }[];
                        buyer_oib: string | null;
                        paragon_number: string | null;
                        special_purpose: string | null;
                        storno_of: string | null;
                        /** @description Napojnica prijavljena Poreznoj upravi (POST /v1/invoices/{id}/tip), ili null. */
                        tip: {
                            amount: string;
                            payment_method: string;
                        } | null;
                        /** @description Način plaćanja prijavljen promjenom (POST /v1/invoices/{id}/payment-method), ili null; payment_method ostaje onaj s računa. */
                        changed_payment_method: string | null;
                        fiscalized_at: string | null;
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_conflict: Idempotency-Key je upotrijebljen za drugo tijelo (details.reason "mismatch"), prvi zahtjev se još obrađuje ("in_progress", uz Retry-After) ili mu ishod nije poznat ("outcome_unknown"). conflict: Broj računa ili e-računa već je iskorišten. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. upstream_unavailable: Porezna uprava ili posrednik za e-račune nije dostupan; ponovite s istim Idempotency-Key nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description outcome_unknown: Baza podataka prekinula je vezu dok se zahtjev spremao: nije poznato je li zabilježen. Ponovite s istim Idempotency-Key nakon Retry-After (ili dohvatite details.id); ništa se ne šalje dvaput. */
            504: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "invoices-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description "fiscalized": JIR je zaprimljen; "pending": poslan Poreznoj upravi, JIR još nije zabilježen (račun vrijedi sa ZKI). */
                        status: string;
                        /** @description Jedinstveni identifikator računa koji vraća Porezna uprava; null dok ga nema. */
                        jir: string | null;
                        /** @description Zaštitni kod izdavatelja: MD5 RSA-SHA1 potpisa. */
                        zki: string;
                        /** @description Sadržaj QR koda računa (specifikacija v2.6, pogl. 2.7): poveznica s JIR-om, a dok ga nema sa ZKI-jem. Slika: GET /v1/invoices/{id}/qr. */
                        qr_url: string;
                        oib: string;
                        number: string;
                        premises: string;
                        device: string;
                        issued_at: string;
                        total: string;
                        payment_method: string;
                        operator_oib: string | null;
                        vat_registered: boolean | null;
                        sequence: string | null;
                        /** @description Naknadna dostava (NakDost): račun je izdan bez JIR-a pa je Poreznoj upravi dostavljen naknadno. */
                        late_delivery: boolean;
                        vat: {
                            rate: string;
                            base: string;
                            amount: string;
                        }[];
                        consumption_tax: {
                            rate: string;
                            base: string;
                            amount: string;
                        }[];
                        other_taxes: {
                            rate: string;
                            base: string;
                            amount: string;
                            name: string;
                        }[];
                        exempt_amount: string | null;
                        margin_amount: string | null;
                        not_taxable_amount: string | null;
                        fees: {
                            name: string;
                            amount: string;
                        }[];
                        buyer_oib: string | null;
                        paragon_number: string | null;
                        special_purpose: string | null;
                        storno_of: string | null;
                        /** @description Napojnica prijavljena Poreznoj upravi (POST /v1/invoices/{id}/tip), ili null. */
                        tip: {
                            amount: string;
                            payment_method: string;
                        } | null;
                        /** @description Način plaćanja prijavljen promjenom (POST /v1/invoices/{id}/payment-method), ili null; payment_method ostaje onaj s računa. */
                        changed_payment_method: string | null;
                        fiscalized_at: string | null;
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "invoices-qr": {
        parameters: {
            query?: {
                format?: "svg" | "png";
                size?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description Sadržaj QR koda: poveznica na provjeru računa kod Porezne uprave. */
                        url: string;
                        /** @enum {string} */
                        format: "svg" | "png";
                        /** @description image/svg+xml ili image/png. */
                        content_type: string;
                        /** @description SVG zapis, odnosno PNG u base64. */
                        data: string;
                        /** @description data: URI slike, npr. za <img src>. */
                        data_uri: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "invoices-list": {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                from?: string;
                to?: string;
                status?: "fiscalized" | "pending";
                number?: string;
                premises?: string;
                device?: string;
                buyer_oib?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Dokumenti stranice, od najnovijeg. */
                        data: {
                            id: string;
                            /** @description "fiscalized": JIR je zaprimljen; "pending": poslan Poreznoj upravi, JIR još nije zabilježen (račun vrijedi sa ZKI). */
                            status: string;
                            /** @description Jedinstveni identifikator računa koji vraća Porezna uprava; null dok ga nema. */
                            jir: string | null;
                            /** @description Zaštitni kod izdavatelja: MD5 RSA-SHA1 potpisa. */
                            zki: string;
                            /** @description Sadržaj QR koda računa (specifikacija v2.6, pogl. 2.7): poveznica s JIR-om, a dok ga nema sa ZKI-jem. Slika: GET /v1/invoices/{id}/qr. */
                            qr_url: string;
                            oib: string;
                            number: string;
                            premises: string;
                            device: string;
                            issued_at: string;
                            total: string;
                            payment_method: string;
                            operator_oib: string | null;
                            vat_registered: boolean | null;
                            sequence: string | null;
                            /** @description Naknadna dostava (NakDost): račun je izdan bez JIR-a pa je Poreznoj upravi dostavljen naknadno. */
                            late_delivery: boolean;
                            vat: {
                                rate: string;
                                base: string;
                                amount: string;
                            }[];
                            consumption_tax: {
                                rate: string;
                                base: string;
                                amount: string;
                            }[];
                            other_taxes: {
                                rate: string;
                                base: string;
                                amount: string;
                                name: string;
                            }[];
                            exempt_amount: string | null;
                            margin_amount: string | null;
                            not_taxable_amount: string | null;
                            fees: {
                                name: string;
                                amount: string;
                            }[];
                            buyer_oib: string | null;
                            paragon_number: string | null;
                            special_purpose: string | null;
                            storno_of: string | null;
                            /** @description Napojnica prijavljena Poreznoj upravi (POST /v1/invoices/{id}/tip), ili null. */
                            tip: {
                                amount: string;
                                payment_method: string;
                            } | null;
                            /** @description Način plaćanja prijavljen promjenom (POST /v1/invoices/{id}/payment-method), ili null; payment_method ostaje onaj s računa. */
                            changed_payment_method: string | null;
                            fiscalized_at: string | null;
                            created_at: string;
                        }[];
                        /** @description Ima li još dokumenata nakon ove stranice. */
                        has_more: boolean;
                        /** @description Vrijednost za cursor sljedeće stranice; null na zadnjoj. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "invoices-tip": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id računa. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Iznos napojnice (iznosNapojnice). */
                    amount: string;
                    /**
                     * @description Kako je napojnica plaćena (nacinPlacanjaNapojnice).
                     * @enum {string}
                     */
                    payment_method: "G" | "K" | "T" | "O";
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description "fiscalized": JIR je zaprimljen; "pending": poslan Poreznoj upravi, JIR još nije zabilježen (račun vrijedi sa ZKI). */
                        status: string;
                        /** @description Jedinstveni identifikator računa koji vraća Porezna uprava; null dok ga nema. */
                        jir: string | null;
                        /** @description Zaštitni kod izdavatelja: MD5 RSA-SHA1 potpisa. */
                        zki: string;
                        /** @description Sadržaj QR koda računa (specifikacija v2.6, pogl. 2.7): poveznica s JIR-om, a dok ga nema sa ZKI-jem. Slika: GET /v1/invoices/{id}/qr. */
                        qr_url: string;
                        oib: string;
                        number: string;
                        premises: string;
                        device: string;
                        issued_at: string;
                        total: string;
                        payment_method: string;
                        operator_oib: string | null;
                        vat_registered: boolean | null;
                        sequence: string | null;
                        /** @description Naknadna dostava (NakDost): račun je izdan bez JIR-a pa je Poreznoj upravi dostavljen naknadno. */
                        late_delivery: boolean;
                        vat: {
                            rate: string;
                            base: string;
                            amount: string;
                        }[];
                        consumption_tax: {
                            rate: string;
                            base: string;
                            amount: string;
                        }[];
                        other_taxes: {
                            rate: string;
                            base: string;
                            amount: string;
                            name: string;
                        }[];
                        exempt_amount: string | null;
                        margin_amount: string | null;
                        not_taxable_amount: string | null;
                        fees: {
                            name: string;
                            amount: string;
                        }[];
                        buyer_oib: string | null;
                        paragon_number: string | null;
                        special_purpose: string | null;
                        storno_of: string | null;
                        /** @description Napojnica prijavljena Poreznoj upravi (POST /v1/invoices/{id}/tip), ili null. */
                        tip: {
                            amount: string;
                            payment_method: string;
                        } | null;
                        /** @description Način plaćanja prijavljen promjenom (POST /v1/invoices/{id}/payment-method), ili null; payment_method ostaje onaj s računa. */
                        changed_payment_method: string | null;
                        fiscalized_at: string | null;
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "invoices-paymentMethod": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id računa. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Novi način plaćanja (PromijenjeniNacinPlac).
                     * @enum {string}
                     */
                    payment_method: "G" | "K" | "T" | "O";
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description "fiscalized": JIR je zaprimljen; "pending": poslan Poreznoj upravi, JIR još nije zabilježen (račun vrijedi sa ZKI). */
                        status: string;
                        /** @description Jedinstveni identifikator računa koji vraća Porezna uprava; null dok ga nema. */
                        jir: string | null;
                        /** @description Zaštitni kod izdavatelja: MD5 RSA-SHA1 potpisa. */
                        zki: string;
                        /** @description Sadržaj QR koda računa (specifikacija v2.6, pogl. 2.7): poveznica s JIR-om, a dok ga nema sa ZKI-jem. Slika: GET /v1/invoices/{id}/qr. */
                        qr_url: string;
                        oib: string;
                        number: string;
                        premises: string;
                        device: string;
                        issued_at: string;
                        total: string;
                        payment_method: string;
                        operator_oib: string | null;
                        vat_registered: boolean | null;
                        sequence: string | null;
                        /** @description Naknadna dostava (NakDost): račun je izdan bez JIR-a pa je Poreznoj upravi dostavljen naknadno. */
                        late_delivery: boolean;
                        vat: {
                            rate: string;
                            base: string;
                            amount: string;
                        }[];
                        consumption_tax: {
                            rate: string;
                            base: string;
                            amount: string;
                        }[];
                        other_taxes: {
                            rate: string;
                            base: string;
                            amount: string;
                            name: string;
                        }[];
                        exempt_amount: string | null;
                        margin_amount: string | null;
                        not_taxable_amount: string | null;
                        fees: {
                            name: string;
                            amount: string;
                        }[];
                        buyer_oib: string | null;
                        paragon_number: string | null;
                        special_purpose: string | null;
                        storno_of: string | null;
                        /** @description Napojnica prijavljena Poreznoj upravi (POST /v1/invoices/{id}/tip), ili null. */
                        tip: {
                            amount: string;
                            payment_method: string;
                        } | null;
                        /** @description Način plaćanja prijavljen promjenom (POST /v1/invoices/{id}/payment-method), ili null; payment_method ostaje onaj s računa. */
                        changed_payment_method: string | null;
                        fiscalized_at: string | null;
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "invoices-check": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id računa. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        valid: boolean;
                        errors: {
                            code: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "certificates-get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Subjekt certifikata (RFC 4514). */
                        subject: string;
                        /** @description Izdavatelj certifikata, npr. CN=Fina RDC 2020,O=Financijska agencija,C=HR ili FISKAL TEST za generirani testni certifikat. */
                        issuer: string | null;
                        /** @description OIB kojem je certifikat izdan; potpisuju se samo računi s tim OIB-om izdavatelja. */
                        oib: string | null;
                        serial_number: string | null;
                        /** @description SHA-256 otisak certifikata. */
                        fingerprint_sha256: string | null;
                        not_before: string | null;
                        /** @description Istek certifikata (ISO 8601). */
                        not_after: string;
                        /** @description Cijeli dani do isteka (negativno nakon isteka). */
                        days_left: number;
                        /**
                         * @description "expiring": ističe za manje od 30 dana — obnovite ga kod FINA-e i učitajte novi.
                         * @enum {string}
                         */
                        state: "valid" | "expiring" | "expired" | "not_yet_valid";
                        /** @description Nije FINA produkcijski certifikat (generirani testni, FINA demo ili drugi izdavatelj): produkcijska Porezna uprava ga ne prima. */
                        test: boolean;
                        /**
                         * @description Lanac certifikata prema FINA CA certifikatima koje Fiskal isporučuje: fina_production (Fina Root CA), fina_demo (Fina Demo Root CA) ili untrusted (samopotpisan ili drugi izdavatelj).
                         * @enum {string}
                         */
                        trust: "fina_production" | "fina_demo" | "untrusted";
                        /** @description CA certifikati iznad njega, od izdavatelja do korijena, npr. ["Fina RDC 2020", "Fina Root CA"]; prazno kad ne vodi do FINA-e. */
                        chain: string[];
                        uploaded_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "certificates-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Datoteka certifikata (.p12 / .pfx) kao base64. */
                    pkcs12: string;
                    /** @description Lozinka datoteke certifikata. Ne pohranjuje se. */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Subjekt certifikata (RFC 4514). */
                        subject: string;
                        /** @description Izdavatelj certifikata, npr. CN=Fina RDC 2020,O=Financijska agencija,C=HR ili FISKAL TEST za generirani testni certifikat. */
                        issuer: string | null;
                        /** @description OIB kojem je certifikat izdan; potpisuju se samo računi s tim OIB-om izdavatelja. */
                        oib: string | null;
                        serial_number: string | null;
                        /** @description SHA-256 otisak certifikata. */
                        fingerprint_sha256: string | null;
                        not_before: string | null;
                        /** @description Istek certifikata (ISO 8601). */
                        not_after: string;
                        /** @description Cijeli dani do isteka (negativno nakon isteka). */
                        days_left: number;
                        /**
                         * @description "expiring": ističe za manje od 30 dana — obnovite ga kod FINA-e i učitajte novi.
                         * @enum {string}
                         */
                        state: "valid" | "expiring" | "expired" | "not_yet_valid";
                        /** @description Nije FINA produkcijski certifikat (generirani testni, FINA demo ili drugi izdavatelj): produkcijska Porezna uprava ga ne prima. */
                        test: boolean;
                        /**
                         * @description Lanac certifikata prema FINA CA certifikatima koje Fiskal isporučuje: fina_production (Fina Root CA), fina_demo (Fina Demo Root CA) ili untrusted (samopotpisan ili drugi izdavatelj).
                         * @enum {string}
                         */
                        trust: "fina_production" | "fina_demo" | "untrusted";
                        /** @description CA certifikati iznad njega, od izdavatelja do korijena, npr. ["Fina RDC 2020", "Fina Root CA"]; prazno kad ne vodi do FINA-e. */
                        chain: string[];
                        uploaded_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "einvoices-send": {
        parameters: {
            query?: never;
            header?: {
                /** @description Ponovljeni zahtjev s istim ključem i tijelom vraća spremljeni odgovor i nikad se ne izvodi dvaput (ključ vrijedi 24 h). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Vrsta dokumenta (UNTDID 1001): 380 račun, 381 odobrenje (UBL CreditNote), 384 korektivni račun, 386 račun za predujam, 394 račun za leasing.
                     * @default 380
                     * @enum {string}
                     */
                    document_type?: "380" | "381" | "384" | "386" | "394";
                    /** @description Broj računa, bez bjelina (HR-BR-1). */
                    number: string;
                    /**
                     * Format: date
                     * @description Datum izdavanja, od 2026-01-01 (HR-BR-40).
                     */
                    issue_date: string;
                    /** @description Vrijeme izdavanja (HR-BT-2), SS:MM ili SS:MM:ss. Ako se izostavi, vrijeme primitka zahtjeva po zagrebačkom vremenu. */
                    issue_time?: string;
                    /**
                     * Format: date
                     * @description Datum dospijeća; ako se izostavi, a iznos je za plaćanje, jednak datumu izdavanja (HR-BR-4).
                     */
                    due_date?: string;
                    /** @description Oznaka poslovnog procesa (BT-23): P1–P12 ili P99:oznaka kupca. Zadano P1; za 381 P9, za 384 P10, za 386 P4. */
                    process_type?: string;
                    /**
                     * @description Valuta; samo EUR.
                     * @default EUR
                     * @constant
                     */
                    currency?: "EUR";
                    /** @description Indikator kopije (HR-BT-1): true kad se ponovno šalje kopija već poslanog računa. */
                    copy?: boolean;
                    /** @description Obračun PDV-a po naplaćenoj naknadi (čl. 125.i Zakona o PDV-u): true upisuje HRObracunPDVPoNaplati u HR proširenje. */
                    cash_basis_vat?: boolean;
                    /** @description Napomena na računu (BT-22). */
                    note?: string;
                    seller: {
                        /** @description OIB prodavatelja. */
                        oib: string;
                        /** @description Naziv (tvrtka) kako je registriran (BT-27/BT-44). */
                        name: string;
                        /** @description Trgovački naziv (BT-28/BT-45), ako se razlikuje od registriranog; upisuje se samo kad je naveden. */
                        trading_name?: string;
                        address?: {
                            /** @description Ulica i kućni broj. */
                            street?: string;
                            /** @description Mjesto. */
                            city?: string;
                            /** @description Poštanski broj. */
                            postal_code?: string;
                            /** @description Država, ISO 3166-1 alpha-2 (zadano HR). */
                            country?: string;
                        };
                        /** @description Elektronička adresa (BT-34/BT-49); zadano OIB u shemi 9934. */
                        endpoint?: {
                            /** @description Shema elektroničke adrese (EAS), npr. 9934 OIB, 9930 njemački PDV broj, 0088 GLN, EM e-pošta. */
                            scheme: string;
                            /** @description Elektronička adresa u toj shemi. */
                            id: string;
                        };
                        /** @description PDV identifikator (BT-31); zadano HR + OIB. Izostaviti za prodavatelja izvan sustava PDV-a. */
                        vat_id?: string;
                        /** @description false: prodavatelj nije u sustavu PDV-a (porezna shema FRE, stavke E s razlogom ili O). Zadano true. */
                        in_vat_system?: boolean;
                        /** @description IBAN prodavatelja za plaćanje (koristi se ako payment.iban nije naveden). */
                        iban?: string;
                        /** @description Dodatni pravni podaci (BT-33), npr. upis u sudski registar i temeljni kapital. */
                        legal_form?: string;
                    };
                    buyer: {
                        /** @description OIB kupca; obavezan za kupca iz Hrvatske. */
                        oib?: string;
                        /** @description Naziv (tvrtka) kako je registriran (BT-27/BT-44). */
                        name: string;
                        /** @description Trgovački naziv (BT-28/BT-45), ako se razlikuje od registriranog; upisuje se samo kad je naveden. */
                        trading_name?: string;
                        address?: {
                            /** @description Ulica i kućni broj. */
                            street?: string;
                            /** @description Mjesto. */
                            city?: string;
                            /** @description Poštanski broj. */
                            postal_code?: string;
                            /** @description Država, ISO 3166-1 alpha-2 (zadano HR). */
                            country?: string;
                        };
                        /** @description Elektronička adresa (BT-34/BT-49); zadano OIB u shemi 9934. */
                        endpoint?: {
                            /** @description Shema elektroničke adrese (EAS), npr. 9934 OIB, 9930 njemački PDV broj, 0088 GLN, EM e-pošta. */
                            scheme: string;
                            /** @description Elektronička adresa u toj shemi. */
                            id: string;
                        };
                        /** @description PDV identifikator kupca (BT-48) s oznakom države, npr. DE123456789. Za hrvatskog kupca zadano HR + OIB kad ga kategorije S, Z, E, AE traže. */
                        vat_id?: string;
                        /** @description Oznaka poslovne jedinice kupca (BT-46), upisuje se kao 9934:OIB::HR99:oznaka; traži buyer.oib. Naziv jedinice ide u trading_name (BT-45). */
                        business_unit?: string;
                    };
                    /** @description Osoba koja je izdala račun (čl. 8. Zakona o fiskalizaciji): oznaka i OIB operatera, ne tvrtke. Obavezno (HR-BR-37, HR-BR-9). */
                    operator: {
                        /** @description Oznaka operatera (HR-BT-4), npr. ime i prezime ili šifra blagajnika. */
                        name: string;
                        /** @description OIB operatera (HR-BT-5). */
                        oib: string;
                    };
                    /** @description Računi na koje se dokument odnosi (BG-3): obavezno za 381 i 384; u konačnom računu i plaćeni predujmovi. */
                    billing_references?: {
                        /** @description Broj prethodnog računa (BT-25). */
                        number: string;
                        /**
                         * Format: date
                         * @description Datum izdavanja prethodnog računa (BT-26, HR-BR-6).
                         */
                        issue_date: string;
                        /** @description Opis prethodnog računa (HR-BT-3). */
                        description?: string;
                    }[];
                    /** @description Razdoblje obračuna cijelog računa (BG-14). */
                    period?: {
                        /**
                         * Format: date
                         * @description Početak razdoblja (BT-73 / BT-134).
                         */
                        start?: string;
                        /**
                         * Format: date
                         * @description Kraj razdoblja (BT-74 / BT-135).
                         */
                        end?: string;
                    };
                    delivery?: {
                        /**
                         * Format: date
                         * @description Stvarni datum isporuke (BT-72).
                         */
                        date?: string;
                        /** @description Adresa isporuke (BG-15); država obavezna za isporuku unutar EU (K). */
                        address?: {
                            /** @description Ulica i kućni broj. */
                            street?: string;
                            /** @description Mjesto. */
                            city?: string;
                            /** @description Poštanski broj. */
                            postal_code?: string;
                            /** @description Država, ISO 3166-1 alpha-2 (zadano HR). */
                            country?: string;
                        };
                    };
                    payment?: {
                        /** @description Način plaćanja, UNTDID 4461: 30 kreditni transfer (zadano uz IBAN), 10 gotovina, 48 kartica, 49 izravno terećenje. */
                        means_code?: string;
                        /** @description IBAN primatelja plaćanja (BT-84); zadano seller.iban. */
                        iban?: string;
                        /** @description Poziv na broj (BT-83), npr. "HR00 2026-15". */
                        reference?: string;
                        /** @description Opis plaćanja. */
                        note?: string;
                        /** @description Uvjeti plaćanja (BT-20). */
                        terms?: string;
                    };
                    /** @description Popusti na razini dokumenta (BG-20). */
                    allowances?: {
                        /** @description Iznos bez PDV-a, veći od nule. */
                        amount: string;
                        /** @description Razlog (tekst); on ili kod razloga je obavezan. */
                        reason?: string;
                        /** @description Kod razloga: UNTDID 5189 za popuste (npr. 95), UNTDID 7161 za troškove (npr. FC prijevoz). */
                        reason_code?: string;
                        /** @description Postotak (BT-94/BT-101) uz base_amount: iznos = osnovica × postotak / 100 (FISKAL-ALLOWANCE-PERCENT). */
                        percent?: string;
                        /** @description Osnovica postotka (BT-93/BT-100). */
                        base_amount?: string;
                        /**
                         * @description Kategorija PDV-a: S stopa 25/13/5, Z nulta stopa, E oslobođeno (uz razlog), AE prijenos porezne obveze, K isporuka unutar EU, G izvoz, O ne podliježe PDV-u. Zadano S, ili Z kad je stopa 0.
                         * @enum {string}
                         */
                        vat_category?: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
                        /** @description Stopa PDV-a u postotcima: 25, 13 ili 5 za S; 0 (ili izostaviti) za Z, E, AE, K, G; izostaviti za O. */
                        vat_rate?: string;
                        /** @description Razlog oslobođenja (BT-120), npr. članak Zakona o PDV-u. Obavezan za E ako nema koda. */
                        exemption_reason?: string;
                        /** @description VATEX kod razloga oslobođenja (BT-121), npr. VATEX-EU-132-1I. Za AE, K, G i O zadano VATEX-EU-AE, -IC, -G, -O. */
                        exemption_reason_code?: string;
                        /**
                         * @description Iznos izvan osnovice PDV-a: HR:N turistička pristojba, HR:POVNAK povratna naknada, HR:PP porez na potrošnju, HR:PPMV posebni porez na motorna vozila. Kategorija E (zadano), stopa 0, uz exemption_reason; u HR proširenju kategorija O i OutOfScopeOfVATAmount. Stavka E čiji razlog navodi takav iznos bez ove oznake odbija se (FISKAL-OUT-OF-SCOPE).
                         * @enum {string}
                         */
                        out_of_scope?: "HR:N" | "HR:POVNAK" | "HR:PP" | "HR:PPMV";
                    }[];
                    /** @description Troškovi na razini dokumenta (BG-21). */
                    charges?: {
                        /** @description Iznos bez PDV-a, veći od nule. */
                        amount: string;
                        /** @description Razlog (tekst); on ili kod razloga je obavezan. */
                        reason?: string;
                        /** @description Kod razloga: UNTDID 5189 za popuste (npr. 95), UNTDID 7161 za troškove (npr. FC prijevoz). */
                        reason_code?: string;
                        /** @description Postotak (BT-94/BT-101) uz base_amount: iznos = osnovica × postotak / 100 (FISKAL-ALLOWANCE-PERCENT). */
                        percent?: string;
                        /** @description Osnovica postotka (BT-93/BT-100). */
                        base_amount?: string;
                        /**
                         * @description Kategorija PDV-a: S stopa 25/13/5, Z nulta stopa, E oslobođeno (uz razlog), AE prijenos porezne obveze, K isporuka unutar EU, G izvoz, O ne podliježe PDV-u. Zadano S, ili Z kad je stopa 0.
                         * @enum {string}
                         */
                        vat_category?: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
                        /** @description Stopa PDV-a u postotcima: 25, 13 ili 5 za S; 0 (ili izostaviti) za Z, E, AE, K, G; izostaviti za O. */
                        vat_rate?: string;
                        /** @description Razlog oslobođenja (BT-120), npr. članak Zakona o PDV-u. Obavezan za E ako nema koda. */
                        exemption_reason?: string;
                        /** @description VATEX kod razloga oslobođenja (BT-121), npr. VATEX-EU-132-1I. Za AE, K, G i O zadano VATEX-EU-AE, -IC, -G, -O. */
                        exemption_reason_code?: string;
                        /**
                         * @description Iznos izvan osnovice PDV-a: HR:N turistička pristojba, HR:POVNAK povratna naknada, HR:PP porez na potrošnju, HR:PPMV posebni porez na motorna vozila. Kategorija E (zadano), stopa 0, uz exemption_reason; u HR proširenju kategorija O i OutOfScopeOfVATAmount. Stavka E čiji razlog navodi takav iznos bez ove oznake odbija se (FISKAL-OUT-OF-SCOPE).
                         * @enum {string}
                         */
                        out_of_scope?: "HR:N" | "HR:POVNAK" | "HR:PP" | "HR:PPMV";
                    }[];
                    /** @description Stavke računa (BG-25). */
                    lines: {
                        /** @description Naziv artikla ili usluge (BT-153). */
                        description: string;
                        /** @description Količina; negativna za povrat ili storno stavke. */
                        quantity: string;
                        /**
                         * @description Jedinica mjere po UN/ECE preporuci 20/21 (BR-CL-23), npr. H87 komad, HUR sat, KGM kilogram. "KOM" nije ispravna oznaka.
                         * @default H87
                         */
                        unit?: string;
                        /** @description Neto cijena jedinice bez PDV-a; ne smije biti negativna (BR-27). */
                        unit_price: string;
                        /**
                         * @description Kategorija PDV-a: S stopa 25/13/5, Z nulta stopa, E oslobođeno (uz razlog), AE prijenos porezne obveze, K isporuka unutar EU, G izvoz, O ne podliježe PDV-u. Zadano S, ili Z kad je stopa 0.
                         * @enum {string}
                         */
                        vat_category?: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
                        /** @description Stopa PDV-a u postotcima: 25, 13 ili 5 za S; 0 (ili izostaviti) za Z, E, AE, K, G; izostaviti za O. */
                        vat_rate?: string;
                        /** @description Razlog oslobođenja (BT-120), npr. članak Zakona o PDV-u. Obavezan za E ako nema koda. */
                        exemption_reason?: string;
                        /** @description VATEX kod razloga oslobođenja (BT-121), npr. VATEX-EU-132-1I. Za AE, K, G i O zadano VATEX-EU-AE, -IC, -G, -O. */
                        exemption_reason_code?: string;
                        /**
                         * @description Iznos izvan osnovice PDV-a: HR:N turistička pristojba, HR:POVNAK povratna naknada, HR:PP porez na potrošnju, HR:PPMV posebni porez na motorna vozila. Kategorija E (zadano), stopa 0, uz exemption_reason; u HR proširenju kategorija O i OutOfScopeOfVATAmount. Stavka E čiji razlog navodi takav iznos bez ove oznake odbija se (FISKAL-OUT-OF-SCOPE).
                         * @enum {string}
                         */
                        out_of_scope?: "HR:N" | "HR:POVNAK" | "HR:PP" | "HR:PPMV";
                        /** @description KPD 2025 šifra razine 5, npr. 62.10.11. Obavezna osim na odobrenju (381) i računu za predujam (386). */
                        kpd?: string;
                        /** @description Osnovna količina cijene (BT-149, u jedinici stavke): cijena vrijedi za toliko jedinica, npr. "1" ili "100". Upisuje se samo kad je navedena. */
                        base_quantity?: string;
                        /** @description Popusti na stavci (BG-27), npr. rabat; kategorija PDV-a je stavkina. */
                        allowances?: {
                            /** @description Iznos bez PDV-a, veći od nule; umanjuje (popust) ili uvećava (trošak) iznos stavke. */
                            amount: string;
                            /** @description Razlog (tekst), npr. Rabat; on ili kod razloga je obavezan (BR-42, BR-44). */
                            reason?: string;
                            /** @description Kod razloga: UNTDID 5189 za popuste (npr. 95), UNTDID 7161 za troškove. */
                            reason_code?: string;
                            /** @description Postotak uz base_amount: iznos = osnovica × postotak / 100. */
                            percent?: string;
                            /** @description Osnovica postotka. */
                            base_amount?: string;
                        }[];
                        /** @description Troškovi na stavci (BG-28). */
                        charges?: {
                            /** @description Iznos bez PDV-a, veći od nule; umanjuje (popust) ili uvećava (trošak) iznos stavke. */
                            amount: string;
                            /** @description Razlog (tekst), npr. Rabat; on ili kod razloga je obavezan (BR-42, BR-44). */
                            reason?: string;
                            /** @description Kod razloga: UNTDID 5189 za popuste (npr. 95), UNTDID 7161 za troškove. */
                            reason_code?: string;
                            /** @description Postotak uz base_amount: iznos = osnovica × postotak / 100. */
                            percent?: string;
                            /** @description Osnovica postotka. */
                            base_amount?: string;
                        }[];
                        /** @description Razdoblje obračuna stavke (BG-26). */
                        period?: {
                            /**
                             * Format: date
                             * @description Početak razdoblja (BT-73 / BT-134).
                             */
                            start?: string;
                            /**
                             * Format: date
                             * @description Kraj razdoblja (BT-74 / BT-135).
                             */
                            end?: string;
                        };
                        /** @description Iznos stavke bez PDV-a: količina × cijena (÷ osnovna količina) − popusti stavke + troškovi stavke, zaokruženo na cente. */
                        line_total: string;
                        /** @description Napomena uz stavku. */
                        note?: string;
                    }[];
                    /** @description Zbrojevi koje izračunava izdavatelj; API ih provjerava i ništa ne ispravlja. */
                    totals: {
                        /** @description Iznos bez PDV-a (BT-109): stavke − popusti + troškovi. */
                        net: string;
                        /** @description Ukupni PDV (BT-110): zbroj PDV-a po kategoriji i stopi, svaki zaokružen na cente. */
                        vat: string;
                        /** @description Iznos s PDV-om (BT-112). */
                        gross: string;
                        /** @description Zbroj iznosa stavki (BT-106); provjerava se ako je naveden. */
                        line_total?: string;
                        /** @description Zbroj popusta (BT-107); provjerava se ako je naveden. */
                        allowances?: string;
                        /** @description Zbroj troškova (BT-108); provjerava se ako je naveden. */
                        charges?: string;
                        /** @description Već plaćeni iznos, npr. predujam (BT-113). */
                        prepaid?: string;
                        /** @description Iznos za plaćanje (BT-115): iznos s PDV-om − plaćeno; provjerava se ako je naveden. */
                        payable?: string;
                        /** @description Raspodjela PDV-a (BG-23) kako ju je izračunao izdavatelj; ako je navedena, svaka skupina mora se slagati s dokumentom (BR-S-08, BR-S-09, …). */
                        vat_breakdown?: {
                            /**
                             * @description Kategorija PDV-a (BT-118).
                             * @enum {string}
                             */
                            category: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
                            /** @description Stopa (BT-119); izostaviti za O. */
                            rate?: string;
                            /** @description Osnovica kategorije (BT-116). */
                            taxable_amount: string;
                            /** @description PDV kategorije (BT-117), zaokružen na cente. */
                            tax_amount: string;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Identifikator e-računa u Fiskalu. */
                        id: string;
                        /**
                         * @description Vrsta dokumenta: 380, 381, 384, 386 ili 394.
                         * @enum {string}
                         */
                        document_type: "380" | "381" | "384" | "386" | "394";
                        /** @description Broj računa. */
                        number: string;
                        /**
                         * @description accepted: posrednik je preuzeo dokument; queued: preuzet, primatelj trenutno nedostupan; rejected: posrednik ga je odbio (vidi rejection).
                         * @enum {string}
                         */
                        status: "accepted" | "queued" | "rejected";
                        /** @description Identifikator dokumenta kod posrednika; null ako je odbijen. */
                        intermediary_id: string | null;
                        /** @description OIB prodavatelja. */
                        seller_oib: string;
                        /** @description OIB kupca; null za stranog kupca bez OIB-a. */
                        buyer_oib: string | null;
                        /** @description PDV identifikator kupca u dokumentu, ako ga ima. */
                        buyer_vat_id: string | null;
                        /** @description Datum izdavanja (GGGG-MM-DD). */
                        issue_date: string;
                        /** @description Vrijeme izdavanja u dokumentu (SS:MM:ss). */
                        issue_time: string;
                        /** @description Valuta (EUR). */
                        currency: string;
                        /** @description Iznos bez PDV-a (BT-109), PDV (BT-110) i iznos s PDV-om (BT-112). */
                        totals: {
                            net: string;
                            vat: string;
                            gross: string;
                        };
                        /** @description Iznos za plaćanje (BT-115): iznos s PDV-om umanjen za plaćeni predujam. */
                        payable: string;
                        /** @description Zašto je posrednik odbio dokument; null ako nije odbijen. */
                        rejection: {
                            message: string;
                            /** @description Identifikatori prekršenih pravila, npr. BR-CL-23. */
                            rules: string[];
                        } | null;
                        /** @description Kada je e-račun zabilježen (ISO 8601). */
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_conflict: Idempotency-Key je upotrijebljen za drugo tijelo (details.reason "mismatch"), prvi zahtjev se još obrađuje ("in_progress", uz Retry-After) ili mu ishod nije poznat ("outcome_unknown"). conflict: Broj računa ili e-računa već je iskorišten. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. upstream_unavailable: Porezna uprava ili posrednik za e-račune nije dostupan; ponovite s istim Idempotency-Key nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description outcome_unknown: Baza podataka prekinula je vezu dok se zahtjev spremao: nije poznato je li zabilježen. Ponovite s istim Idempotency-Key nakon Retry-After (ili dohvatite details.id); ništa se ne šalje dvaput. */
            504: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "einvoices-get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Identifikator e-računa u Fiskalu. */
                        id: string;
                        /**
                         * @description Vrsta dokumenta: 380, 381, 384, 386 ili 394.
                         * @enum {string}
                         */
                        document_type: "380" | "381" | "384" | "386" | "394";
                        /** @description Broj računa. */
                        number: string;
                        /**
                         * @description accepted: posrednik je preuzeo dokument; queued: preuzet, primatelj trenutno nedostupan; rejected: posrednik ga je odbio (vidi rejection).
                         * @enum {string}
                         */
                        status: "accepted" | "queued" | "rejected";
                        /** @description Identifikator dokumenta kod posrednika; null ako je odbijen. */
                        intermediary_id: string | null;
                        /** @description OIB prodavatelja. */
                        seller_oib: string;
                        /** @description OIB kupca; null za stranog kupca bez OIB-a. */
                        buyer_oib: string | null;
                        /** @description PDV identifikator kupca u dokumentu, ako ga ima. */
                        buyer_vat_id: string | null;
                        /** @description Datum izdavanja (GGGG-MM-DD). */
                        issue_date: string;
                        /** @description Vrijeme izdavanja u dokumentu (SS:MM:ss). */
                        issue_time: string;
                        /** @description Valuta (EUR). */
                        currency: string;
                        /** @description Iznos bez PDV-a (BT-109), PDV (BT-110) i iznos s PDV-om (BT-112). */
                        totals: {
                            net: string;
                            vat: string;
                            gross: string;
                        };
                        /** @description Iznos za plaćanje (BT-115): iznos s PDV-om umanjen za plaćeni predujam. */
                        payable: string;
                        /** @description Zašto je posrednik odbio dokument; null ako nije odbijen. */
                        rejection: {
                            message: string;
                            /** @description Identifikatori prekršenih pravila, npr. BR-CL-23. */
                            rules: string[];
                        } | null;
                        /** @description Kada je e-račun zabilježen (ISO 8601). */
                        created_at: string;
                        /** @constant */
                        direction: "issued";
                        fiscalization: {
                            /**
                             * @description Fiskalizacija 2.0 (EvidentirajERacunZahtjev): not_delivered: izdani e-račun posrednik još nije isporučio; not_applicable: primljeni dokument nije ispravan e-račun pa se ne evidentira; pending: čeka evidentiranje (ponavlja se dok servis nije dostupan); recorded: evidentiran; refused: Porezna uprava ga je odbila (vidi error).
                             * @enum {string}
                             */
                            status: "not_delivered" | "not_applicable" | "pending" | "recorded" | "refused";
                            /**
                             * @description vrstaERacuna: I izlazni (izdani), U ulazni (primljeni).
                             * @enum {string}
                             */
                            type: "I" | "U";
                            /** @description Id zadnjeg zahtjeva EvidentirajERacunZahtjev. */
                            request_id: string | null;
                            recorded_at: string | null;
                            /** @description Broj slanja Poreznoj upravi. */
                            attempts: number;
                            /** @description Zašto zadnje slanje nije uspjelo (kod i poruka Porezne uprave ili nedostupnost). */
                            error: string | null;
                        };
                        /** @description UBL 2.1 dokument (Invoice ili CreditNote): izdani kako je predan posredniku ili kako ga je posrednik odbio; primljeni točno kako ga je posrednik isporučio. */
                        ubl: string;
                    } | {
                        /** @description Identifikator primljenog e-računa u Fiskalu. */
                        id: string;
                        /** @constant */
                        direction: "received";
                        /**
                         * @description Odluka primatelja: "received" (još bez odluke), "accepted" (prihvaćen) ili "rejected" (odbijen, vidi decision).
                         * @enum {string}
                         */
                        status: "received" | "accepted" | "rejected";
                        /** @description Vrsta dokumenta (UNTDID 1001); null ako se dokument ne može pročitati. */
                        document_type: string | null;
                        /** @description Broj računa; null ako se dokument ne može pročitati. */
                        number: string | null;
                        /** @description OIB izdavatelja (prodavatelja). */
                        seller_oib: string | null;
                        seller_name: string | null;
                        /** @description OIB primatelja: OIB tvrtke kojoj je posrednik isporučio dokument. */
                        buyer_oib: string;
                        /** @description Datum izdavanja (GGGG-MM-DD). */
                        issue_date: string | null;
                        currency: string | null;
                        /** @description Iznos bez PDV-a (BT-109), PDV (BT-110) i iznos s PDV-om (BT-112) kako ih dokument navodi. */
                        totals: {
                            net: string | null;
                            vat: string | null;
                            gross: string | null;
                        };
                        /** @description Iznos za plaćanje (BT-115). */
                        payable: string | null;
                        /** @description Identifikator isporuke kod posrednika. */
                        message_id: string;
                        /** @description Kada ga je Fiskal zaprimio (ISO 8601). */
                        received_at: string;
                        /** @description Provjera istim validatorima kao za slanje. Neispravan dokument je ipak zaprimljen i čuva se. */
                        validation: {
                            /** @description true: bez kobnih pogrešaka. */
                            valid: boolean;
                            /** @description Provjere: xsd (UBL 2.1), en16931, hr-cius; structure i xsd gdje službeni validatori nisu instalirani. */
                            checked: string[];
                            violations: {
                                /** @description Npr. BR-CO-15, HR-BR-9, UBL-XSD. */
                                rule: string;
                                /** @enum {string} */
                                flag: "fatal" | "warning";
                                message: string;
                            }[];
                        };
                        /** @description Odluka primatelja; null dok je nema. */
                        decision: {
                            decided_at: string;
                            /** @description Odbijanje: N, U ili O (eIzvjestavanjeSchema.xsd). */
                            reason_type: ("N" | "U" | "O") | null;
                            reason: string | null;
                            rejected_on: string | null;
                            /** @description Prijava odbijanja Poreznoj upravi (EvidentirajOdbijanjeZahtjev); null za prihvaćanje, koje se ne prijavljuje. */
                            report: {
                                /** @description pending: šalje se; recorded: Porezna uprava je zaprimila; refused: odbila (vidi error; odbijanje se smije poslati ponovno); unknown: poslano, odgovor nije stigao. */
                                status: string;
                                request_id: string;
                                recorded_at: string | null;
                                attempts: number;
                                error: string | null;
                            } | null;
                        } | null;
                        fiscalization: {
                            /**
                             * @description Fiskalizacija 2.0 (EvidentirajERacunZahtjev): not_delivered: izdani e-račun posrednik još nije isporučio; not_applicable: primljeni dokument nije ispravan e-račun pa se ne evidentira; pending: čeka evidentiranje (ponavlja se dok servis nije dostupan); recorded: evidentiran; refused: Porezna uprava ga je odbila (vidi error).
                             * @enum {string}
                             */
                            status: "not_delivered" | "not_applicable" | "pending" | "recorded" | "refused";
                            /**
                             * @description vrstaERacuna: I izlazni (izdani), U ulazni (primljeni).
                             * @enum {string}
                             */
                            type: "I" | "U";
                            /** @description Id zadnjeg zahtjeva EvidentirajERacunZahtjev. */
                            request_id: string | null;
                            recorded_at: string | null;
                            /** @description Broj slanja Poreznoj upravi. */
                            attempts: number;
                            /** @description Zašto zadnje slanje nije uspjelo (kod i poruka Porezne uprave ili nedostupnost). */
                            error: string | null;
                        };
                        created_at: string;
                        /** @description UBL 2.1 dokument (Invoice ili CreditNote): izdani kako je predan posredniku ili kako ga je posrednik odbio; primljeni točno kako ga je posrednik isporučio. */
                        ubl: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "einvoices-payments": {
        parameters: {
            query?: never;
            header?: {
                /** @description Ponovljeni zahtjev s istim ključem i tijelom vraća spremljeni odgovor i nikad se ne izvodi dvaput (ključ vrijedi 24 h). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id e-računa. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date
                     * @description Datum naplate (datumNaplate).
                     */
                    paid_on: string;
                    /** @description Naplaćeni iznos (naplaceniIznos). */
                    amount: string;
                    /**
                     * @description Način plaćanja: T transakcijski račun, O obračunsko plaćanje (kompenzacija), Z ostalo.
                     * @enum {string}
                     */
                    method: "T" | "O" | "Z";
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Id prijave. */
                        id: string;
                        einvoice_id: string;
                        /**
                         * @description payment: naplata (EvidentirajNaplatuZahtjev); rejection: odbijanje (EvidentirajOdbijanjeZahtjev).
                         * @enum {string}
                         */
                        kind: "payment" | "rejection";
                        /** @description "recorded": Porezna uprava je zaprimila prijavu. */
                        status: string;
                        /** @description Id zahtjeva koji je Porezna uprava potvrdila (idZahtjeva). */
                        request_id: string;
                        /** @description Podaci prijave kako su poslani Poreznoj upravi. */
                        data: {
                            [key: string]: string;
                        };
                        recorded_at: string | null;
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_conflict: Idempotency-Key je upotrijebljen za drugo tijelo (details.reason "mismatch"), prvi zahtjev se još obrađuje ("in_progress", uz Retry-After) ili mu ishod nije poznat ("outcome_unknown"). conflict: Broj računa ili e-računa već je iskorišten. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. upstream_unavailable: Porezna uprava ili posrednik za e-račune nije dostupan; ponovite s istim Idempotency-Key nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description outcome_unknown: Baza podataka prekinula je vezu dok se zahtjev spremao: nije poznato je li zabilježen. Ponovite s istim Idempotency-Key nakon Retry-After (ili dohvatite details.id); ništa se ne šalje dvaput. */
            504: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "einvoices-rejection": {
        parameters: {
            query?: never;
            header?: {
                /** @description Ponovljeni zahtjev s istim ključem i tijelom vraća spremljeni odgovor i nikad se ne izvodi dvaput (ključ vrijedi 24 h). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Id e-računa. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date
                     * @description Datum odbijanja (datumOdbijanja).
                     */
                    rejected_on: string;
                    /**
                     * @description Vrsta razloga odbijanja: N neusklađenost podataka koji ne utječu na obračun poreza, U neusklađenost koja utječe na obračun poreza, O ostalo.
                     * @enum {string}
                     */
                    reason_type: "N" | "U" | "O";
                    /** @description Razlog odbijanja (razlogOdbijanja). */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Id prijave. */
                        id: string;
                        einvoice_id: string;
                        /**
                         * @description payment: naplata (EvidentirajNaplatuZahtjev); rejection: odbijanje (EvidentirajOdbijanjeZahtjev).
                         * @enum {string}
                         */
                        kind: "payment" | "rejection";
                        /** @description "recorded": Porezna uprava je zaprimila prijavu. */
                        status: string;
                        /** @description Id zahtjeva koji je Porezna uprava potvrdila (idZahtjeva). */
                        request_id: string;
                        /** @description Podaci prijave kako su poslani Poreznoj upravi. */
                        data: {
                            [key: string]: string;
                        };
                        recorded_at: string | null;
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_conflict: Idempotency-Key je upotrijebljen za drugo tijelo (details.reason "mismatch"), prvi zahtjev se još obrađuje ("in_progress", uz Retry-After) ili mu ishod nije poznat ("outcome_unknown"). conflict: Broj računa ili e-računa već je iskorišten. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. upstream_unavailable: Porezna uprava ili posrednik za e-račune nije dostupan; ponovite s istim Idempotency-Key nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description outcome_unknown: Baza podataka prekinula je vezu dok se zahtjev spremao: nije poznato je li zabilježen. Ponovite s istim Idempotency-Key nakon Retry-After (ili dohvatite details.id); ništa se ne šalje dvaput. */
            504: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "einvoices-fiscalization": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description Fiskalizacija 2.0 (EvidentirajERacunZahtjev): not_delivered: izdani e-račun posrednik još nije isporučio; not_applicable: primljeni dokument nije ispravan e-račun pa se ne evidentira; pending: čeka evidentiranje (ponavlja se dok servis nije dostupan); recorded: evidentiran; refused: Porezna uprava ga je odbila (vidi error).
                         * @enum {string}
                         */
                        status: "not_delivered" | "not_applicable" | "pending" | "recorded" | "refused";
                        /**
                         * @description vrstaERacuna: I izlazni (izdani), U ulazni (primljeni).
                         * @enum {string}
                         */
                        type: "I" | "U";
                        /** @description Id zadnjeg zahtjeva EvidentirajERacunZahtjev. */
                        request_id: string | null;
                        recorded_at: string | null;
                        /** @description Broj slanja Poreznoj upravi. */
                        attempts: number;
                        /** @description Zašto zadnje slanje nije uspjelo (kod i poruka Porezne uprave ili nedostupnost). */
                        error: string | null;
                        einvoice_id: string;
                        /** @description Prijave naplate i odbijanja (eIzvještavanje), od najstarije; za primljeni e-račun njegovo odbijanje. */
                        reports: {
                            /** @description Id prijave. */
                            id: string;
                            einvoice_id: string;
                            /**
                             * @description payment: naplata (EvidentirajNaplatuZahtjev); rejection: odbijanje (EvidentirajOdbijanjeZahtjev).
                             * @enum {string}
                             */
                            kind: "payment" | "rejection";
                            /** @description "recorded": Porezna uprava je zaprimila prijavu. */
                            status: string;
                            /** @description Id zahtjeva koji je Porezna uprava potvrdila (idZahtjeva). */
                            request_id: string;
                            /** @description Podaci prijave kako su poslani Poreznoj upravi. */
                            data: {
                                [key: string]: string;
                            };
                            recorded_at: string | null;
                            created_at: string;
                        }[];
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "einvoices-list": {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                from?: string;
                to?: string;
                direction?: "issued" | "received";
                status?: "pending" | "accepted" | "queued" | "rejected" | "received";
                document_type?: "380" | "381" | "384" | "386" | "394";
                number?: string;
                buyer_oib?: string;
                seller_oib?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Dokumenti stranice, od najnovijeg. */
                        data: ({
                            /** @description Identifikator e-računa u Fiskalu. */
                            id: string;
                            /**
                             * @description Vrsta dokumenta: 380, 381, 384, 386 ili 394.
                             * @enum {string}
                             */
                            document_type: "380" | "381" | "384" | "386" | "394";
                            /** @description Broj računa. */
                            number: string;
                            /**
                             * @description pending: odgovor posrednika još nije zabilježen (vidi GET /v1/einvoices/{id}); inače kao u dohvatu.
                             * @enum {string}
                             */
                            status: "pending" | "accepted" | "queued" | "rejected";
                            /** @description Identifikator dokumenta kod posrednika; null ako je odbijen. */
                            intermediary_id: string | null;
                            /** @description OIB prodavatelja. */
                            seller_oib: string;
                            /** @description OIB kupca; null za stranog kupca bez OIB-a. */
                            buyer_oib: string | null;
                            /** @description PDV identifikator kupca u dokumentu, ako ga ima. */
                            buyer_vat_id: string | null;
                            /** @description Datum izdavanja (GGGG-MM-DD). */
                            issue_date: string;
                            /** @description Vrijeme izdavanja u dokumentu (SS:MM:ss). */
                            issue_time: string;
                            /** @description Valuta (EUR). */
                            currency: string;
                            /** @description Iznos bez PDV-a (BT-109), PDV (BT-110) i iznos s PDV-om (BT-112). */
                            totals: {
                                net: string;
                                vat: string;
                                gross: string;
                            };
                            /** @description Iznos za plaćanje (BT-115): iznos s PDV-om umanjen za plaćeni predujam. */
                            payable: string;
                            /** @description Zašto je posrednik odbio dokument; null ako nije odbijen. */
                            rejection: {
                                message: string;
                                /** @description Identifikatori prekršenih pravila, npr. BR-CL-23. */
                                rules: string[];
                            } | null;
                            /** @description Kada je e-račun zabilježen (ISO 8601). */
                            created_at: string;
                            /** @constant */
                            direction: "issued";
                            /**
                             * @description Fiskalizacija 2.0: "not_delivered", "pending" (čeka evidentiranje), "recorded" ili "refused"; pojedinosti na /fiscalization.
                             * @enum {string}
                             */
                            fiscalization_status: "not_delivered" | "pending" | "recorded" | "refused";
                        } | {
                            /** @description Identifikator primljenog e-računa u Fiskalu. */
                            id: string;
                            /** @constant */
                            direction: "received";
                            /**
                             * @description Odluka primatelja: "received" (još bez odluke), "accepted" (prihvaćen) ili "rejected" (odbijen, vidi decision).
                             * @enum {string}
                             */
                            status: "received" | "accepted" | "rejected";
                            /** @description Vrsta dokumenta (UNTDID 1001); null ako se dokument ne može pročitati. */
                            document_type: string | null;
                            /** @description Broj računa; null ako se dokument ne može pročitati. */
                            number: string | null;
                            /** @description OIB izdavatelja (prodavatelja). */
                            seller_oib: string | null;
                            seller_name: string | null;
                            /** @description OIB primatelja: OIB tvrtke kojoj je posrednik isporučio dokument. */
                            buyer_oib: string;
                            /** @description Datum izdavanja (GGGG-MM-DD). */
                            issue_date: string | null;
                            currency: string | null;
                            /** @description Iznos bez PDV-a (BT-109), PDV (BT-110) i iznos s PDV-om (BT-112) kako ih dokument navodi. */
                            totals: {
                                net: string | null;
                                vat: string | null;
                                gross: string | null;
                            };
                            /** @description Iznos za plaćanje (BT-115). */
                            payable: string | null;
                            /** @description Identifikator isporuke kod posrednika. */
                            message_id: string;
                            /** @description Kada ga je Fiskal zaprimio (ISO 8601). */
                            received_at: string;
                            /** @description Provjera istim validatorima kao za slanje. Neispravan dokument je ipak zaprimljen i čuva se. */
                            validation: {
                                /** @description true: bez kobnih pogrešaka. */
                                valid: boolean;
                                /** @description Provjere: xsd (UBL 2.1), en16931, hr-cius; structure i xsd gdje službeni validatori nisu instalirani. */
                                checked: string[];
                                violations: {
                                    /** @description Npr. BR-CO-15, HR-BR-9, UBL-XSD. */
                                    rule: string;
                                    /** @enum {string} */
                                    flag: "fatal" | "warning";
                                    message: string;
                                }[];
                            };
                            /** @description Odluka primatelja; null dok je nema. */
                            decision: {
                                decided_at: string;
                                /** @description Odbijanje: N, U ili O (eIzvjestavanjeSchema.xsd). */
                                reason_type: ("N" | "U" | "O") | null;
                                reason: string | null;
                                rejected_on: string | null;
                                /** @description Prijava odbijanja Poreznoj upravi (EvidentirajOdbijanjeZahtjev); null za prihvaćanje, koje se ne prijavljuje. */
                                report: {
                                    /** @description pending: šalje se; recorded: Porezna uprava je zaprimila; refused: odbila (vidi error; odbijanje se smije poslati ponovno); unknown: poslano, odgovor nije stigao. */
                                    status: string;
                                    request_id: string;
                                    recorded_at: string | null;
                                    attempts: number;
                                    error: string | null;
                                } | null;
                            } | null;
                            fiscalization: {
                                /**
                                 * @description Fiskalizacija 2.0 (EvidentirajERacunZahtjev): not_delivered: izdani e-račun posrednik još nije isporučio; not_applicable: primljeni dokument nije ispravan e-račun pa se ne evidentira; pending: čeka evidentiranje (ponavlja se dok servis nije dostupan); recorded: evidentiran; refused: Porezna uprava ga je odbila (vidi error).
                                 * @enum {string}
                                 */
                                status: "not_delivered" | "not_applicable" | "pending" | "recorded" | "refused";
                                /**
                                 * @description vrstaERacuna: I izlazni (izdani), U ulazni (primljeni).
                                 * @enum {string}
                                 */
                                type: "I" | "U";
                                /** @description Id zadnjeg zahtjeva EvidentirajERacunZahtjev. */
                                request_id: string | null;
                                recorded_at: string | null;
                                /** @description Broj slanja Poreznoj upravi. */
                                attempts: number;
                                /** @description Zašto zadnje slanje nije uspjelo (kod i poruka Porezne uprave ili nedostupnost). */
                                error: string | null;
                            };
                            created_at: string;
                            /**
                             * @description Fiskalizacija 2.0 (vrsta U): "not_applicable" (neispravan dokument), "pending", "recorded" ili "refused".
                             * @enum {string}
                             */
                            fiscalization_status: "not_applicable" | "pending" | "recorded" | "refused";
                        })[];
                        /** @description Ima li još dokumenata nakon ove stranice. */
                        has_more: boolean;
                        /** @description Vrijednost za cursor sljedeće stranice; null na zadnjoj. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "einvoices-supplies": {
        parameters: {
            query?: never;
            header?: {
                /** @description Ponovljeni zahtjev s istim ključem i tijelom vraća spremljeni odgovor i nikad se ne izvodi dvaput (ključ vrijedi 24 h). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Broj računa (brojDokumenta). */
                    number: string;
                    /**
                     * Format: date
                     * @description Datum izdavanja, od 2026-01-01.
                     */
                    issue_date: string;
                    /**
                     * @description Vrsta dokumenta (UNTDID 1001).
                     * @default 380
                     * @enum {string}
                     */
                    document_type?: "380" | "381" | "384" | "386" | "389";
                    /**
                     * Format: date
                     * @description Datum dospijeća plaćanja.
                     */
                    due_date?: string;
                    /**
                     * @description Vrsta poslovnog procesa, npr. P1.
                     * @default P1
                     */
                    process_type?: string;
                    /**
                     * Format: date
                     * @description Datum isporuke.
                     */
                    delivery_date?: string;
                    seller: {
                        /** @description OIB izdavatelja; mora odgovarati certifikatu. */
                        oib: string;
                        name: string;
                    };
                    /** @description OIB operatera koji je izdao račun. */
                    operator_oib: string;
                    buyer: {
                        /** @description OIB primatelja. */
                        oib: string;
                        name: string;
                    };
                    /** @description IBAN za plaćanje. */
                    iban?: string;
                    previous_invoices?: {
                        number: string;
                        /** Format: date */
                        issue_date: string;
                    }[];
                    totals: {
                        /** @description Zbroj neto iznosa stavki. */
                        net: string;
                        /** @description Iznos bez PDV-a. */
                        without_vat: string;
                        /** @description Ukupni PDV. */
                        vat: string;
                        /** @description Iznos s PDV-om. */
                        with_vat: string;
                        /** @description Plaćeni iznos (predujam). */
                        paid?: string;
                        /** @description Iznos koji dospijeva za plaćanje. */
                        payable: string;
                    };
                    vat_breakdown: {
                        /** @enum {string} */
                        category: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
                        taxable_amount: string;
                        tax_amount: string;
                        rate?: string;
                        exemption_reason?: string;
                    }[];
                    lines: {
                        description: string;
                        quantity: string;
                        /** @default H87 */
                        unit?: string;
                        unit_price: string;
                        line_total: string;
                        /** @enum {string} */
                        vat_category: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
                        vat_rate?: string;
                        kpd?: string;
                    }[];
                    /** @default false */
                    copy?: boolean;
                };
            };
        };
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        number: string;
                        /** @description "recorded": Porezna uprava je zaprimila prijavu. */
                        status: string;
                        /** @description Id zahtjeva koji je Porezna uprava potvrdila (idZahtjeva). */
                        request_id: string;
                        recorded_at: string | null;
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_conflict: Idempotency-Key je upotrijebljen za drugo tijelo (details.reason "mismatch"), prvi zahtjev se još obrađuje ("in_progress", uz Retry-After) ili mu ishod nije poznat ("outcome_unknown"). conflict: Broj računa ili e-računa već je iskorišten. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. upstream_unavailable: Porezna uprava ili posrednik za e-račune nije dostupan; ponovite s istim Idempotency-Key nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description outcome_unknown: Baza podataka prekinula je vezu dok se zahtjev spremao: nije poznato je li zabilježen. Ponovite s istim Idempotency-Key nakon Retry-After (ili dohvatite details.id); ništa se ne šalje dvaput. */
            504: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "einvoices-acceptance": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id primljenog e-računa. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Identifikator primljenog e-računa u Fiskalu. */
                        id: string;
                        /** @constant */
                        direction: "received";
                        /**
                         * @description Odluka primatelja: "received" (još bez odluke), "accepted" (prihvaćen) ili "rejected" (odbijen, vidi decision).
                         * @enum {string}
                         */
                        status: "received" | "accepted" | "rejected";
                        /** @description Vrsta dokumenta (UNTDID 1001); null ako se dokument ne može pročitati. */
                        document_type: string | null;
                        /** @description Broj računa; null ako se dokument ne može pročitati. */
                        number: string | null;
                        /** @description OIB izdavatelja (prodavatelja). */
                        seller_oib: string | null;
                        seller_name: string | null;
                        /** @description OIB primatelja: OIB tvrtke kojoj je posrednik isporučio dokument. */
                        buyer_oib: string;
                        /** @description Datum izdavanja (GGGG-MM-DD). */
                        issue_date: string | null;
                        currency: string | null;
                        /** @description Iznos bez PDV-a (BT-109), PDV (BT-110) i iznos s PDV-om (BT-112) kako ih dokument navodi. */
                        totals: {
                            net: string | null;
                            vat: string | null;
                            gross: string | null;
                        };
                        /** @description Iznos za plaćanje (BT-115). */
                        payable: string | null;
                        /** @description Identifikator isporuke kod posrednika. */
                        message_id: string;
                        /** @description Kada ga je Fiskal zaprimio (ISO 8601). */
                        received_at: string;
                        /** @description Provjera istim validatorima kao za slanje. Neispravan dokument je ipak zaprimljen i čuva se. */
                        validation: {
                            /** @description true: bez kobnih pogrešaka. */
                            valid: boolean;
                            /** @description Provjere: xsd (UBL 2.1), en16931, hr-cius; structure i xsd gdje službeni validatori nisu instalirani. */
                            checked: string[];
                            violations: {
                                /** @description Npr. BR-CO-15, HR-BR-9, UBL-XSD. */
                                rule: string;
                                /** @enum {string} */
                                flag: "fatal" | "warning";
                                message: string;
                            }[];
                        };
                        /** @description Odluka primatelja; null dok je nema. */
                        decision: {
                            decided_at: string;
                            /** @description Odbijanje: N, U ili O (eIzvjestavanjeSchema.xsd). */
                            reason_type: ("N" | "U" | "O") | null;
                            reason: string | null;
                            rejected_on: string | null;
                            /** @description Prijava odbijanja Poreznoj upravi (EvidentirajOdbijanjeZahtjev); null za prihvaćanje, koje se ne prijavljuje. */
                            report: {
                                /** @description pending: šalje se; recorded: Porezna uprava je zaprimila; refused: odbila (vidi error; odbijanje se smije poslati ponovno); unknown: poslano, odgovor nije stigao. */
                                status: string;
                                request_id: string;
                                recorded_at: string | null;
                                attempts: number;
                                error: string | null;
                            } | null;
                        } | null;
                        fiscalization: {
                            /**
                             * @description Fiskalizacija 2.0 (EvidentirajERacunZahtjev): not_delivered: izdani e-račun posrednik još nije isporučio; not_applicable: primljeni dokument nije ispravan e-račun pa se ne evidentira; pending: čeka evidentiranje (ponavlja se dok servis nije dostupan); recorded: evidentiran; refused: Porezna uprava ga je odbila (vidi error).
                             * @enum {string}
                             */
                            status: "not_delivered" | "not_applicable" | "pending" | "recorded" | "refused";
                            /**
                             * @description vrstaERacuna: I izlazni (izdani), U ulazni (primljeni).
                             * @enum {string}
                             */
                            type: "I" | "U";
                            /** @description Id zadnjeg zahtjeva EvidentirajERacunZahtjev. */
                            request_id: string | null;
                            recorded_at: string | null;
                            /** @description Broj slanja Poreznoj upravi. */
                            attempts: number;
                            /** @description Zašto zadnje slanje nije uspjelo (kod i poruka Porezne uprave ili nedostupnost). */
                            error: string | null;
                        };
                        created_at: string;
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: Tijelo zahtjeva veće je od 1 MB. */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: Tijelo mora biti application/json. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "limits-get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plan: string;
                        limits: {
                            burst: number;
                            per_minute: number;
                            per_day: number;
                        };
                        windows: {
                            name: string;
                            policy: string;
                            limit: number;
                            remaining: number;
                            /** @description Unix sekunde (zaokruženo naviše) kada se kvota prozora sljedeći put povećava: kada najstariji izbrojani zahtjev izađe iz prozora, za dnevni prozor u ponoć UTC. Ako prozor nije ništa izbrojao, sada. */
                            reset: number;
                            window_seconds: number;
                        }[];
                        endpoints: {
                            group: string;
                            label: string;
                            per_minute: number;
                            window: {
                                name: string;
                                policy: string;
                                limit: number;
                                remaining: number;
                                /** @description Unix sekunde (zaokruženo naviše) kada se kvota prozora sljedeći put povećava: kada najstariji izbrojani zahtjev izađe iz prozora, za dnevni prozor u ponoć UTC. Ako prozor nije ništa izbrojao, sada. */
                                reset: number;
                                window_seconds: number;
                            };
                        }[];
                    };
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    "archive-export": {
        parameters: {
            query: {
                /** @description Prvi dan razdoblja (uključivo), GGGG-MM-DD, po zagrebačkom vremenu. */
                from: string;
                /** @description Zadnji dan razdoblja (uključivo), GGGG-MM-DD. */
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Uspješan odgovor. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            /** @description validation_error: Neispravan JSON ili vrijednost koja krši pravila; details navodi {path, message}. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: Nedostaje, neispravan, nepoznat ili opozvan API ključ (broji se po IP adresi). */
            401: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: Ruta ili objekt ne postoji u vašem računu. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limit_exceeded: Prozor ograničenja odbio je zahtjev; pričekajte Retry-After sekundi. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error: Pogreška na našoj strani; javite nam X-Request-Id. */
            500: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: Baza podataka trenutno ne odgovara pa ključ nije provjeren; ponovite nakon Retry-After. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
