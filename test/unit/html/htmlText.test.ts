import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { escapeHtml, scriptJson } from '../../../src/html/htmlText.js';
import { inlineScriptText } from '../../../src/html/vendorScript.js';

describe('escapeHtml', () => {
  it('escapes the five characters that can open a tag, an entity or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  test.prop([fc.string({ unit: 'binary' })], { numRuns: 300 })(
    'leaves no < > " or \' in any text',
    (text) => {
      expect(escapeHtml(text)).not.toMatch(/[<>"']/);
    },
  );
});

describe('scriptJson', () => {
  it('cannot close its script element', () => {
    const text = scriptJson({ name: '</script><script>alert(1)</script>', note: '<!--' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({
      name: '</script><script>alert(1)</script>',
      note: '<!--',
    });
  });

  test.prop([fc.jsonValue()], { numRuns: 300 })(
    'parses back to the same value and holds no <, U+2028 or U+2029',
    (value) => {
      const text = scriptJson(value);
      expect(text).not.toMatch(/[<\u2028\u2029]/);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
    },
  );
});

describe('inlineScriptText', () => {
  it('writes the < of </script and <!-- as \\x3C, any case', () => {
    expect(inlineScriptText('a = "</SCRIPT>"; b = /<!--/;')).toBe(
      'a = "\\x3C/SCRIPT>"; b = /\\x3C!--/;',
    );
  });

  it('means the same in string and regular-expression literals', () => {
    const source =
      'return ["</script>", "<!-->", /<!--x/.test("<!--x"), /<!--x/.test("x"), /<\\/script/i.test("</Script")];';
    const run = (code: string) => new Function(code)();
    expect(run(inlineScriptText(source))).toEqual(run(source));
  });
});
