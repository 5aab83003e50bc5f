export const LIMITS: { burst: number; perMinute: number; endpoint: number; perDay: number };
export const ACCOUNTS: number;
