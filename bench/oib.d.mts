export function validOib(oib: string): boolean;
