/** markdown-it-admon ships no types: a markdown-it plugin adding `admonition_open`/`_close` tokens. */
declare module 'markdown-it-admon' {
  import type MarkdownIt from 'markdown-it';
  const admonitionPlugin: MarkdownIt.PluginSimple;
  export default admonitionPlugin;
}
