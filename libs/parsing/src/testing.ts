/** Test-only builders for other projects' tests and the benchmarks: zip archives and PDFs built in memory. */
export * from './archive/zip-fixtures.testing';
export * from './pdf/pdf-builder.testing';
