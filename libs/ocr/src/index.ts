export * from './character-error-rate';
export * from './ocr-pool';
export * from './ocr-settings';
export * from './page-layout';
