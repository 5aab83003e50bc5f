const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

export function assertUuid(fn: string, name: string, value: unknown): asserts value is string {
  if (!isUuid(value)) throw new TypeError(`${fn}: ${name} must be a UUID`);
}

export function assertDate(fn: string, name: string, value: unknown): asserts value is Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new TypeError(`${fn}: ${name} must be a valid Date`);
  }
}
