import { describe, expect, it } from 'vitest';
import { capNesting } from './cap-nesting';

describe('capNesting', () => {
  it('leaves documents within the cap untouched', () => {
    const html = '<div><p>a<b>b</b></p><ul><li>x<li>y</ul><br><img src=x></div>';
    expect(capNesting(html, { maxDepth: 3 })).toBe(html);
  });

  it('removes the tags of deeper elements and keeps their text', () => {
    expect(capNesting('<div><div><div><span>deep</span></div></div></div>', { maxDepth: 2 })).toBe(
      '<div><div>deep</div></div>',
    );
  });

  it('knows optional end tags, so long unclosed lists and paragraphs are not "deep"', () => {
    const items = '<li>item'.repeat(50);
    const paragraphs = '<p>para'.repeat(50);
    const html = `<ul>${items}</ul>${paragraphs}<table>${'<tr><td>c'.repeat(20)}</table>`;
    expect(capNesting(html, { maxDepth: 4 })).toBe(html);
  });

  it('does not read markup inside raw-text elements, comments or quoted attributes', () => {
    const html =
      '<div><script>if (a <div) {"<div><div>"}</script><!-- <div><div> --><a title="<div><div>">x</a></div>';
    expect(capNesting(html, { maxDepth: 2 })).toBe(html);
  });

  it('treats <x/> as closed in XML and XHTML, but not in HTML', () => {
    const markup = '<a><b/><b/><b/><c>t</c></a>';
    expect(capNesting(markup, { maxDepth: 2, xml: true })).toBe(markup);
    expect(capNesting('<div><span/><span/>t</div>', { maxDepth: 2 })).toBe('<div><span/>t</div>');
  });

  it('stays linear on hostile input: deep nesting and end tags that match nothing', () => {
    const n = 100_000;
    const hostile = `${'<div>'.repeat(n)}x${'</span>'.repeat(n)}${'</div>'.repeat(n)}`;
    const started = Date.now();
    const capped = capNesting(hostile, { maxDepth: 256 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(capped.match(/<div>/g)).toHaveLength(256);
    expect(capped.match(/<\/div>/g)).toHaveLength(256);
  });
});
