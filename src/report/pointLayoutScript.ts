/**
 * The browser source of the Chart.js plugin `pointLayout` (a `const`, for
 * `chartClientScript` to register), for datasets with a `pointLabels` list.
 * After Chart.js places the points it moves marks that would cover each other
 * sideways, the fewest pixels that part them (a beeswarm: a mark's height is
 * its value, so only x moves), and puts a dataset with `marksPoint: i` (the
 * star of the last decision) on point `i` wherever it went. Then it places each
 * label beside its point (right, left, above or below, the first place inside
 * the chart area that covers no mark and no earlier label) and keeps the boxes
 * in `chart.arenaPointLabels` for tests to measure.
 *
 * @example
 * ```ts
 * const script = `${pointLayoutPluginSource}\nnew Chart(canvas, { ...config, plugins: [pointLayout] });`;
 * ```
 */
export const pointLayoutPluginSource = `const pointLayout = {
  id: 'arenaPointLayout',
  afterDatasetsUpdate(chart) {
    const datasets = chart.data.datasets;
    const labelled = datasets.findIndex((dataset) => Array.isArray(dataset.pointLabels));
    chart.arenaPointLabels = [];
    if (labelled < 0 || chart.getDatasetMeta(labelled).hidden) return;
    const elements = chart.getDatasetMeta(labelled).data;
    const stars = datasets.flatMap((dataset, index) =>
      typeof dataset.marksPoint === 'number' ? [chart.getDatasetMeta(index).data[0]] : [],
    ).filter(Boolean);
    const starOf = (pointIndex) => {
      const at = datasets.findIndex((dataset) => dataset.marksPoint === pointIndex);
      return at < 0 ? undefined : chart.getDatasetMeta(at).data[0];
    };
    const area = chart.chartArea;
    const marks = [];
    elements.forEach((element, pointIndex) => {
      const star = starOf(pointIndex);
      const radius = Math.max(element.options.radius, star ? star.options.radius : 0) + 1;
      const free = (x) =>
        x - radius >= area.left && x + radius <= area.right &&
        marks.every((mark) => Math.hypot(mark.x - x, mark.y - element.y) >= mark.radius + radius);
      let x = element.x;
      for (let step = 1; !free(x) && step <= 200; step += 1) {
        const offset = Math.ceil(step / 2) * 2 * (step % 2 === 1 ? 1 : -1);
        if (free(element.x + offset)) x = element.x + offset;
      }
      element.x = x;
      if (star) {
        star.x = x;
        star.y = element.y;
      }
      marks.push({ x, y: element.y, radius });
    });
    const context = chart.ctx;
    context.save();
    context.font = '12px system-ui, sans-serif';
    const height = 14;
    const gap = 4;
    const boxes = marks.map((mark) => ({
      left: mark.x - mark.radius, right: mark.x + mark.radius,
      top: mark.y - mark.radius, bottom: mark.y + mark.radius,
    }));
    for (const star of stars) {
      const r = star.options.radius;
      boxes.push({ left: star.x - r, right: star.x + r, top: star.y - r, bottom: star.y + r });
    }
    const covers = (box) => boxes.some((other) =>
      box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom);
    const within = (box) =>
      box.left >= area.left && box.right <= area.right && box.top >= area.top && box.bottom <= area.bottom;
    marks.forEach((mark, pointIndex) => {
      const text = datasets[labelled].pointLabels[pointIndex];
      if (typeof text !== 'string') return;
      const width = context.measureText(text).width;
      const r = mark.radius;
      const at = (left, top) => ({ text, left, right: left + width, top, bottom: top + height });
      const candidates = [
        at(mark.x + r + gap, mark.y - height / 2),
        at(mark.x - r - gap - width, mark.y - height / 2),
        at(mark.x - width / 2, mark.y - r - gap - height),
        at(mark.x - width / 2, mark.y + r + gap),
        at(mark.x + r + gap, mark.y - r - height),
        at(mark.x + r + gap, mark.y + r),
        at(mark.x - r - gap - width, mark.y - r - height),
        at(mark.x - r - gap - width, mark.y + r),
      ];
      const box = candidates.find((candidate) => within(candidate) && !covers(candidate))
        ?? candidates.find(within) ?? candidates[0];
      boxes.push(box);
      chart.arenaPointLabels.push(box);
    });
    context.restore();
  },
  afterDatasetsDraw(chart) {
    const context = chart.ctx;
    context.save();
    context.font = '12px system-ui, sans-serif';
    context.fillStyle = '#1f2933';
    context.textBaseline = 'middle';
    for (const box of chart.arenaPointLabels ?? []) {
      context.fillText(box.text, box.left, (box.top + box.bottom) / 2);
    }
    context.restore();
  },
};`;
