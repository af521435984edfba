// A horizontal bar chart of gregor/Kafka ratios, one bar per case: the median as the bar, min-max as a whisker,
// a dashed line at 1.0 (parity) and a tick at the target. Plain SVG text, no dependencies.

export interface RatioBar {
  label: string;
  min: number;
  median: number;
  max: number;
  /** The ratio to meet (≥ for 'higher', ≤ for 'lower'), if the issue sets one. */
  target?: number;
  better: 'higher' | 'lower';
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (value: number) => (value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toPrecision(2));

/** Whether the median ratio is on gregor's good side of the target (or of parity when there is none). */
export function meetsTarget(bar: Pick<RatioBar, 'median' | 'target' | 'better'>): boolean {
  const goal = bar.target ?? 1;
  return bar.better === 'higher' ? bar.median >= goal : bar.median <= goal;
}

export function ratioChart(title: string, bars: readonly RatioBar[]): string {
  const labelWidth = 300;
  const plotWidth = 420;
  const rowHeight = 26;
  const top = 44;
  const width = labelWidth + plotWidth + 90;
  const height = top + bars.length * rowHeight + 34;
  const finite = bars.flatMap((b) => [b.max, b.target ?? 0]).filter((v) => Number.isFinite(v));
  const scaleMax = Math.max(1.25, ...finite) * 1.05;
  const x = (ratio: number) => labelWidth + (Math.max(0, ratio) / scaleMax) * plotWidth;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`,
    `<text x="10" y="36" fill="#555">gregor/Kafka, median with min-max over runs; dashed = parity (1.0), black tick = target</text>`,
  ];
  bars.forEach((bar, i) => {
    const y = top + i * rowHeight;
    const good = meetsTarget(bar);
    parts.push(`<text x="${labelWidth - 8}" y="${y + 16}" text-anchor="end">${escape(bar.label)}</text>`);
    if (!Number.isFinite(bar.median)) {
      parts.push(`<text x="${labelWidth + 4}" y="${y + 16}" fill="#999">no figure</text>`);
      return;
    }
    parts.push(`<rect x="${labelWidth}" y="${y + 5}" width="${(x(bar.median) - labelWidth).toFixed(1)}" height="15" fill="${good ? '#3a8f5c' : '#c0504d'}"/>`);
    parts.push(`<line x1="${x(bar.min).toFixed(1)}" x2="${x(bar.max).toFixed(1)}" y1="${y + 12.5}" y2="${y + 12.5}" stroke="#222"/>`);
    if (bar.target !== undefined) parts.push(`<line x1="${x(bar.target).toFixed(1)}" x2="${x(bar.target).toFixed(1)}" y1="${y + 2}" y2="${y + 23}" stroke="black" stroke-width="2"/>`);
    parts.push(`<text x="${(x(Math.max(bar.max, bar.median, bar.target ?? 0)) + 6).toFixed(1)}" y="${y + 16}">${fmt(bar.median)}×</text>`);
  });
  const bottom = top + bars.length * rowHeight;
  parts.push(`<line x1="${x(1).toFixed(1)}" x2="${x(1).toFixed(1)}" y1="${top}" y2="${bottom}" stroke="#888" stroke-dasharray="4 3"/>`);
  parts.push(`<line x1="${labelWidth}" x2="${labelWidth + plotWidth}" y1="${bottom + 4}" y2="${bottom + 4}" stroke="#888"/>`);
  for (const tick of [0, 0.5, 1, 1.5, 2, 3, 4, 5, 10].filter((t) => t <= scaleMax)) {
    parts.push(`<text x="${x(tick).toFixed(1)}" y="${bottom + 20}" text-anchor="middle" fill="#555">${tick}</text>`);
  }
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
