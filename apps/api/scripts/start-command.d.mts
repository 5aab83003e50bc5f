/** The API's `start` script split into its environment variables and node's arguments. */
export declare function apiStartCommand(apiDir: string): { env: Record<string, string>; args: string[] };
