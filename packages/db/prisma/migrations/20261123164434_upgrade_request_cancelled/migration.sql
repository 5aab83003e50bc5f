-- AlterEnum
ALTER TYPE "UpgradeStatus" ADD VALUE 'CANCELLED';
