import { z } from "zod";
import type { KpdEntry } from "@fiskal/fiscal";
import { levelName } from "@fiskal/fiscal";

export const KpdCodeSchema = z.object({
  code: z.string(),
  name: z.string(),
  level: z.number().int().min(0).max(5),
  level_name: z.string(),
  section: z.string(),
  parent: z.string().nullable(),
  is_leaf: z.boolean(),
  ancestors: z.array(z.object({ code: z.string(), name: z.string(), level: z.number().int() })),
});

export function toKpdCode(e: KpdEntry): z.infer<typeof KpdCodeSchema> {
  return {
    code: e.code,
    name: e.name,
    level: e.level,
    level_name: levelName(e.level),
    section: e.section,
    parent: e.parentCode,
    is_leaf: e.isLeaf,
    ancestors: e.ancestors,
  };
}
