/**
 * A bar chart drawn as SVG by the page (no library, nothing fetched), with its text
 * equivalent: a table of the same counts, read by screen readers in place of the drawing.
 */
import { element } from './dom'

const SVG = 'http://www.w3.org/2000/svg'
// The drawing's own units; it scales to its box (CSS), text included.
const WIDTH = 280
const HEIGHT = 150
const TOP = 14 // room for the counts over the bars
const BOTTOM = 18 // room for the labels under them

function draw(tag: string, attributes: Record<string, string | number>, text?: string) {
  const node = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value))
  if (text !== undefined) node.textContent = text
  return node
}

/** One bar: what it counts (`label`, `name` in full for the table) and how many. */
export interface Bar {
  label: string
  name?: string
  count: number
}

/**
 * `title`, the figure's caption; `heading`, the table's first column; `labelEvery`, one label
 * under every so many bars (the 24 hours at 375 pixels).
 */
export function barChart(title: string, heading: string, bars: Bar[], labelEvery = 1) {
  const most = Math.max(1, ...bars.map((bar) => bar.count))
  const slot = WIDTH / bars.length
  const room = HEIGHT - TOP - BOTTOM
  const svg = draw('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, 'aria-hidden': 'true' })
  svg.append(draw('line', { class: 'axis', x1: 0, x2: WIDTH, y1: TOP + room, y2: TOP + room }))
  bars.forEach((bar, n) => {
    const height = (bar.count / most) * room
    const middle = slot * n + slot / 2
    const y = TOP + room - height
    svg.append(
      draw('rect', { class: 'bar', x: middle - slot * 0.35, y, width: slot * 0.7, height }),
    )
    const at = { x: middle, 'text-anchor': 'middle' }
    if (bar.count > 0) svg.append(draw('text', { ...at, y: y - 3 }, String(bar.count)))
    if (n % labelEvery === 0) svg.append(draw('text', { ...at, y: HEIGHT - 4 }, bar.label))
  })
  const rows = bars.map((bar) =>
    element('tr', {}, [
      element('th', { scope: 'row' }, [bar.name ?? bar.label]),
      element('td', {}, [String(bar.count)]),
    ]),
  )
  const table = element('table', { class: 'visually-hidden' }, [
    element('caption', {}, [title]),
    element('thead', {}, [
      element('tr', {}, [
        element('th', { scope: 'col' }, [heading]),
        element('th', { scope: 'col' }, ['Movies']),
      ]),
    ]),
    element('tbody', {}, rows),
  ])
  return element('figure', { class: 'chart' }, [element('figcaption', {}, [title]), svg, table])
}
