-- CreateIndex
CREATE INDEX "UsageHour_hour_idx" ON "UsageHour"("hour");
