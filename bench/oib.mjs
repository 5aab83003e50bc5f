// The OIB check digit (ISO 7064 MOD 11,10), written out for the bench's own servers so that they
// do the same work per request without importing the API's packages.
export function validOib(oib) {
  if (!/^\d{11}$/.test(oib)) return false;
  let a = 10;
  for (let i = 0; i < 10; i++) {
    a = (a + Number(oib[i])) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  return (11 - a) % 10 === Number(oib[10]);
}
