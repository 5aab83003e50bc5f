-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "customEndpointLimits" JSONB;
