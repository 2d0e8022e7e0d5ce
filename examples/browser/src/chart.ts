/**
 * A distribution of pairs as an SVG bar chart, with the near-duplicates' side of the threshold
 * marked: distances in bits (SimHash) or agreeing signature positions (MinHash).
 */

import { count } from './count.js';
import type { Histogram } from './protocol.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 720;
const HEIGHT = 260;
const MARGIN = { top: 28, right: 16, bottom: 40, left: 56 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

/** What the bars stand for: bar v counts the pairs at value v. */
export interface ChartAxis {
  /** Bars, for the values 0 .. bars - 1. */
  readonly bars: number;
  readonly label: string;
  /** Values to label under the axis, with their labels. */
  readonly ticks: readonly (readonly [number, string])[];
  /** Whether pairs at `value` are near-duplicates. */
  readonly near: (value: number) => boolean;
  /** Where the threshold line goes: before the bar of this value. */
  readonly line: number;
  /** The near side, as the threshold's label says it: "≤ 10 bits". */
  readonly nearText: string;
  /** A bar's value in words, for its title. */
  readonly valueText: (value: number) => string;
}

/** SimHash: bits that differ, 0 to 64, near at `distance` or below. */
export function bitsAxis(distance: number): ChartAxis {
  return {
    bars: 65,
    label: 'bits that differ',
    ticks: Array.from({ length: 9 }, (_, i) => [8 * i, String(8 * i)] as const),
    near: (bits) => bits <= distance,
    line: distance + 1,
    nearText: `≤ ${count(distance, 'bit')}`,
    valueText: (bits) => count(bits, 'bit'),
  };
}

/**
 * MinHash: signature positions (of `k`) that agree, the estimated Jaccard similarity times k;
 * near from `needed`, the fewest that reach the threshold, written `threshold`.
 */
export function agreementAxis(k: number, needed: number, threshold: string): ChartAxis {
  const similarity = (equal: number): string => (equal / k).toFixed(2);
  return {
    bars: k + 1,
    label: 'estimated Jaccard similarity (signature positions that agree)',
    ticks: [0, 0.25, 0.5, 0.75, 1].map((share) => [share * k, String(share)] as const),
    near: (equal) => equal >= needed,
    line: needed,
    nearText: `≥ ${threshold}`,
    valueText: (equal) => `${similarity(equal)} (${equal} of ${k} positions)`,
  };
}

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

function axes(svg: SVGSVGElement, axis: ChartAxis, x: (value: number) => number, bar: number, max: number): void {
  const bottom = MARGIN.top + PLOT_HEIGHT;
  svg.append(element('line', { class: 'axis', x1: MARGIN.left, y1: bottom, x2: MARGIN.left + PLOT_WIDTH, y2: bottom }));
  for (const [value, text] of axis.ticks) {
    svg.append(element('text', { class: 'tick', x: x(value) + bar / 2, y: bottom + 16, 'text-anchor': 'middle' }, text));
  }
  svg.append(element('text', { class: 'label', x: MARGIN.left + PLOT_WIDTH / 2, y: HEIGHT - 6, 'text-anchor': 'middle' }, axis.label));
  for (let power = 1; power <= Math.max(1, max); power *= 10) {
    const y = bottom - logHeight(power, max);
    svg.append(element('line', { class: 'grid', x1: MARGIN.left, y1: y, x2: MARGIN.left + PLOT_WIDTH, y2: y }));
    svg.append(element('text', { class: 'tick', x: MARGIN.left - 6, y: y + 4, 'text-anchor': 'end' }, power.toLocaleString('en')));
  }
  svg.append(element('text', { class: 'label', x: 12, y: MARGIN.top - 12 }, 'pairs (log scale)'));
}

/**
 * Draws `histogram` (of `axis.bars` counts) into `svg`: the near-duplicates' bars stand out,
 * and a line marks the threshold. With no histogram, the axes alone.
 */
export function renderChart(svg: SVGSVGElement, histogram: Histogram | null, axis: ChartAxis): void {
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  const bar = PLOT_WIDTH / axis.bars;
  const x = (value: number): number => MARGIN.left + value * bar;
  const counts = histogram?.counts ?? new Float64Array(axis.bars);
  const max = Math.max(...counts);
  axes(svg, axis, x, bar, max);
  const bottom = MARGIN.top + PLOT_HEIGHT;
  // Narrow bars get a narrower gap, or nothing of them would show.
  const gap = bar > 6 ? 1 : 0.25;
  let near = 0;
  counts.forEach((pairs, value) => {
    if (axis.near(value)) near += pairs;
    if (pairs <= 0) return;
    const height = Math.max(1, logHeight(pairs, max));
    const rect = element('rect', {
      class: axis.near(value) ? 'bar near' : 'bar',
      x: x(value) + gap,
      y: bottom - height,
      width: bar - 2 * gap,
      height,
    });
    rect.append(element('title', {}, `${axis.valueText(value)}: ${histogram?.sampled ? '≈ ' : ''}${count(Math.round(pairs), 'pair')}`));
    svg.append(rect);
  });
  const at = x(axis.line);
  svg.append(element('line', { class: 'threshold', x1: at, y1: MARGIN.top - 4, x2: at, y2: bottom }));
  const label = `${axis.nearText}: ${histogram?.sampled ? '≈ ' : ''}${count(Math.round(near), 'pair')}`;
  const rightSide = at < MARGIN.left + PLOT_WIDTH * 0.6;
  svg.append(element('text', { class: 'threshold-label', x: rightSide ? at + 6 : at - 6, y: MARGIN.top + 8, 'text-anchor': rightSide ? 'start' : 'end' }, label));
}
