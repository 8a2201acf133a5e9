/** `moveRollRound` → "Move roll round", `DEX` stays `DEX` (a module of its own: no ajv in the player's bundle). */
export function labelOf(name: string): string {
  if (/^[A-Z0-9_]+$/.test(name)) return name;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
