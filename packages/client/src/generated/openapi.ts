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
         * @description Zamjenjuje certifikat računa tvrtke. Certifikat mora biti valjan i izdan za OIB tvrtke (ako je zadan). Privatni ključ pohranjuje se šifriran (AES-256-GCM).
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
         * @description Poslani e-račun (accepted, queued) ili e-račun koji je posrednik odbio (rejected, s pravilima u rejection).
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
         * @description Prijavljuje Poreznoj upravi da je primatelj odbio isporučeni e-račun (EvidentirajOdbijanjeZahtjev), jednom po e-računu. Odbijena prijava je validation_error s kodom Porezne uprave (details.f2_code); nedostupnost servisa je 503 s Retry-After. Pošaljite zaglavlje Idempotency-Key.
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /** @enum {string} */
                code: "validation_error" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "idempotency_conflict" | "conflict" | "payload_too_large" | "unsupported_media_type" | "rate_limit_exceeded" | "internal_error" | "upstream_unavailable" | "malformed_request" | "request_timeout" | "headers_too_large" | "service_unavailable";
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
        /** @description IETF draft field listing every window, e.g. "burst";q=10;w=1, "minute";q=60;w=60. */
        "RateLimit-Policy": string;
        /** @description IETF draft field: remaining (r) and reset seconds (t) of every window. */
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
                        /** @description Izdavatelj certifikata, npr. Fina RDC 2015 ili FISKAL TEST za generirani testni certifikat. */
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
                        /** @description Generirani testni certifikat (simulator i demo okolina CIS-a), ne FINA certifikat. */
                        test: boolean;
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
                        /** @description Izdavatelj certifikata, npr. Fina RDC 2015 ili FISKAL TEST za generirani testni certifikat. */
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
                        /** @description Generirani testni certifikat (simulator i demo okolina CIS-a), ne FINA certifikat. */
                        test: boolean;
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
                     * @description Vrsta dokumenta (UNTDID 1001): 380 račun, 381 odobrenje (UBL CreditNote), 384 korektivni račun, 386 račun za predujam.
                     * @default 380
                     * @enum {string}
                     */
                    document_type?: "380" | "381" | "384" | "386";
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
                    /** @description Napomena na računu (BT-22). */
                    note?: string;
                    seller: {
                        /** @description OIB prodavatelja. */
                        oib: string;
                        /** @description Naziv (tvrtka). */
                        name: string;
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
                        /** @description Naziv (tvrtka). */
                        name: string;
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
                    };
                    /** @description Osoba koja je izdala račun (čl. 8. Zakona o fiskalizaciji); zadano prodavatelj. */
                    operator?: {
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
                    }[];
                    /** @description Troškovi na razini dokumenta (BG-21). */
                    charges?: {
                        /** @description Iznos bez PDV-a, veći od nule. */
                        amount: string;
                        /** @description Razlog (tekst); on ili kod razloga je obavezan. */
                        reason?: string;
                        /** @description Kod razloga: UNTDID 5189 za popuste (npr. 95), UNTDID 7161 za troškove (npr. FC prijevoz). */
                        reason_code?: string;
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
                        /** @description KPD 2025 šifra razine 5, npr. 62.10.11. Obavezna osim na odobrenju (381) i računu za predujam (386). */
                        kpd?: string;
                        /** @description Iznos stavke bez PDV-a: količina × cijena zaokruženo na cente. */
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
                         * @description Vrsta dokumenta: 380, 381, 384 ili 386.
                         * @enum {string}
                         */
                        document_type: "380" | "381" | "384" | "386";
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
                         * @description Vrsta dokumenta: 380, 381, 384 ili 386.
                         * @enum {string}
                         */
                        document_type: "380" | "381" | "384" | "386";
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
                        /** @description UBL 2.1 dokument (Invoice ili CreditNote) kako je predan posredniku, ili kako ga je posrednik odbio. */
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
                        einvoice_id: string;
                        /**
                         * @description not_delivered: posrednik još nije isporučio e-račun; pending: čeka evidentiranje kod Porezne uprave (ponavlja se dok servis nije dostupan); recorded: evidentiran; refused: Porezna uprava ga je odbila (vidi error).
                         * @enum {string}
                         */
                        status: "not_delivered" | "pending" | "recorded" | "refused";
                        /** @description Id zadnjeg zahtjeva EvidentirajERacunZahtjev. */
                        request_id: string | null;
                        recorded_at: string | null;
                        /** @description Broj slanja Poreznoj upravi. */
                        attempts: number;
                        /** @description Zašto zadnje slanje nije uspjelo (kod i poruka Porezne uprave ili nedostupnost). */
                        error: string | null;
                        /** @description Prijave naplate i odbijanja (eIzvještavanje), od najstarije. */
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
}
