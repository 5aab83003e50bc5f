export {};

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name?: string | null; role: "CUSTOMER" | "OPERATOR"; accountId: string };
    /** id of the server-side PortalSession */
    sid?: string;
  }
  interface User {
    role: "CUSTOMER" | "OPERATOR";
    accountId: string;
    sid?: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    role?: "CUSTOMER" | "OPERATOR";
    accountId?: string;
    sid?: string;
  }
}
