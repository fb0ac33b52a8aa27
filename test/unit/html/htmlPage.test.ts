import { describe, expect, it } from 'vitest';
import { htmlPage, jsonScriptElement } from '../../../src/html/htmlPage.js';
import { vendorScriptOnce } from '../../../src/html/vendorScript.js';

describe('htmlPage', () => {
  it('wraps a body in the page shell, the title escaped in <title> and <h1>', () => {
    expect(
      htmlPage({ title: 'a < b', style: '\nbody { margin: 0; }\n', body: '<p>hi</p>\n' }),
    ).toBe(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>a &lt; b</title>
<style>
body { margin: 0; }
</style>
</head>
<body>
<h1>a &lt; b</h1>
<p>hi</p>
</body>
</html>
`);
  });

  it('adds the viewport and the <html> attributes when asked', () => {
    const page = htmlPage({
      title: 't',
      htmlAttributes: ' data-diagrams="rendered"',
      viewport: true,
      style: '',
      body: '',
    });
    expect(page).toContain('<html lang="en" data-diagrams="rendered">');
    expect(page).toContain(
      '<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>t</title>',
    );
  });
});

describe('jsonScriptElement', () => {
  it('holds a value no text in it can close', () => {
    expect(jsonScriptElement('data', ['</script>'])).toBe(
      '<script type="application/json" id="data">["\\u003c/script>"]</script>',
    );
  });
});

describe('vendorScriptOnce', () => {
  it('reads a bundle on the first call only', () => {
    const chartJs = vendorScriptOnce('chart.js', 'chart.umd.js', 'a test page');
    const first = chartJs();
    expect(first.length).toBeGreaterThan(10_000);
    expect(chartJs()).toBe(first);
  });
});
