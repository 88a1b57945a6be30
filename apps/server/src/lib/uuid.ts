// Ids the server makes are UUIDs; an id from a request that is not one names nothing, so it is
// answered "not found" without a query (a malformed uuid would be a database error).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(id: string): boolean {
  return UUID.test(id);
}
