/** Building elements: text goes in as text nodes, never as HTML. */

/** The page's element of this id. */
export const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  node.append(...children)
  return node
}
