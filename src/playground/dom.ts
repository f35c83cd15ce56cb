/** What {@link h} accepts as a child: nodes, text, and nothing (skipped). */
export type Child = Node | string | number | null | undefined | false;

/** Attribute values; `true` sets an empty attribute, `false`/`undefined` leave it out. */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** Creates an element with attributes and children: a tiny stand-in for a view library. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, ...children);
  return element;
}

/** Appends children, turning text into text nodes and skipping empty ones. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Looks up an element the page's HTML must contain; a missing one is a build mistake, so it throws. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`The page has no #${id}.`);
  return element as T;
}

/** Formats 0..1 as a whole percentage. */
export function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

/** "1 model call" / "3 model calls". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString("en")} ${count === 1 ? singular : pluralForm}`;
}
