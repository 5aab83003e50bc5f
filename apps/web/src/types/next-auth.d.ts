export {};

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name?: string | null; role: "CUSTOMER" | "OPERATOR"; accountId: string };
  }
  interface User {
    role: "CUSTOMER" | "OPERATOR";
    accountId: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    role?: "CUSTOMER" | "OPERATOR";
    accountId?: string;
  }
}
