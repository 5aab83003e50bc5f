-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('OWNER', 'DEVELOPER', 'ACCOUNTANT');

-- CreateTable
CREATE TABLE "Membership" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "role" "MemberRole" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "invitedById" UUID,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "acceptedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Membership_accountId_role_idx" ON "Membership"("accountId", "role");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_userId_accountId_key" ON "Membership"("userId", "accountId");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- CreateIndex
CREATE INDEX "Invitation_accountId_createdAt_idx" ON "Invitation"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "Invitation_email_idx" ON "Invitation"("email");

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every existing user becomes OWNER of the account they belong to.
INSERT INTO "Membership" ("id", "userId", "accountId", "role")
SELECT gen_random_uuid(), u."id", u."accountId", 'OWNER'::"MemberRole" FROM "User" u
ON CONFLICT ("userId", "accountId") DO NOTHING;

-- A user created with an account (sign-up, seeding, the CLI) owns it. An invited user is created the
-- same way inside the acceptance's transaction, which then sets the invited role.
CREATE FUNCTION "fiskal_user_owner_membership"() RETURNS trigger AS $$
BEGIN
  INSERT INTO "Membership" ("id", "userId", "accountId", "role")
  VALUES (gen_random_uuid(), NEW."id", NEW."accountId", 'OWNER'::"MemberRole")
  ON CONFLICT ("userId", "accountId") DO NOTHING;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "User_owner_membership" AFTER INSERT ON "User"
FOR EACH ROW EXECUTE FUNCTION "fiskal_user_owner_membership"();
