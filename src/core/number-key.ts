/**
 * The canonical spelling of a number's text, so equal numbers have equal keys: thousands separators,
 * leading zeros and trailing decimal zeros are dropped (`1,200` → `1200`, `01.50` → `1.5`, `0.0` → `0`).
 */
export function numberKey(text: string): string {
  const plain = text.replaceAll(",", "");
  const dot = plain.indexOf(".");
  const whole = (dot < 0 ? plain : plain.slice(0, dot)).replace(/^0+/, "") || "0";
  const fraction = dot < 0 ? "" : plain.slice(dot + 1).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}
