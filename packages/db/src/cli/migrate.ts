import { migrate } from "../migrate.ts";
import { openTarget } from "./target.ts";

const target = await openTarget();
try {
  const { applied } = await migrate(target.url);
  console.log(
    applied.length
      ? `${target.label}: applied ${applied.length} migration(s):\n${applied.map((m) => `  ${m}`).join("\n")}`
      : `${target.label}: already up to date`,
  );
} finally {
  await target.close();
}
