import { describe, expect, it } from 'vitest';
import { fontStyleFromName, joinLines } from './blocks';
import { isPageNumber } from './page-furniture';

describe('joinLines', () => {
  it('mends a word hyphenated at the end of a line', () => {
    expect(joinLines(['an exam-', 'ple of it'])).toBe('an example of it');
  });

  it('drops soft hyphens wherever they are', () => {
    expect(joinLines(['Donau\u00AD', 'dampf\u00ADschiff'])).toBe('Donaudampfschiff');
  });

  it('keeps the hyphen before a capital, after an acronym, and a dash before a digit', () => {
    expect(joinLines(['Anglo-', 'Saxon'])).toBe('Anglo-Saxon');
    expect(joinLines(['an existing FAA-', 'approved list'])).toBe('an existing FAA-approved list');
    expect(joinLines(['Model 737–', '9 airplanes'])).toBe('Model 737–9 airplanes');
  });

  it('follows the spelling the document uses elsewhere', () => {
    const words = new Set(['non-normal', 'procedure']);
    expect(joinLines(['perform a non-', 'normal procedure'], words)).toBe('perform a non-normal procedure');
    expect(joinLines(['perform a non-', 'normal procedure'])).toBe('perform a nonnormal procedure');
  });

  it('rejoins URLs and e-mail addresses broken after / or @', () => {
    expect(joinLines(['see https://', 'www.regulations.gov today'])).toBe(
      'see https://www.regulations.gov today',
    );
    expect(joinLines(['email: 9-FAA-SACO-AD-Inquiry@', 'faa.gov.'])).toBe(
      'email: 9-FAA-SACO-AD-Inquiry@faa.gov.',
    );
  });

  it('otherwise joins with one space', () => {
    expect(joinLines(['  first line  ', 'second\tline'])).toBe('first line second line');
  });
});

describe('isPageNumber', () => {
  it.each(['12', '- 12 -', 'Page 3 of 9', 'xiv', '7-45', '47703'])('%s is a page number', (text) => {
    expect(isPageNumber(text)).toBe(true);
  });

  it.each(['Chapter 1', '2020 results', 'Mix'])('%s is not', (text) => {
    expect(isPageNumber(text)).toBe(false);
  });
});

describe('fontStyleFromName', () => {
  it.each([
    ['CAAAAA+Arial-BoldMT', { bold: true, italic: false }],
    ['Melior-Bold', { bold: true, italic: false }],
    ['CMBX12', { bold: true, italic: false }],
    ['NimbusRomNo9L-Medi', { bold: true, italic: false }],
    ['KIDKQO+Times-Italic', { bold: false, italic: true }],
    ['CMTI10', { bold: false, italic: true }],
    ['WACECQ+Times-Roman', { bold: false, italic: false }],
  ])('%s', (name, style) => {
    expect(fontStyleFromName(name)).toEqual(style);
  });
});
