/** The distance distribution as an SVG bar chart, with the chosen distance marked. */

import { count } from './count.js';
import type { Histogram } from './protocol.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 720;
const HEIGHT = 260;
const MARGIN = { top: 28, right: 16, bottom: 40, left: 56 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;
const BAR = PLOT_WIDTH / 65;

function element<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Counts span many orders of magnitude (a few near-duplicates, millions of unrelated pairs). */
const logHeight = (value: number, max: number): number => (max <= 0 ? 0 : (Math.log10(1 + value) / Math.log10(1 + max)) * PLOT_HEIGHT);

const x = (distance: number): number => MARGIN.left + distance * BAR;

function axes(svg: SVGSVGElement, max: number): void {
  const bottom = MARGIN.top + PLOT_HEIGHT;
  svg.append(element('line', { class: 'axis', x1: MARGIN.left, y1: bottom, x2: MARGIN.left + PLOT_WIDTH, y2: bottom }));
  for (let d = 0; d <= 64; d += 8) {
    svg.append(element('text', { class: 'tick', x: x(d) + BAR / 2, y: bottom + 16, 'text-anchor': 'middle' }, String(d)));
  }
  svg.append(element('text', { class: 'label', x: MARGIN.left + PLOT_WIDTH / 2, y: HEIGHT - 6, 'text-anchor': 'middle' }, 'bits that differ'));
  for (let power = 1; power <= Math.max(1, max); power *= 10) {
    const y = bottom - logHeight(power, max);
    svg.append(element('line', { class: 'grid', x1: MARGIN.left, y1: y, x2: MARGIN.left + PLOT_WIDTH, y2: y }));
    svg.append(element('text', { class: 'tick', x: MARGIN.left - 6, y: y + 4, 'text-anchor': 'end' }, power.toLocaleString('en')));
  }
  svg.append(element('text', { class: 'label', x: 12, y: MARGIN.top - 12 }, 'pairs (log scale)'));
}

/**
 * Draws `histogram` into `svg`: bars at or below `threshold` (the near-duplicates) stand out,
 * and a line marks the threshold. With no histogram, the axes alone.
 */
export function renderChart(svg: SVGSVGElement, histogram: Histogram | null, threshold: number): void {
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  const counts = histogram?.counts ?? new Float64Array(65);
  const max = Math.max(...counts);
  axes(svg, max);
  const bottom = MARGIN.top + PLOT_HEIGHT;
  let near = 0;
  counts.forEach((pairs, distance) => {
    if (distance <= threshold) near += pairs;
    if (pairs <= 0) return;
    const height = Math.max(1, logHeight(pairs, max));
    const bar = element('rect', {
      class: distance <= threshold ? 'bar near' : 'bar',
      x: x(distance) + 1,
      y: bottom - height,
      width: BAR - 2,
      height,
    });
    bar.append(element('title', {}, `${count(distance, 'bit')}: ${histogram?.sampled ? '≈ ' : ''}${count(Math.round(pairs), 'pair')}`));
    svg.append(bar);
  });
  const at = x(threshold + 1);
  svg.append(element('line', { class: 'threshold', x1: at, y1: MARGIN.top - 4, x2: at, y2: bottom }));
  const label = `≤ ${count(threshold, 'bit')}: ${histogram?.sampled ? '≈ ' : ''}${count(Math.round(near), 'pair')}`;
  const rightSide = at < MARGIN.left + PLOT_WIDTH * 0.6;
  svg.append(element('text', { class: 'threshold-label', x: rightSide ? at + 6 : at - 6, y: MARGIN.top + 8, 'text-anchor': rightSide ? 'start' : 'end' }, label));
}
