/** Test-only builders for other projects' tests and the benchmarks: zip archives, PDFs and Office files built in memory. */
export * from './archive/zip-fixtures.testing';
export * from './pdf/pdf-builder.testing';
export * from './office/office-fixtures.testing';
export * from './pdf/page-scan.testing';
