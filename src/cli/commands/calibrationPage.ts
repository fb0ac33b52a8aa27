import { htmlPage, jsonScriptElement } from '../../html/htmlPage.js';
import { escapeHtml } from '../../html/htmlText.js';
import { type CalibrationSummary, kappaBand, kappaText } from './calibrationText.js';

const style = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
td, th { border: 1px solid #ccc; padding: 0.3rem 0.6rem; text-align: right; }
th { background: #f4f4f4; }
.bands { position: relative; width: 500px; height: 28px; display: flex; margin: 0.5rem 0 2rem; }
.band { height: 100%; font-size: 11px; display: flex; align-items: center; justify-content: center; }
.weak { background: #f6c6c0; } .moderate { background: #f8e3a3; } .substantial { background: #bfe3c0; }
.ci { position: absolute; top: 4px; height: 20px; border: 2px solid #333; box-sizing: border-box; }
.point { position: absolute; top: 0; width: 3px; height: 28px; background: #000; }
`;

/** Where a kappa in [-1, 1] sits on the 500-pixel scale of the bands (0 to 1 shown; below 0 at the left). */
const at = (kappa: number): number => Math.round(Math.max(0, Math.min(1, kappa)) * 500);

/**
 * The calibration as a self-contained page (no script from elsewhere): the
 * confusion matrix as a heat map, kappa with its interval over the bands
 * (below 0.4, 0.4-0.7, 0.7 and up), and the disagreeing cases; the summary
 * itself as JSON in the page for scripts.
 *
 * @example
 * ```ts
 * calibrationPage(summary).startsWith('<!doctype html>'); // true
 * ```
 */
export function calibrationPage(summary: CalibrationSummary): string {
  const { labels, matrix } = summary.confusion;
  const most = Math.max(1, ...matrix.flat());
  const heat = `<table class="confusion"><tr><th>judge \\ people</th>${labels.map((label) => `<th>${escapeHtml(label)}</th>`).join('')}</tr>
${matrix
  .map(
    (row, i) =>
      `<tr><th>${escapeHtml(labels[i]!)}</th>${row
        .map((count, j) => {
          const alpha = (count / most).toFixed(3);
          const colour = i === j ? `rgba(46, 125, 50, ${alpha})` : `rgba(198, 40, 40, ${alpha})`;
          return `<td style="background: ${colour}">${count}</td>`;
        })
        .join('')}</tr>`,
  )
  .join('\n')}
</table>`;
  const interval =
    summary.kappaCi === null
      ? ''
      : `<div class="ci" style="left: ${at(summary.kappaCi[0])}px; width: ${Math.max(3, at(summary.kappaCi[1]) - at(summary.kappaCi[0]))}px"></div>`;
  const point =
    summary.kappa === null ? '' : `<div class="point" style="left: ${at(summary.kappa)}px"></div>`;
  const bands = `<div class="bands"><div class="band weak" style="width: 200px">below 0.4</div><div class="band moderate" style="width: 150px">0.4-0.7</div><div class="band substantial" style="width: 150px">0.7 and up</div>${interval}${point}</div>`;
  const disagreements =
    summary.disagreements.length === 0
      ? '<p>No case where the judge and the people disagree.</p>'
      : `<table class="disagreements"><tr><th>case</th><th>judge</th><th>people</th></tr>
${summary.disagreements
  .map(
    (each) =>
      `<tr><td>${escapeHtml(each.caseId)}</td><td>${escapeHtml(each.judge)}</td><td>${escapeHtml(each.reference)}</td></tr>`,
  )
  .join('\n')}
</table>`;
  const body = `<p>${summary.n} labelled cases, agreement ${summary.agreement === null ? 'n/a' : summary.agreement.toFixed(4)}, ${escapeHtml(kappaText(summary.kappa, summary.kappaCi))}: ${escapeHtml(kappaBand(summary.kappa))}.</p>
${bands}
<h2>Confusion matrix</h2>
${heat}
<h2>Disagreeing cases</h2>
${disagreements}
${jsonScriptElement('calibration', summary)}
`;
  return htmlPage({ title: `Calibration of ${summary.judge}`, style, body });
}
