-- CreateTable
CREATE TABLE "ArchiveEntry" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "documentKind" TEXT NOT NULL,
    "documentId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,
    "prevHash" TEXT NOT NULL,
    "chainHash" TEXT NOT NULL,
    "issuedAt" TIMESTAMPTZ(3) NOT NULL,
    "retainUntil" DATE NOT NULL,
    "archivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ArchiveEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ArchiveEntry_accountId_seq_key" ON "ArchiveEntry"("accountId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "ArchiveEntry_accountId_name_key" ON "ArchiveEntry"("accountId", "name");

-- CreateIndex
CREATE INDEX "ArchiveEntry_accountId_issuedAt_idx" ON "ArchiveEntry"("accountId", "issuedAt");

-- CreateIndex
CREATE INDEX "ArchiveEntry_accountId_documentId_idx" ON "ArchiveEntry"("accountId", "documentId");

-- Added by hand (the schema language has no triggers): the archive is append-only, and an entry is
-- kept until its retainUntil (Fiscalization Act art. 35: six years after the year of issue).
CREATE FUNCTION "archive_entry_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'archive entries cannot be changed (entry %)', OLD."id" USING ERRCODE = 'check_violation';
  END IF;
  IF OLD."retainUntil" >= CURRENT_DATE THEN
    RAISE EXCEPTION 'archive entry % must be kept until % (Fiscalization Act art. 35)', OLD."id", OLD."retainUntil" USING ERRCODE = 'check_violation';
  END IF;
  RETURN OLD;
END $$;

CREATE TRIGGER "ArchiveEntry_guard" BEFORE UPDATE OR DELETE ON "ArchiveEntry"
  FOR EACH ROW EXECUTE FUNCTION "archive_entry_guard"();

CREATE FUNCTION "archive_entry_no_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the archive cannot be truncated' USING ERRCODE = 'check_violation';
END $$;

CREATE TRIGGER "ArchiveEntry_no_truncate" BEFORE TRUNCATE ON "ArchiveEntry"
  FOR EACH STATEMENT EXECUTE FUNCTION "archive_entry_no_truncate"();
