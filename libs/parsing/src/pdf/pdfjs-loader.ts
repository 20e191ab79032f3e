import { dirname, join } from 'node:path';

export type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<Pdfjs> | undefined;

/**
 * pdfjs-dist ships ES modules only. The legacy build is the one meant for Node; it is imported
 * once, on first use, so that services which never see a PDF do not pay for loading it.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= import('pdfjs-dist/legacy/build/pdf.mjs').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

let distDirectory: string | undefined;

/**
 * Folders of pdfjs-dist's data files, as paths with a trailing slash (pdfjs reads them with
 * `fs` in Node): the 14 standard fonts, the CJK character maps, the wasm image decoders.
 */
export function pdfjsDataPaths(): { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string } {
  distDirectory ??= dirname(require.resolve('pdfjs-dist/package.json'));
  return {
    standardFontDataUrl: join(distDirectory, 'standard_fonts') + '/',
    cMapUrl: join(distDirectory, 'cmaps') + '/',
    wasmUrl: join(distDirectory, 'wasm') + '/',
  };
}
