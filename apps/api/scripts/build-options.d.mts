export declare const productionDefine: Record<string, string>;
