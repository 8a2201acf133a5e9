/**
 * An id made from a name, for what the GM names and the client must give an id (an item, a zone,
 * an ability's key): its letters and digits in lower case, the words joined by `-`
 * (`Old Courtyard` → `old-courtyard`), numbered when the id is taken (`old-courtyard-2`).
 */
export function madeId(name: string, taken: Iterable<string> = [], fallback = 'x'): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || fallback;
  const used = new Set(taken);
  let id = base;
  for (let k = 2; used.has(id); k++) id = `${base}-${k}`;
  return id;
}
